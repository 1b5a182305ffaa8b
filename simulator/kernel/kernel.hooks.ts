// The kernel's hook points (kernel/deviations.ts): the named places in the seams every operation shares
// where an entry of the catalogue (kernel.defects.ts) may change what is decided. The code deciding there
// names the point; it never names an entry.
import { hookPoint } from './deviations.js';

export const KERNEL_HOOKS = {
  /** spec 8.5 ("Keys expire server-side; the expiry duration: not shown"): how long an Idempotency-Key is remembered, in ms. */
  idempotencyTtlMs: hookPoint<number>('store', 'kernel.idempotency-ttl'),
  /**
   * The factor by which the request length caps the contract marks as the sandbox's own
   * (`x-sandbox-defined-bounds: [maxLength]` / `[maxItems]`; the spec states none) are raised: 1 keeps them.
   */
  sandboxCapFactor: hookPoint<number>('validation', 'kernel.sandbox-cap-factor'),
  /** spec 8.1: the rate bucket a request counts in (read for GET/HEAD/OPTIONS, upload for the upload paths, write for other mutations). */
  rateBucket: hookPoint<'read' | 'write' | 'upload'>('rule', 'kernel.rate-bucket'),
} as const;
