// GET /api/jobs and GET /api/jobs/{id} (spec 4.1). Query and path values arrive validated and typed by the
// contract (type and status enums, limit 1..100, offset >= 0, id a uuid); absent ones take the contract
// defaults here. The principal is guaranteed by authentication.
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import { invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { toJobResponse } from './job.response.js';
import type { JobStore } from './job.store.js';
import { JOBS_HOOKS } from './jobs.hooks.js';

/** spec 4.1, 8.6: jobs `limit` defaults to 50, `offset` to 0. */
const JOBS_DEFAULT_LIMIT = 50;

export function jobRoutes(jobs: JobStore, defects: Defects = NO_DEFECTS) {
  return {
    async listJobs({ principal, query }) {
      const status = defects.at(JOBS_HOOKS.statusFilter, query.status);
      if (!defects.at(JOBS_HOOKS.typeFilterAccepted, true, { type: query.type })) throw invalidRequest(`type must be a known job type, not ${query.type}`, 'type');
      const offset = query.offset ?? 0;
      const page = await jobs.list(principal.tenantId, { type: query.type, status, limit: query.limit ?? JOBS_DEFAULT_LIMIT, offset: defects.at(JOBS_HOOKS.pageStart, offset, { offset }), order: defects.at(JOBS_HOOKS.listOrder, 'newest-first') });
      return { status: 200, body: { jobs: page.jobs.map(toJobResponse), count: page.count } };
    },
    async getJob({ principal, params }) {
      // spec 7: NOT_FOUND when absent or not the tenant's; the two are indistinguishable on purpose.
      let job = await jobs.getForTenant(principal.tenantId, params.id);
      if (!job && !defects.at(JOBS_HOOKS.readScopedToTenant, true)) job = await jobs.get(params.id);
      if (!job) throw notFound('job');
      return { status: 200, body: toJobResponse(job) };
    },
  } satisfies HandlerTable;
}
