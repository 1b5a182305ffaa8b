// The kernel's injectable defects (README "Defect injection"): request validation, idempotency, rate
// limits and the error envelope, which every operation shares. Most hooks are `defects.has('<id>')` lines
// where the behaviour lives (http/validate-request.ts, http/contract-routes.ts, http/idempotency.ts,
// http/rate-limit.ts), the rest rules at the points of kernel.hooks.ts; the response-level ones are below.
import { isBodyObject, type DefectEntry, type ResponseDefect } from './defects.js';
import { at } from './deviations.js';
import { KERNEL_HOOKS } from './kernel.hooks.js';

export const KERNEL_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'error.lost-envelope', area: 'errors', description: 'every 4xx body is `{ "error": "<message>" }`' },
  { kind: 'defect', id: 'limits.missing-retry-after', area: 'limits', description: '429 answers lack the Retry-After header' },
  { kind: 'defect', id: 'limits.details-incomplete', area: 'limits', description: '429 details lack `keyId`' },
  { kind: 'defect', id: 'validation.lenient-bounds', area: 'validation', description: 'query `limit`/`offset` bounds are not enforced (out of range is served)' },
  { kind: 'defect', id: 'validation.limit-max-refused', area: 'validation', description: 'a query `limit` at its maximum is 400 (the bound read as exclusive)' },
  { kind: 'defect', id: 'validation.empty-query-as-absent', area: 'validation', description: 'an empty query value (`?cursor=`) is read as an absent parameter instead of being validated (a `minLength: 1` cursor is served)' },
  { kind: 'defect', id: 'validation.crash-on-bad-json', area: 'validation', description: 'a malformed JSON body gives 500 INTERNAL_ERROR' },
  { kind: 'defect', id: 'idempotency.replay-creates-job', area: 'idempotency', description: 'a replay creates a second job (answers the new one)' },
  { kind: 'defect', id: 'idempotency.conflict-ignored', area: 'idempotency', description: 'the same key with another payload creates a job (202)' },
  { kind: 'defect', id: 'idempotency.replayed-flag-missing', area: 'idempotency', description: 'a replay answers `replayed: false`' },
  { kind: 'defect', id: 'idempotency.concurrent-duplicates', area: 'idempotency', description: 'concurrent requests with one key each create a job' },
  { kind: 'defect', id: 'idempotency.scope-ignores-endpoint', area: 'idempotency', description: 'a key is shared across the four idempotent endpoints (the second endpoint replays or answers 409)' },
  { kind: 'defect', id: 'idempotency.scope-ignores-tenant', area: 'idempotency', description: 'a key is shared across tenants (another tenant with the same key and payload is answered the first tenant\'s job)' },
  { kind: 'defect', id: 'idempotency.upload-key-ignored', area: 'idempotency', description: 'the three upload endpoints ignore Idempotency-Key (every request creates a job)' },
  { kind: 'defect', id: 'uploads.binary-named-csv-accepted', area: 'validation', description: 'ship, order and carrier-agreement uploads accept binary content named .csv (202; its job fails later) instead of 415' },
  { kind: 'defect', id: 'idempotency.upload-file-ignored', area: 'idempotency', description: "an upload's file bytes are left out of the payload compared: the same key and file name with other bytes replays (202) instead of 409" },
  { kind: 'defect', id: 'idempotency.payload-not-normalized', area: 'idempotency', description: 'payloads are compared as sent: another member order, or screeningAuthority " ca " for "CA", is 409' },
  { kind: 'defect', id: 'idempotency.never-expires', area: 'idempotency', description: 'keys never expire (the same key replays after the expiry time)' },
  { kind: 'defect', id: 'idempotency.expires-early', area: 'idempotency', description: 'keys expire a thousand times too early (24 h read as 86.4 s)' },
  { kind: 'defect', id: 'limits.rate-limit-off', area: 'limits', description: 'rate buckets never fill' },
  { kind: 'defect', id: 'limits.uploads-in-write-bucket', area: 'limits', description: 'uploads count in the write bucket (one bucket for every mutation): a full write bucket refuses uploads, and uploads fill it', hooks: [at(KERNEL_HOOKS.rateBucket, (bucket) => (bucket === 'upload' ? 'write' : bucket))] },
];

/** The kernel's legitimate variants (README "Variants"): choices the spec leaves open in the shared seams. */
export const KERNEL_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'idempotency.expires-after-1h', area: 'idempotency', description: 'an Idempotency-Key is remembered for 1 hour (GET /_sim/status shows `idempotencyKeyTtlSeconds: 3600`)', spec: 'spec 8.5: "Keys expire server-side; the expiry duration: not shown."', hooks: [at(KERNEL_HOOKS.idempotencyTtlMs, () => 3_600_000)] },
  { kind: 'variant', id: 'limits.raised-request-caps', area: 'limits', description: 'the request length caps the contract marks as the sandbox\'s own (`x-sandbox-defined-bounds`: notes 2000, carrier 64, SKUs 200, externalReference 200 ...) are four times as long: a longer string or list is accepted', spec: 'spec 2.6 credit confirmation: "`source` string, `referenceId` string [...] `notes`, `artifactUrl` optional", spec 4.5 claims: "`{ carrier: string, findingIds: [uuid] (non-empty), notes?: string }`", spec 4.2 `skus` "(array of string or null ...)": no length is given for these strings and lists (the bounds the spec does give, such as `Idempotency-Key` 1 to 200 and the webhook secret up to 512, stay)', hooks: [at(KERNEL_HOOKS.sandboxCapFactor, () => 4)] },
  { kind: 'variant', id: 'errors.message-reworded', area: 'errors', description: 'every error `message` is worded otherwise (`Request refused: ...` around the sandbox\'s words); codes and details stay', spec: 'spec 2.9: "`{ code: string, message: string, details?: object }`"; spec 7: "Canonical stable codes": the codes are stable, no message wording is given' },
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
    id: 'errors.message-reworded',
    operations: '*',
    apply(res) {
      const body = res.body as Record<string, unknown>;
      if (res.status < 400 || !isBodyObject(body) || typeof body.message !== 'string' || typeof body.code !== 'string') return;
      res.body = { ...body, message: `Request refused: ${body.message}` };
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
