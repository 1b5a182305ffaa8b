// Idempotency-Key on POST /api/sima/batch (spec 8.5, 2.3, 7): the same key and payload replay the original
// job (`replayed: true`), the same key with another payload is 409 ACTION_NOT_ALLOWED, concurrent requests with
// one key create one job, and requests without the header create independent jobs.
import fc from 'fast-check';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { Exchange } from '../harness/types.js';
import { batchBody, enqueue, enqueueHonouringLimits, errorCode, isRateLimited, receiptJobId, RUN_NONCE, seeded, SKU_POOL, writeTenant } from './jobs-support.js';

/** A key of this run (spec 8.5: 1 to 200 characters): seeded, made unique on a shared server by the run nonce. */
function newKey(ctx: CheckContext, purpose: string, index: number): string {
  const drawn = seeded(fc.stringMatching(/^[A-Za-z0-9_-]{16}$/), ctx.seed, index);
  return `conf-${RUN_NONCE}-${purpose}-${drawn}`;
}

/** Two distinct batch bodies drawn with the seed. */
function bodies(ctx: CheckContext, index: number) {
  const [a, b] = seeded(fc.uniqueArray(fc.subarray(SKU_POOL, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 2, selector: (skus) => skus.join(',') }), ctx.seed, index);
  return [batchBody(a), batchBody(b)];
}

const receipt = (exchange: Exchange) => exchange.response.body as { jobId?: unknown; replayed?: unknown; status?: unknown };

async function jobCount(client: ConformanceClient): Promise<{ count: unknown; exchange: Exchange }> {
  const exchange = await client.call('GET', '/api/jobs?limit=1');
  return { count: (exchange.response.body as { count?: unknown } | null)?.count, exchange };
}

function expectAccepted(ctx: CheckContext, exchange: Exchange, what: string): string | undefined {
  // Spec 8.1-8.2: a shared tenant may stay throttled beyond the wait Retry-After asks for; nothing to judge.
  if (isRateLimited(exchange)) ctx.skip(`${what} was still rate limited after waiting as the 429 asked`);
  const id = receiptJobId(exchange);
  ctx.expect(id !== undefined, 'idempotency-accepted', `${what} answered ${exchange.response.status}, not 202 with a jobId`, exchange);
  return id;
}

export const idempotentReplay = defineCheck({
  id: 'idempotency.replay',
  title: 'The same Idempotency-Key and payload replay the original job with replayed: true',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await writeTenant(ctx, 'Conformance idempotency replay');
    const key = newKey(ctx, 'replay', 0);
    const [body] = bodies(ctx, 0);
    const first = await enqueueHonouringLimits(tenant.client, body, { key, admin: ctx.admin });
    const firstId = expectAccepted(ctx, first, 'the first request with a new key');
    if (!firstId) return;
    ctx.expect(receipt(first).replayed === false, 'idempotency-replayed-flag', `the first request with a new key answered replayed: ${JSON.stringify(receipt(first).replayed)}, not false (spec 2.3)`, first);
    const second = await enqueueHonouringLimits(tenant.client, body, { key, admin: ctx.admin });
    const secondId = expectAccepted(ctx, second, 'the repeat with the same key and payload');
    if (!secondId) return;
    ctx.expect(secondId === firstId, 'idempotency-same-job', `the repeat answered job ${secondId}, not the original ${firstId} (spec 8.5)`, second);
    ctx.expect(receipt(second).replayed === true, 'idempotency-replayed-flag', `the repeat answered replayed: ${JSON.stringify(receipt(second).replayed)}, not true (spec 2.3, 8.5)`, second);
    const read = await tenant.client.call('GET', `/api/jobs/${firstId}`);
    ctx.expect(read.response.status === 200, 'idempotency-job-readable', `GET /api/jobs/${firstId} answered ${read.response.status}, not 200`, read);
    if (tenant.fresh) {
      const { count, exchange } = await jobCount(tenant.client);
      ctx.expect(count === 1, 'idempotency-one-job', `a tenant that only sent this key twice holds ${JSON.stringify(count)} jobs, not 1`, exchange);
    }
  },
});

export const idempotentConflict = defineCheck({
  id: 'idempotency.conflict',
  title: 'The same Idempotency-Key with a different payload is refused with 409 ACTION_NOT_ALLOWED',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await writeTenant(ctx, 'Conformance idempotency conflict');
    const key = newKey(ctx, 'conflict', 1);
    const [body, other] = bodies(ctx, 1);
    const first = await enqueueHonouringLimits(tenant.client, body, { key, admin: ctx.admin });
    if (!expectAccepted(ctx, first, 'the first request with a new key')) return;
    const second = await enqueueHonouringLimits(tenant.client, other, { key, admin: ctx.admin });
    if (second.response.status === 202) {
      ctx.fail('idempotency-conflict', `the same key with another payload was accepted (202, job ${JSON.stringify(receipt(second).jobId)}, replayed: ${JSON.stringify(receipt(second).replayed)}); spec 8.5: 409 ACTION_NOT_ALLOWED`, second);
    } else {
      ctx.expect(second.response.status === 409 && errorCode(second) === 'ACTION_NOT_ALLOWED', 'idempotency-conflict', `the same key with another payload answered ${second.response.status} ${JSON.stringify(errorCode(second))}, not 409 ACTION_NOT_ALLOWED (spec 8.5, 7)`, second);
    }
    if (tenant.fresh) {
      const { count, exchange } = await jobCount(tenant.client);
      ctx.expect(count === 1, 'idempotency-one-job', `after the second request the tenant holds ${JSON.stringify(count)} jobs, not 1`, exchange);
    }
  },
});

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
    const [body] = bodies(ctx, 2);
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

export const independentWithoutKey = defineCheck({
  id: 'idempotency.independent-without-key',
  title: 'Identical requests without an Idempotency-Key create independent jobs',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await writeTenant(ctx, 'Conformance requests without a key');
    const [body] = bodies(ctx, 3);
    const first = await enqueueHonouringLimits(tenant.client, body, { admin: ctx.admin });
    const firstId = expectAccepted(ctx, first, 'the first request without a key');
    const second = await enqueueHonouringLimits(tenant.client, body, { admin: ctx.admin });
    const secondId = expectAccepted(ctx, second, 'the identical second request without a key');
    if (!firstId || !secondId) return;
    ctx.expect(firstId !== secondId, 'idempotency-keyless-independent', `two identical requests without Idempotency-Key answered the same job ${firstId} (spec 8.5: independent jobs)`, second);
    ctx.expect(receipt(second).replayed !== true, 'idempotency-replayed-flag', 'a request without Idempotency-Key answered replayed: true', second);
    if (tenant.fresh) {
      const { count, exchange } = await jobCount(tenant.client);
      ctx.expect(count === 2, 'idempotency-keyless-independent', `after two requests without a key the tenant holds ${JSON.stringify(count)} jobs, not 2`, exchange);
    }
  },
});

export const idempotencyChecks: Check[] = [idempotentReplay, idempotentConflict, idempotentConcurrent, independentWithoutKey];
