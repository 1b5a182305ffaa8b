// When an integrator may send a request again, and after how long (spec 7 "Retry rules", spec 8.5).
//
//   - token exchange: up to 3 retries on 429 and 5xx, backoff 1 s, 2 s, 4 s plus jitter;
//   - enqueue and workflow writes: one retry on 5xx, never on another 4xx; on 429 wait
//     `details.retryAfterSeconds` (or the `Retry-After` header) and send again;
//   - uploads: not retried on 5xx without an `Idempotency-Key`. The four endpoints of spec 8.5 take one, so
//     the client gives every POST to them a key and may then retry them like any write; the other uploads
//     (ship, orders, carrier agreements) are never retried on 5xx;
//   - claim submission create: "not idempotent: a retry can create a duplicate" (spec 4.5), so no 5xx retry;
//   - reads (GET): safe to repeat, so up to 3 retries on 429 and 5xx.
// Pure functions: the retrying fetch (client.ts) applies them.

/** spec 8.5: the endpoints that honour `Idempotency-Key`. */
export const IDEMPOTENT_POSTS = ['/api/sima/batch', '/api/upload', '/api/catalog/upload', '/api/trade/feeds/upload'] as const;
/** spec 4.3: uploads without idempotency support. */
const UPLOADS_WITHOUT_KEY = ['/api/ship/upload', '/api/orders/upload', '/api/carrier/agreements/upload'];
/** spec 4.5: "Not idempotent: a retry can create a duplicate." */
const NOT_IDEMPOTENT = ['/api/ship/claims/submissions'];

export interface RetryPolicy {
  /** Why, for the log line. */
  kind: 'token-exchange' | 'read' | 'idempotent-write' | 'write' | 'no-retry-on-5xx';
  /** Extra attempts after a 5xx (or a network error). */
  on5xx: number;
  /** Extra attempts after a 429. */
  on429: number;
}

export const TOKEN_EXCHANGE_PATH = '/api/auth/token/integration';

/** The policy of one request, from its method and path (without the base URL's path prefix). */
export function retryPolicyFor(method: string, pathname: string): RetryPolicy {
  const m = method.toUpperCase();
  if (pathname === TOKEN_EXCHANGE_PATH) return { kind: 'token-exchange', on5xx: 3, on429: 3 };
  if (m === 'GET' || m === 'HEAD') return { kind: 'read', on5xx: 3, on429: 3 };
  if ((IDEMPOTENT_POSTS as readonly string[]).includes(pathname)) return { kind: 'idempotent-write', on5xx: 1, on429: 3 };
  if (UPLOADS_WITHOUT_KEY.includes(pathname) || NOT_IDEMPOTENT.includes(pathname)) return { kind: 'no-retry-on-5xx', on5xx: 0, on429: 3 };
  return { kind: 'write', on5xx: 1, on429: 3 };
}

/** spec 7: exponential backoff 1 s, 2 s, 4 s, ... for the n-th retry (1-based), plus up to 25 % jitter. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = 1000 * 2 ** (retry - 1);
  return Math.round(base + base * 0.25 * random());
}

/** How long a 429 asks to wait, in ms: `details.retryAfterSeconds` (spec 7, 8.2), else `Retry-After` in
 *  seconds, else null (then the caller backs off). */
export function retryAfterMs(errorBody: unknown, retryAfterHeader: string | null): number | null {
  const details = (errorBody as { details?: { retryAfterSeconds?: unknown } } | null)?.details;
  if (typeof details?.retryAfterSeconds === 'number' && details.retryAfterSeconds >= 0) return details.retryAfterSeconds * 1000;
  if (retryAfterHeader && /^\d+$/.test(retryAfterHeader.trim())) return Number(retryAfterHeader.trim()) * 1000;
  return null;
}
