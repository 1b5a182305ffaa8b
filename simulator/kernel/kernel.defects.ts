// The kernel's injectable defects (README "Defect injection"): request validation, idempotency, rate
// limits and the error envelope, which every operation shares. The hooks are `defects.has('<id>')` lines
// where the behaviour lives (http/validate-request.ts, http/contract-routes.ts, http/idempotency.ts,
// http/rate-limit.ts); the response-level ones are below.
import { isBodyObject, type DefectEntry, type ResponseDefect } from './defects.js';

export const KERNEL_DEFECTS: readonly DefectEntry[] = [
  { id: 'error.lost-envelope', area: 'errors', description: 'every 4xx body is `{ "error": "<message>" }`' },
  { id: 'limits.missing-retry-after', area: 'limits', description: '429 answers lack the Retry-After header' },
  { id: 'limits.details-incomplete', area: 'limits', description: '429 details lack `keyId`' },
  { id: 'validation.lenient-bounds', area: 'validation', description: 'query `limit`/`offset` bounds are not enforced (out of range is served)' },
  { id: 'validation.crash-on-bad-json', area: 'validation', description: 'a malformed JSON body gives 500 INTERNAL_ERROR' },
  { id: 'idempotency.replay-creates-job', area: 'idempotency', description: 'a replay creates a second job (answers the new one)' },
  { id: 'idempotency.conflict-ignored', area: 'idempotency', description: 'the same key with another payload creates a job (202)' },
  { id: 'idempotency.replayed-flag-missing', area: 'idempotency', description: 'a replay answers `replayed: false`' },
  { id: 'idempotency.concurrent-duplicates', area: 'idempotency', description: 'concurrent requests with one key each create a job' },
  { id: 'limits.rate-limit-off', area: 'limits', description: 'rate buckets never fill' },
];

/** Applied after every domain's response defects: `error.lost-envelope` replaces the whole body. */
export const KERNEL_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  {
    id: 'limits.missing-retry-after',
    operations: '*',
    apply: (res) => void (res.status === 429 && res.remove('Retry-After')),
  },
  {
    id: 'limits.details-incomplete',
    operations: '*',
    apply(res) {
      const body = res.body as Record<string, unknown>;
      if (res.status !== 429 || !isBodyObject(body.details)) return;
      const { keyId: _keyId, ...details } = body.details;
      res.body = { ...body, details };
    },
  },
  {
    id: 'error.lost-envelope',
    operations: '*',
    apply(res) {
      if (res.status >= 400 && res.status < 500) res.body = { error: String((res.body as { message?: unknown }).message ?? '') };
    },
  },
];
