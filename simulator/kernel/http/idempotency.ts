// Idempotency-Key (spec 8.5): scoped by tenant, endpoint and key. The same normalized payload replays the
// original response with `replayed: true`; a different payload is 409 ACTION_NOT_ALLOWED. Concurrent
// requests with one key run the handler once: the others wait for it and replay. Keys expire.
import { createHash } from 'node:crypto';
import type { TenantClocks } from '../clock.js';
import { NO_DEFECTS, type Defects } from '../defects.js';
import { actionNotAllowed } from '../errors.js';
import type { Store } from '../store/collection.js';
import type { HandlerResponse } from './types.js';

export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

interface IdempotencyRecord {
  id: string;
  rev?: number;
  tenantId: string;
  operationId: string;
  payloadHash: string;
  response: HandlerResponse;
  createdAt: string;
  expiresAt: number;
}

export interface IdempotencyScope {
  tenantId: string;
  operationId: string;
  key: string;
  payload: unknown;
}

export interface Idempotency {
  run(scope: IdempotencyScope, execute: () => Promise<HandlerResponse> | HandlerResponse): Promise<HandlerResponse>;
}

/** JSON with sorted keys: the normal form two payloads are compared in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** defect injection: how long idempotency.concurrent-duplicates holds a first request between its check and its record. */
export const DEFECT_RACE_WINDOW_MS = 250;

/** Keys expire on the tenant's clock (spec 8.5: "keys expire server-side"). */
export function createIdempotency(store: Store, clocks: TenantClocks, ttlMs = DEFAULT_IDEMPOTENCY_TTL_MS, options: { defects?: Defects } = {}): Idempotency {
  const defects = options.defects ?? NO_DEFECTS;
  const records = store.collection<IdempotencyRecord>('idempotencyKeys');
  const inFlight = new Map<string, { payloadHash: string; done: Promise<HandlerResponse> }>();

  const replay = (response: HandlerResponse): HandlerResponse =>
    response.body && typeof response.body === 'object' && !Array.isArray(response.body)
      ? // defect injection (SIM_DEFECTS): idempotency.replayed-flag-missing answers a replay with replayed: false.
        { ...response, body: { ...(response.body as object), replayed: !defects.has('idempotency.replayed-flag-missing') } }
      : response;
  const conflict = (key: string) =>
    actionNotAllowed('this Idempotency-Key was already used with a different payload', { field: 'Idempotency-Key', idempotencyKey: key });

  return {
    async run(scope, execute) {
      const id = sha256(`${scope.tenantId}\u0000${scope.operationId}\u0000${scope.key}`);
      const payloadHash = sha256(canonicalJson(scope.payload));
      // defect injection (SIM_DEFECTS): idempotency.concurrent-duplicates takes no in-flight lock.
      const running = defects.has('idempotency.concurrent-duplicates') ? undefined : inFlight.get(id);
      if (running) {
        const response = await running.done;
        if (running.payloadHash !== payloadHash) {
          // defect injection (SIM_DEFECTS): idempotency.conflict-ignored runs another payload as a new request.
          if (defects.has('idempotency.conflict-ignored')) return execute();
          throw conflict(scope.key);
        }
        return replay(response);
      }
      const clock = clocks.of(scope.tenantId);
      const stored = await records.get(id);
      if (stored && stored.expiresAt > clock.now()) {
        if (stored.payloadHash !== payloadHash) {
          // defect injection (SIM_DEFECTS): idempotency.conflict-ignored runs another payload as a new request.
          if (defects.has('idempotency.conflict-ignored')) return execute();
          throw conflict(scope.key);
        }
        // defect injection (SIM_DEFECTS): idempotency.replay-creates-job runs a replay again (a second job).
        if (defects.has('idempotency.replay-creates-job')) return execute();
        return replay(stored.response);
      }
      const done = (async () => {
        // defect injection (SIM_DEFECTS): idempotency.concurrent-duplicates widens the check-then-record race of a
        // lock-free server (real time, not domain time), so requests sent together all find no record.
        if (defects.has('idempotency.concurrent-duplicates')) await new Promise((resolve) => setTimeout(resolve, DEFECT_RACE_WINDOW_MS));
        const response = await execute();
        // Only accepted requests are remembered: a retry after an error runs again.
        if (response.status < 300) {
          await records.put({ id, tenantId: scope.tenantId, operationId: scope.operationId, payloadHash, response, createdAt: clock.nowIso(), expiresAt: clock.now() + ttlMs });
        }
        return response;
      })();
      inFlight.set(id, { payloadHash, done });
      try {
        return await done;
      } finally {
        inFlight.delete(id);
      }
    },
  };
}
