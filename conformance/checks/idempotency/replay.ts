// idempotency.replay (spec 8.5, 2.3): on each of the four idempotent endpoints, the same key and payload
// replay the original job (and trade feed session) with `replayed: true`, and create nothing.
import { defineCheck } from '../../harness/check.js';
import { sameResources, send } from './endpoints.js';
import { receipt, idempotencyTenant, jobCount, newKey } from './support.js';
import { accepted, forEachEndpoint } from './visit.js';

export const idempotentReplay = defineCheck({
  id: 'idempotency.replay',
  title: 'On each idempotent endpoint the same Idempotency-Key and payload replay the original job with replayed: true',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await idempotencyTenant(ctx, 'Conformance idempotency replay');
    await forEachEndpoint(ctx, async (endpoint, index) => {
      const key = newKey(ctx, 'replay', index);
      const { original } = endpoint.payloads('replay', index);
      const first = await send(ctx, tenant.client, endpoint, original, key);
      const made = accepted(ctx, tenant, endpoint, first, 'the first request with a new key');
      if (!('ids' in made)) return 'reason' in made ? made.reason : undefined;
      // Spec 2.3: `replayed` is false on a request that created the job (optional on the trade feed receipt).
      const flag = receipt(first).replayed;
      if (endpoint.replayedRequired ? flag !== false : flag === true) {
        ctx.fail('idempotency-replayed-flag', `POST ${endpoint.path}: the first request with a new key answered replayed: ${JSON.stringify(flag)}, not false (spec 2.3)`, first);
      }
      const before = tenant.fresh ? await jobCount(tenant.client) : undefined;
      const second = await send(ctx, tenant.client, endpoint, original, key);
      const again = accepted(ctx, tenant, endpoint, second, 'the repeat with the same key and payload');
      if (!('ids' in again)) return 'reason' in again ? again.reason : undefined;
      ctx.expect(sameResources(again.ids, made.ids), 'idempotency-same-job', `POST ${endpoint.path}: the repeat answered ${again.ids.label}, not the original ${made.ids.label} (spec 8.5)`, second);
      ctx.expect(receipt(second).replayed === true, 'idempotency-replayed-flag', `POST ${endpoint.path}: the repeat answered replayed: ${JSON.stringify(receipt(second).replayed)}, not true (spec 2.3, 8.5)`, second);
      const read = await tenant.client.call('GET', `/api/jobs/${encodeURIComponent(made.ids.jobId)}`);
      ctx.expect(read.response.status === 200, 'idempotency-job-readable', `GET /api/jobs/${made.ids.jobId} answered ${read.response.status}, not 200`, read);
      if (before) {
        // A tenant created for the check: nothing else writes in it, so a replay leaves its job count alone.
        const after = await jobCount(tenant.client);
        ctx.expect(after.count === before.count, 'idempotency-one-job', `POST ${endpoint.path}: the replay changed the tenant's job count from ${JSON.stringify(before.count)} to ${JSON.stringify(after.count)} (spec 8.5: the original job, no new one)`, after.exchange);
      }
    });
  },
});
