// idempotency.scope-endpoint (spec 8.5: a key is "scoped by tenant, endpoint and key"): one key sent to each
// of the idempotent endpoints in turn creates an independent job on each; none is a replay or a conflict.
import { defineCheck } from '../../harness/check.js';
import { errorCode } from '../jobs-support.js';
import { send, shareResources, type ReceiptIds } from './endpoints.js';
import { idempotencyTenant, newKey, receipt } from './support.js';
import { accepted, endpointsOrSkip } from './visit.js';

export const keyScopedByEndpoint = defineCheck({
  id: 'idempotency.scope-endpoint',
  title: 'One Idempotency-Key used on each idempotent endpoint creates an independent job on each',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const { endpoints, reasons } = endpointsOrSkip(ctx, 2);
    const tenant = await idempotencyTenant(ctx, 'Conformance idempotency scope: endpoints');
    const key = newKey(ctx, 'scope-endpoint', 0);
    const earlier: Array<{ path: string; ids: ReceiptIds }> = [];
    for (const [index, endpoint] of endpoints.entries()) {
      const exchange = await send(ctx, tenant.client, endpoint, endpoint.payloads('scope-endpoint', index).original, key);
      if (exchange.response.status === 409) {
        ctx.fail('idempotency-scope-endpoint', `POST ${endpoint.path} answered 409 ${JSON.stringify(errorCode(exchange))} to a key used so far only on ${earlier.map((e) => e.path).join(', ') || 'no endpoint that accepted it'}; spec 8.5 scopes a key by endpoint`, exchange);
        continue;
      }
      const made = accepted(ctx, tenant, endpoint, exchange, `the first request with this key on this endpoint (used before on ${earlier.map((e) => e.path).join(', ') || 'none'})`);
      if ('reason' in made) reasons.push(made.reason);
      if (!('ids' in made)) continue;
      const flag = receipt(exchange).replayed;
      ctx.expect(flag !== true, 'idempotency-scope-endpoint', `POST ${endpoint.path} answered replayed: true to a key used so far only on other endpoints (${earlier.map((e) => e.path).join(', ')}); spec 8.5 scopes a key by endpoint`, exchange);
      const shared = earlier.find((e) => shareResources(e.ids, made.ids));
      ctx.expect(shared === undefined, 'idempotency-scope-endpoint', `POST ${endpoint.path} answered ${made.ids.label}, which POST ${shared?.path} answered for the same key (spec 8.5: independent per endpoint)`, exchange);
      earlier.push({ path: endpoint.path, ids: made.ids });
    }
    if (reasons.length) ctx.skip(reasons.join('; '));
  },
});
