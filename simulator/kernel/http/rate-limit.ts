// Rate buckets per integration key (spec 8.1): read (GET/HEAD/OPTIONS), write (other mutations and
// enqueues), upload (multipart upload paths). Fixed windows on the virtual clock; a full bucket answers
// 429 RATE_LIMITED with the spec's details and a Retry-After header.
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import { isObject } from '../../../contracts/lib/bundle.js';
import type { TenantClocks } from '../clock.js';
import { NO_DEFECTS, type Defects } from '../defects.js';
import { ApiError } from '../errors.js';
import { KERNEL_HOOKS } from '../kernel.hooks.js';
import type { SharedServices } from '../store/collection.js';
import type { Principal } from './types.js';

type RateBucket = 'read' | 'write' | 'upload';
interface BucketLimit {
  limit: number;
  windowMs: number;
}
export type RateLimits = Record<RateBucket, BucketLimit>;

/** Defaults: read is the spec's example (240 per 60000 ms); write and upload are the sandbox's choice. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  read: { limit: 240, windowMs: 60_000 },
  write: { limit: 120, windowMs: 60_000 },
  upload: { limit: 30, windowMs: 60_000 },
};

export interface RateLimiter {
  consume(principal: Principal, operation: ContractOperation): Promise<void>;
  /** A fresh window for every bucket of `tenantId` (its limits changed), in every instance sharing the
   *  store; without a tenant, forgets this process's windows (a sandbox reset: the store's clear() empties
   *  the shared ones). */
  reset(tenantId?: string): Promise<void>;
}

function bucketOf(operation: ContractOperation): RateBucket {
  if (['get', 'head', 'options'].includes(operation.method)) return 'read';
  const body = operation.operation.requestBody;
  const content = isObject(body) && isObject(body.content) ? body.content : {};
  return 'multipart/form-data' in content ? 'upload' : 'write';
}

export function rateLimitedError(details: { bucket: string; limit: number; windowMs: number; retryAfterSeconds: number; keyId: string | null }, message: string): ApiError {
  return new ApiError('RATE_LIMITED', message, details, { 'Retry-After': String(details.retryAfterSeconds) });
}

/**
 * Windows follow the tenant's clock: advancing one tenant's time opens its next window only. With `shared`
 * (instances sharing a database, issue 17) the windows are counted in the database, one statement per call,
 * so a bucket of 240 a minute holds across instances; otherwise in this process's memory.
 */
export function createRateLimiter(
  clocks: TenantClocks,
  limitsFor: (tenantId: string) => Promise<RateLimits>,
  options: { defects?: Defects; shared?: Pick<SharedServices, 'hit' | 'clearWindows'> } = {},
): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const defects = options.defects ?? NO_DEFECTS;
  const shared = options.shared;
  return {
    async consume(principal, operation) {
      // defect injection (SIM_DEFECTS): limits.rate-limit-off, the buckets never fill.
      if (defects.has('limits.rate-limit-off')) return;
      const bucket = defects.at(KERNEL_HOOKS.rateBucket, bucketOf(operation));
      const { limit, windowMs } = (await limitsFor(principal.tenantId))[bucket];
      const now = clocks.of(principal.tenantId).now();
      const start = Math.floor(now / windowMs) * windowMs;
      // Tenant first: its windows are found by prefix when its limits change.
      const key = `${tenantPrefix(principal.tenantId)}${principal.keyId ?? '-'}:${bucket}`;
      const refuse = () => {
        const retryAfterSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
        return rateLimitedError({ bucket, limit, windowMs, retryAfterSeconds, keyId: principal.keyId }, `${bucket} rate limit of ${limit} per ${windowMs} ms reached`);
      };
      if (shared) {
        // Counted first, refused after: a refused call counts too, which changes nothing (the window is full).
        if ((await shared.hit(key, start)) > limit) throw refuse();
        return;
      }
      const window = windows.get(key);
      const current = window && window.start === start ? window : { start, count: 0 };
      if (current.count >= limit) throw refuse();
      current.count += 1;
      windows.set(key, current);
    },
    async reset(tenantId) {
      if (tenantId === undefined) return windows.clear();
      const prefix = tenantPrefix(tenantId);
      for (const key of windows.keys()) if (key.startsWith(prefix)) windows.delete(key);
      await shared?.clearWindows(prefix);
    },
  };
}

const tenantPrefix = (tenantId: string) => `${tenantId}/`;
