// GET /api/jobs and GET /api/jobs/{id} (spec 4.1). Query and path values arrive validated and typed by the
// contract (type and status enums, limit 1..100, offset >= 0, id a uuid); absent ones take the contract
// defaults here. The principal is guaranteed by authentication.
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import { invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { toJobResponse } from './job.response.js';
import type { JobStore } from './job.store.js';

/** spec 4.1, 8.6: jobs `limit` defaults to 50, `offset` to 0. */
export const JOBS_DEFAULT_LIMIT = 50;

export function jobRoutes(jobs: JobStore, defects: Defects = NO_DEFECTS) {
  /** defect injection (SIM_DEFECTS): pagination.offset-gap skips one record, pagination.duplicate repeats one, at offset > 0. */
  const pageStart = (offset: number) =>
    offset > 0 && defects.has('pagination.offset-gap') ? offset + 1 : offset > 0 && defects.has('pagination.duplicate') ? offset - 1 : offset;

  return {
    async listJobs({ principal, query }) {
      // defect injection (SIM_DEFECTS): jobs.list-filter-ignored drops the status filter.
      const status = defects.has('jobs.list-filter-ignored') ? undefined : query.status;
      // defect injection (SIM_DEFECTS): jobs.type-filter-stale-enum knows only the job types before the
      // notification ones (a server whose enum lags the contract).
      if (defects.has('jobs.type-filter-stale-enum') && typeof query.type === 'string' && query.type.startsWith('notification_')) throw invalidRequest(`type must be a known job type, not ${query.type}`, 'type');
      const page = await jobs.list(principal.tenantId, { type: query.type, status, limit: query.limit ?? JOBS_DEFAULT_LIMIT, offset: pageStart(query.offset ?? 0) });
      return { status: 200, body: { jobs: page.jobs.map(toJobResponse), count: page.count } };
    },
    async getJob({ principal, params }) {
      // spec 7: NOT_FOUND when absent or not the tenant's; the two are indistinguishable on purpose.
      let job = await jobs.getForTenant(principal.tenantId, params.id);
      // defect injection (SIM_DEFECTS): isolation.tenant-leak serves another tenant's job.
      if (!job && defects.has('isolation.tenant-leak')) job = await jobs.get(params.id);
      if (!job) throw notFound('job');
      return { status: 200, body: toJobResponse(job) };
    },
  } satisfies HandlerTable;
}
