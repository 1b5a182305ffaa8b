// Reading the evidence: what a request is (a write, an upload, a poll), when it was sent and answered, and
// which requests repeat one another. Pure functions over the logged records.
import type { Delivery, DeliveryAttempt, Evidence, LoggedRequest } from './types.js';

export const TOKEN_EXCHANGE_PATH = '/api/auth/token/integration';

export const atMs = (r: LoggedRequest): number => Date.parse(r.at);
/** When the answer left the sandbox (wall clock). */
export const answeredMs = (r: LoggedRequest): number => Date.parse(r.at) + r.durationMs;
export const virtualMs = (r: LoggedRequest): number => Date.parse(r.virtualAt);

export const isExchange = (r: LoggedRequest): boolean => r.method === 'POST' && r.path.endsWith(TOKEN_EXCHANGE_PATH);
export const isRead = (r: LoggedRequest): boolean => ['GET', 'HEAD', 'OPTIONS'].includes(r.method);
/** spec 7 "enqueue and workflow writes": every mutation but the token exchange. */
export const isWrite = (r: LoggedRequest): boolean => !isRead(r) && !isExchange(r);
/** spec 8.1: "upload (upload paths)": multipart requests. */
export const isUpload = (r: LoggedRequest): boolean =>
  isWrite(r) && ((r.request.headers['content-type'] ?? '').startsWith('multipart/form-data') || hasMultipartBody(r.request.body));
const hasMultipartBody = (body: unknown): boolean => typeof body === 'object' && body !== null && 'multipart' in body;

export const header = (r: LoggedRequest, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(r.request.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
};

export const errorCode = (r: LoggedRequest): string | undefined => {
  const body = r.response.body as { code?: unknown } | null;
  return typeof body?.code === 'string' ? body.code : undefined;
};

export const isInvalidToken = (r: LoggedRequest): boolean => r.status === 401 && errorCode(r) === 'INVALID_TOKEN';

/** What a 429 asked to wait, in seconds: `details.retryAfterSeconds` (spec 7), else `Retry-After`. */
export function retryAfterSeconds(r: LoggedRequest): number | null {
  const details = (r.response.body as { details?: { retryAfterSeconds?: unknown } } | null)?.details;
  if (typeof details?.retryAfterSeconds === 'number') return details.retryAfterSeconds;
  const raw = Object.entries(r.response.headers).find(([k]) => k.toLowerCase() === 'retry-after')?.[1];
  return raw && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : null;
}

/**
 * The identity of a request for "is this the same request again": method, path, query, body (as logged:
 * uploads show their fields and each file's name and size) and Idempotency-Key. Two logical requests that
 * look the same byte for byte cannot be told apart from a retry; the rules bound that by time.
 */
export const sameRequestKey = (r: LoggedRequest): string =>
  JSON.stringify([r.method, r.path, r.query, r.request.body ?? null, header(r, 'idempotency-key') ?? null]);

/** The requests grouped by `sameRequestKey`, each group oldest first. */
export function repeats(requests: LoggedRequest[], keep: (r: LoggedRequest) => boolean): LoggedRequest[][] {
  const groups = new Map<string, LoggedRequest[]>();
  for (const r of requests) {
    if (!keep(r)) continue;
    const key = sameRequestKey(r);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

/** Every attempt of every delivery, with its delivery, oldest first by virtual time. */
export function attempts(evidence: Evidence): Array<{ delivery: Delivery; attempt: DeliveryAttempt }> {
  return evidence.deliveries
    .flatMap((delivery) => delivery.attempts.map((attempt) => ({ delivery, attempt })))
    .sort((a, b) => Date.parse(a.attempt.at) - Date.parse(b.attempt.at));
}

export const is2xx = (status: number | null | undefined): boolean => typeof status === 'number' && status >= 200 && status < 300;

/**
 * Whether a request came right after a webhook attempt reached the client (within `windowMs` of the attempt's
 * start, on the tenant's virtual clock): a read woken by a delivery is the client reacting, not polling.
 */
export function followsDelivery(evidence: Evidence, r: LoggedRequest, windowMs: number): boolean {
  const t = virtualMs(r);
  return attempts(evidence).some(({ attempt }) => t >= Date.parse(attempt.at) && t - Date.parse(attempt.at) <= windowMs);
}

/** A request's short label for evidence lines: `GET /api/jobs/… → 200 (X-Request-Id …)`. */
export const label = (r: LoggedRequest, startedAtMs?: number): string =>
  `${startedAtMs !== undefined ? `+${((atMs(r) - startedAtMs) / 1000).toFixed(2)} s ` : ''}${r.method} ${r.path}${r.query ? `?${r.query}` : ''} → ${r.status}${errorCode(r) ? ` ${errorCode(r)}` : ''} (${r.id})`;
