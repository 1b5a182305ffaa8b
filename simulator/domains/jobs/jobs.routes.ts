// GET /api/jobs and GET /api/jobs/{id} (spec 4.1). Query and path values arrive validated by the contract
// (type and status enums, limit 1..100, offset >= 0, id a uuid); absent ones take the contract defaults here.
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import { invalidToken, notFound } from '../../kernel/errors.js';
import type { HandlerRequest, HandlerTable } from '../../kernel/http/types.js';
import type { JobRecord, JobType } from './index.js';
import type { JobStatus } from './job.machine.js';
import { toJobResponse } from './job.response.js';
import type { JobStore } from './job.store.js';

/** spec 4.1, 8.6: jobs `limit` defaults to 50, `offset` to 0. */
export const JOBS_DEFAULT_LIMIT = 50;

const tenantOf = (request: HandlerRequest): string => {
  if (!request.principal) throw invalidToken();
  return request.principal.tenantId;
};

export function jobRoutes(jobs: JobStore, defects: Defects = NO_DEFECTS): HandlerTable {
  /** Jobs already read as COMPLETED (for the jobs.completed-then-processing defect only). */
  const seenCompleted = new Set<string>();
  const present = (job: JobRecord): Record<string, unknown> => {
    const body = toJobResponse(job);
    // defect injection (SIM_DEFECTS): jobs.progress-not-100 reports a COMPLETED job at progress 90.
    if (defects.has('jobs.progress-not-100') && job.status === 'COMPLETED') body.progress = 90;
    // defect injection (SIM_DEFECTS): jobs.completed-then-processing reads a COMPLETED job as PROCESSING after its first read.
    if (defects.has('jobs.completed-then-processing') && job.status === 'COMPLETED') {
      if (seenCompleted.has(job.id)) body.status = 'PROCESSING';
      seenCompleted.add(job.id);
    }
    return body;
  };
  /** defect injection (SIM_DEFECTS): pagination.offset-gap skips one record, pagination.duplicate repeats one, at offset > 0. */
  const pageStart = (offset: number) =>
    offset > 0 && defects.has('pagination.offset-gap') ? offset + 1 : offset > 0 && defects.has('pagination.duplicate') ? offset - 1 : offset;

  return {
    listJobs(request) {
      const tenantId = tenantOf(request);
      const { type, status, limit, offset } = request.query as { type?: JobType; status?: JobStatus; limit?: number; offset?: number };
      // defect injection (SIM_DEFECTS): jobs.list-filter-ignored drops the status filter.
      const statusFilter = defects.has('jobs.list-filter-ignored') ? undefined : status;
      const page = jobs.list(tenantId, { type, status: statusFilter, limit: limit ?? JOBS_DEFAULT_LIMIT, offset: pageStart(offset ?? 0) });
      return { status: 200, body: { jobs: page.jobs.map(present), count: page.count } };
    },
    getJob(request) {
      const tenantId = tenantOf(request);
      // spec 7: NOT_FOUND when absent or not the tenant's; the two are indistinguishable on purpose.
      let job = jobs.getForTenant(tenantId, String(request.params.id));
      // defect injection (SIM_DEFECTS): isolation.tenant-leak serves another tenant's job.
      if (!job && defects.has('isolation.tenant-leak')) job = jobs.get(String(request.params.id));
      if (!job) throw notFound('job');
      return { status: 200, body: present(job) };
    },
  };
}
