// idempotency.concurrent (spec 8.5): concurrent POST /api/sima/batch requests with one new key create one
// job; every other answer replays it.
import fc from 'fast-check';
import { defineCheck } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { batchBody, enqueue, errorCode, isRateLimited, seeded, SKU_POOL, writeTenant } from '../jobs-support.js';
import { jobCount, newKey, receipt } from './support.js';

/** Concurrent requests with one new key. */
const CONCURRENT = 20;

export const idempotentConcurrent = defineCheck({
  id: 'idempotency.concurrent',
  title: 'Concurrent requests with one new Idempotency-Key create exactly one job',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await writeTenant(ctx, 'Conformance idempotency concurrency');
    const key = newKey(ctx, 'concurrent', 2);
    const body = batchBody(seeded(fc.subarray(SKU_POOL, { minLength: 1, maxLength: 3 }), ctx.seed, 2));
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => enqueue(tenant.client, body, key)));
    // A shared tenant may be throttled (spec 8.1-8.2); a throttled request created nothing and is left out.
    const counted = answers.filter((exchange) => !(isRateLimited(exchange) && !tenant.fresh));
    for (const exchange of counted) {
      if (exchange.response.status !== 202) {
        ctx.fail('idempotency-accepted', `one of ${CONCURRENT} concurrent requests with the same key and payload answered ${exchange.response.status} ${JSON.stringify(errorCode(exchange))}, not 202 (spec 8.5)`, exchange);
        return;
      }
    }
    if (counted.length < 2) ctx.skip(`only ${counted.length} of ${CONCURRENT} concurrent requests were not throttled`);
    const ids = new Map<string, Exchange>();
    for (const exchange of counted) ids.set(String(receipt(exchange).jobId), exchange);
    ctx.expect(ids.size === 1, 'idempotency-concurrent-one-job', `${counted.length} concurrent requests with one key and payload answered ${ids.size} different jobs (spec 8.5: one job, the others replay it)`, [...ids.values()][1]);
    const fresh = counted.filter((exchange) => receipt(exchange).replayed === false);
    ctx.expect(fresh.length === 1, 'idempotency-replayed-flag', `${fresh.length} of ${counted.length} concurrent answers say replayed: false; exactly one request created the job (spec 2.3)`, fresh[1] ?? counted[0]);
    if (tenant.fresh) {
      const { count, exchange } = await jobCount(tenant.client);
      ctx.expect(count === 1, 'idempotency-one-job', `after ${CONCURRENT} concurrent requests with one key the tenant holds ${JSON.stringify(count)} jobs, not 1`, exchange);
    }
  },
});
