// idempotency.normalized-payload (spec 8.5: "same key and same normalized payload returns 202 with the
// original job"): a payload that differs from the first only in what normalization removes replays the
// first job. What the spec makes normal: the members of a JSON object are unordered (RFC 8259), and
// `screeningAuthority` is read trimmed and case-insensitive (spec 4.2, 4.3). The trade feed upload has no
// such field, so it is not exercised here.
import { defineCheck } from '../../harness/check.js';
import { errorCode } from '../jobs-support.js';
import { sameResources, send } from './endpoints.js';
import { idempotencyTenant, newKey, receipt } from './support.js';
import { accepted, endpointsOrSkip } from './visit.js';

export const normalizedPayloadReplays = defineCheck({
  id: 'idempotency.normalized-payload',
  title: 'The same Idempotency-Key with a payload equal once normalized (member order, screeningAuthority spelling) replays the original job',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const { endpoints, reasons } = endpointsOrSkip(ctx);
    const tenant = await idempotencyTenant(ctx, 'Conformance idempotency normalized payload');
    let exercised = 0;
    for (const [index, endpoint] of endpoints.entries()) {
      const { original, equivalents } = endpoint.payloads('normalized', index);
      for (const [variant, equivalent] of equivalents.entries()) {
        const key = newKey(ctx, `normalized-${variant}`, index);
        const first = await send(ctx, tenant.client, endpoint, original, key);
        const made = accepted(ctx, tenant, endpoint, first, 'the first request with a new key');
        if ('reason' in made) reasons.push(made.reason);
        if (!('ids' in made)) continue;
        const second = await send(ctx, tenant.client, endpoint, equivalent.payload, key);
        exercised++;
        if (second.response.status !== 202) {
          ctx.fail('idempotency-normalized-replay', `POST ${endpoint.path}: the same key with ${equivalent.label} answered ${second.response.status} ${JSON.stringify(errorCode(second))}, not 202 replaying ${made.ids.label} (spec 8.5: same normalized payload)`, second);
          continue;
        }
        const again = accepted(ctx, tenant, endpoint, second, `the same key with ${equivalent.label}`);
        if (!('ids' in again)) continue;
        ctx.expect(sameResources(made.ids, again.ids) && receipt(second).replayed === true, 'idempotency-normalized-replay', `POST ${endpoint.path}: the same key with ${equivalent.label} answered ${again.ids.label}, replayed: ${JSON.stringify(receipt(second).replayed)}, not the original ${made.ids.label} with replayed: true (spec 8.5: same normalized payload)`, second);
      }
    }
    if (!exercised && !reasons.length) reasons.push(`no idempotent endpoint of contract ${ctx.contract.version} takes a field the spec normalizes`);
    if (reasons.length) ctx.skip(reasons.join('; '));
  },
});
