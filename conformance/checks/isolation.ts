// Tenant isolation (spec 7: NOT_FOUND is "resource absent or not the tenant's"): a job of one tenant is
// invisible to another, both by id and in its job list.
import { defineCheck } from '../harness/check.js';
import { expectError } from './auth.js';

const PAGE = 100; // spec 4.1: jobs `limit` 1..100
const MAX_PAGES = 5;

export const isolationJobs = defineCheck({
  id: 'isolation.jobs',
  title: "Another tenant's job is 404 NOT_FOUND by id and absent from the job list",
  area: 'isolation',
  needs: ['writes', 'secondTenant'],
  async run(ctx) {
    const second = ctx.second!;
    // Spec 4.2: `skus: null` screens the whole catalog; any accepted enqueue creates a job (3.1).
    const enqueued = await ctx.client.call('POST', '/api/sima/batch', { json: { skus: null } });
    const jobId = (enqueued.response.body as { jobId?: unknown })?.jobId;
    if (!ctx.expect(enqueued.response.status === 202 && typeof jobId === 'string', 'enqueue', `POST /api/sima/batch answered ${enqueued.response.status}, not 202 with a jobId`, enqueued)) return;

    // The owner sees it, so a 404 for the other tenant is about ownership, not existence.
    const own = await ctx.client.call('GET', `/api/jobs/${jobId}`);
    if (!ctx.expect(own.response.status === 200, 'owner-reads-job', `the owning tenant's GET /api/jobs/${jobId} answered ${own.response.status}, not 200`, own)) return;

    const foreign = await second.call('GET', `/api/jobs/${jobId}`);
    if (foreign.response.status === 200) {
      ctx.fail('tenant-isolation', `the second tenant read the first tenant's job ${jobId} (200); spec 7 requires 404 NOT_FOUND for a resource not the tenant's`, foreign);
    } else {
      expectError(ctx, foreign, 404, 'NOT_FOUND', `the second tenant's GET /api/jobs/${jobId}`);
    }

    for (let page = 0; page < MAX_PAGES; page++) {
      const list = await second.call('GET', `/api/jobs?limit=${PAGE}&offset=${page * PAGE}`);
      const jobs = (list.response.body as { jobs?: unknown })?.jobs;
      if (!ctx.expect(list.response.status === 200 && Array.isArray(jobs), 'job-list', `the second tenant's job list answered ${list.response.status}, not 200 with a jobs array`, list)) return;
      const items = jobs as Array<{ id?: unknown }>;
      if (items.some((job) => job?.id === jobId)) {
        ctx.fail('tenant-isolation', `the second tenant's job list (offset ${page * PAGE}) contains the first tenant's job ${jobId}`, list);
        return;
      }
      if (items.length < PAGE) return;
    }
  },
});

export const isolationChecks = [isolationJobs];
