// Idempotency-Key (spec 8.5, 2.3, 7) on the four endpoints it applies to: POST /api/sima/batch, /api/upload,
// /api/catalog/upload and /api/trade/feeds/upload. The same key and (normalized) payload replay the original
// job with `replayed: true`; another payload is 409 ACTION_NOT_ALLOWED; a key is scoped by tenant and endpoint;
// requests without a key are independent; keys expire (simulator profile: the sandbox states when).
//
//   support.ts             keys of the run, the tenant written in, receipts, job counts
//   endpoints.ts           the four endpoints: payloads, another payload, normalized equivalents; sending
//   visit.ts               the per-endpoint loop, an accepted first request, skip reasons
//   replay.ts              idempotency.replay
//   conflict.ts            idempotency.conflict
//   concurrent.ts          idempotency.concurrent (POST /api/sima/batch)
//   without-key.ts         idempotency.independent-without-key
//   scope-endpoint.ts      idempotency.scope-endpoint
//   scope-tenant.ts        idempotency.scope-tenant
//   normalized-payload.ts  idempotency.normalized-payload
//   expiry.ts              idempotency.expiry (simulator profile)
import type { Check } from '../../harness/check.js';
import { idempotentConcurrent } from './concurrent.js';
import { idempotentConflict } from './conflict.js';
import { keysExpire } from './expiry.js';
import { normalizedPayloadReplays } from './normalized-payload.js';
import { idempotentReplay } from './replay.js';
import { keyScopedByEndpoint } from './scope-endpoint.js';
import { keyScopedByTenant } from './scope-tenant.js';
import { independentWithoutKey } from './without-key.js';

export const idempotencyChecks: Check[] = [
  idempotentReplay,
  idempotentConflict,
  idempotentConcurrent,
  independentWithoutKey,
  normalizedPayloadReplays,
  keyScopedByEndpoint,
  keyScopedByTenant,
  keysExpire,
];
