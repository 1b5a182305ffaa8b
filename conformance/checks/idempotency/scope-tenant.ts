// idempotency.scope-tenant (spec 8.5: a key is "scoped by tenant, endpoint and key"): the same key and payload
// sent by two tenants to each idempotent endpoint create an independent job in each tenant.
import { defineCheck } from '../../harness/check.js';
import type { WriteTenant } from '../jobs-support.js';
import { send, shareResources } from './endpoints.js';
import { idempotencyTenant, newKey, receipt } from './support.js';
import { accepted, forEachEndpoint } from './visit.js';

/** The second tenant: created for the check with the control API, else the given second key's tenant. */
async function secondTenant(ctx: Parameters<typeof idempotencyTenant>[0] & { second?: WriteTenant['client'] }): Promise<WriteTenant> {
  if (ctx.admin) return idempotencyTenant(ctx, 'Conformance idempotency scope: tenant B');
  return { client: ctx.second!, fresh: false };
}

export const keyScopedByTenant = defineCheck({
  id: 'idempotency.scope-tenant',
  title: 'The same Idempotency-Key and payload in two tenants create an independent job in each',
  area: 'idempotency',
  needs: ['writes', 'secondTenant'],
  async run(ctx) {
    const first = await idempotencyTenant(ctx, 'Conformance idempotency scope: tenant A');
    const second = await secondTenant(ctx);
    await forEachEndpoint(ctx, async (endpoint, index) => {
      const key = newKey(ctx, 'scope-tenant', index);
      const { original } = endpoint.payloads('scope-tenant', index);
      const a = await send(ctx, first.client, endpoint, original, key);
      const madeA = accepted(ctx, first, endpoint, a, 'the first tenant\'s request with a new key');
      if (!('ids' in madeA)) return 'reason' in madeA ? madeA.reason : undefined;
      const b = await send(ctx, second.client, endpoint, original, key);
      if (b.response.status === 409) {
        ctx.fail('idempotency-scope-tenant', `POST ${endpoint.path}: the second tenant's request answered 409 to a key only the first tenant used (spec 8.5 scopes a key by tenant)`, b);
        return;
      }
      const madeB = accepted(ctx, second, endpoint, b, 'the second tenant\'s request with the same key and payload');
      if (!('ids' in madeB)) return 'reason' in madeB ? madeB.reason : undefined;
      ctx.expect(!shareResources(madeA.ids, madeB.ids), 'idempotency-scope-tenant', `POST ${endpoint.path}: the second tenant was answered ${madeB.ids.label}, the first tenant's (spec 8.5 scopes a key by tenant; spec 7: another tenant's resource does not exist)`, b);
      ctx.expect(receipt(b).replayed !== true, 'idempotency-scope-tenant', `POST ${endpoint.path}: the second tenant's first request with this key answered replayed: true (spec 8.5 scopes a key by tenant)`, b);
    });
  },
});
