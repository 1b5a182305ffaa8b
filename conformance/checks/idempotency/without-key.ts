// idempotency.independent-without-key (spec 8.5): on each of the four idempotent endpoints, the same
// request sent twice without Idempotency-Key creates two independent jobs (and trade feed sessions).
import { defineCheck } from '../../harness/check.js';
import { send, shareResources } from './endpoints.js';
import { idempotencyTenant, jobCount, receipt } from './support.js';
import { accepted, forEachEndpoint } from './visit.js';

export const independentWithoutKey = defineCheck({
  id: 'idempotency.independent-without-key',
  title: 'On each idempotent endpoint identical requests without an Idempotency-Key create independent jobs',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await idempotencyTenant(ctx, 'Conformance requests without a key');
    await forEachEndpoint(ctx, async (endpoint, index) => {
      const { original } = endpoint.payloads('keyless', index);
      const before = tenant.fresh ? await jobCount(tenant.client) : undefined;
      const first = await send(ctx, tenant.client, endpoint, original);
      const made = accepted(ctx, tenant, endpoint, first, 'the first request without a key');
      if (!('ids' in made)) return 'reason' in made ? made.reason : undefined;
      const second = await send(ctx, tenant.client, endpoint, original);
      const again = accepted(ctx, tenant, endpoint, second, 'the identical second request without a key');
      if (!('ids' in again)) return 'reason' in again ? again.reason : undefined;
      ctx.expect(!shareResources(made.ids, again.ids), 'idempotency-keyless-independent', `POST ${endpoint.path}: two identical requests without Idempotency-Key answered ${made.ids.label} and ${again.ids.label} (spec 8.5: independent jobs or sessions)`, second);
      ctx.expect(receipt(second).replayed !== true, 'idempotency-replayed-flag', `POST ${endpoint.path}: a request without Idempotency-Key answered replayed: true`, second);
      if (before && typeof before.count === 'number') {
        const after = await jobCount(tenant.client);
        ctx.expect(after.count === before.count + 2, 'idempotency-keyless-independent', `POST ${endpoint.path}: two requests without a key took the tenant's job count from ${before.count} to ${JSON.stringify(after.count)}, not ${before.count + 2}`, after.exchange);
      }
    });
  },
});
