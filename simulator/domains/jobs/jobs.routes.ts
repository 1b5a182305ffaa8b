// GET /api/jobs and GET /api/jobs/{id} (spec 4.1). Query and path values arrive validated by the contract
// (type and status enums, limit 1..100, offset >= 0, id a uuid); absent ones take the contract defaults here.
import { invalidToken, notFound } from '../../kernel/errors.js';
import type { HandlerRequest, HandlerTable } from '../../kernel/http/types.js';
import type { JobType } from './index.js';
import type { JobStatus } from './job.machine.js';
import { toJobResponse } from './job.response.js';
import type { JobStore } from './job.store.js';

/** spec 4.1, 8.6: jobs `limit` defaults to 50, `offset` to 0. */
export const JOBS_DEFAULT_LIMIT = 50;

const tenantOf = (request: HandlerRequest): string => {
  if (!request.principal) throw invalidToken();
  return request.principal.tenantId;
};

export function jobRoutes(jobs: JobStore): HandlerTable {
  return {
    listJobs(request) {
      const tenantId = tenantOf(request);
      const { type, status, limit, offset } = request.query as { type?: JobType; status?: JobStatus; limit?: number; offset?: number };
      const page = jobs.list(tenantId, { type, status, limit: limit ?? JOBS_DEFAULT_LIMIT, offset: offset ?? 0 });
      return { status: 200, body: { jobs: page.jobs.map(toJobResponse), count: page.count } };
    },
    getJob(request) {
      const tenantId = tenantOf(request);
      // spec 7: NOT_FOUND when absent or not the tenant's; the two are indistinguishable on purpose.
      const job = jobs.getForTenant(tenantId, String(request.params.id));
      if (!job) throw notFound('job');
      return { status: 200, body: toJobResponse(job) };
    },
  };
}
