// idempotency.expiry (spec 8.5: "keys expire server-side; the expiry duration: not shown"). Simulator
// profile only: the sandbox states its expiry (GET /_sim/status `idempotencyKeyTtlSeconds`, sandbox-defined)
// and moves a tenant's clock. Most of the expiry time later a key still replays on each idempotent
// endpoint; once it has passed, the same key and payload create a new job.
import { defineCheck } from '../../harness/check.js';
import { sameResources, send, shareResources, type IdempotentEndpoint, type ReceiptIds } from './endpoints.js';
import { idempotencyTenant, newKey, receipt } from './support.js';
import { accepted, endpointsOrSkip } from './visit.js';

/** The share of the expiry time after which a key must still replay (well inside it, whatever its length). */
const STILL_REMEMBERED = 0.9;

export const keysExpire = defineCheck({
  id: 'idempotency.expiry',
  title: 'An Idempotency-Key replays until the sandbox\'s expiry time on the tenant\'s clock, and creates a new job after it',
  area: 'idempotency',
  needs: ['writes', 'admin'],
  async run(ctx) {
    const admin = ctx.admin!;
    const ttl = (await admin.status()).idempotencyKeyTtlSeconds;
    if (typeof ttl !== 'number' || !(ttl > 0)) return ctx.skip('the sandbox does not state its Idempotency-Key expiry (GET /_sim/status idempotencyKeyTtlSeconds)');
    const { endpoints, reasons } = endpointsOrSkip(ctx);
    const tenant = await idempotencyTenant(ctx, 'Conformance idempotency expiry');
    const tenantId = tenant.tenantId!;
    // Every endpoint's key is used first, so one move of the tenant's clock ages them all alike.
    const used: Array<{ endpoint: IdempotentEndpoint; key: string; index: number; ids: ReceiptIds }> = [];
    for (const [index, endpoint] of endpoints.entries()) {
      const key = newKey(ctx, 'expiry', index);
      const exchange = await send(ctx, tenant.client, endpoint, endpoint.payloads('expiry', index).original, key);
      const made = accepted(ctx, tenant, endpoint, exchange, 'the first request with a new key');
      if ('reason' in made) reasons.push(made.reason);
      if ('ids' in made) used.push({ endpoint, key, index, ids: made.ids });
    }
    const early = Math.floor(ttl * STILL_REMEMBERED);
    await admin.advanceClock(early, tenantId);
    for (const { endpoint, key, index, ids } of used) {
      const exchange = await send(ctx, tenant.client, endpoint, endpoint.payloads('expiry', index).original, key);
      const again = accepted(ctx, tenant, endpoint, exchange, `the same key and payload ${early} s later (expiry ${ttl} s)`);
      if (!('ids' in again)) continue;
      ctx.expect(sameResources(ids, again.ids) && receipt(exchange).replayed === true, 'idempotency-before-expiry', `POST ${endpoint.path}: ${early} s after the first request (the sandbox keeps keys ${ttl} s) the same key and payload answered ${again.ids.label}, replayed: ${JSON.stringify(receipt(exchange).replayed)}, not a replay of ${ids.label} (spec 8.5)`, exchange);
    }
    // Past the expiry of every key: the last one was used `early` seconds ago on this clock, plus real time.
    const rest = ttl - early + 1;
    await admin.advanceClock(rest, tenantId);
    for (const { endpoint, key, index, ids } of used) {
      const exchange = await send(ctx, tenant.client, endpoint, endpoint.payloads('expiry', index).original, key);
      const fresh = accepted(ctx, tenant, endpoint, exchange, `the same key and payload after its expiry (${early + rest} s later, expiry ${ttl} s)`);
      if (!('ids' in fresh)) continue;
      ctx.expect(!shareResources(ids, fresh.ids) && receipt(exchange).replayed !== true, 'idempotency-expired-key', `POST ${endpoint.path}: ${early + rest} s after the first request (the sandbox keeps keys ${ttl} s) the same key answered ${fresh.ids.label}, replayed: ${JSON.stringify(receipt(exchange).replayed)}; an expired key creates a new job (spec 8.5)`, exchange);
    }
    if (reasons.length) ctx.skip(reasons.join('; '));
  },
});
