// Idempotency-Key (spec 8.5): scoped by tenant, endpoint and key. The same normalized payload replays the
// original response with `replayed: true`; a different payload is 409 ACTION_NOT_ALLOWED. Concurrent
// requests with one key run the handler once: the others wait for it and replay. Keys expire.
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { actionNotAllowed } from '../errors.js';
import type { Store } from '../store/store.js';
import type { HandlerResponse } from './types.js';

export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

interface IdempotencyRecord {
  id: string;
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

export function createIdempotency(store: Store, clock: Clock, ttlMs = DEFAULT_IDEMPOTENCY_TTL_MS): Idempotency {
  const records = store.collection<IdempotencyRecord>('idempotencyKeys');
  const inFlight = new Map<string, { payloadHash: string; done: Promise<HandlerResponse> }>();

  const replay = (response: HandlerResponse): HandlerResponse =>
    response.body && typeof response.body === 'object' && !Array.isArray(response.body)
      ? { ...response, body: { ...(response.body as object), replayed: true } }
      : response;
  const conflict = (key: string) =>
    actionNotAllowed('this Idempotency-Key was already used with a different payload', { field: 'Idempotency-Key', idempotencyKey: key });

  return {
    async run(scope, execute) {
      const id = sha256(`${scope.tenantId}\u0000${scope.operationId}\u0000${scope.key}`);
      const payloadHash = sha256(canonicalJson(scope.payload));
      const running = inFlight.get(id);
      if (running) {
        const response = await running.done;
        if (running.payloadHash !== payloadHash) throw conflict(scope.key);
        return replay(response);
      }
      const stored = records.get(id);
      if (stored && stored.expiresAt > clock.now()) {
        if (stored.payloadHash !== payloadHash) throw conflict(scope.key);
        return replay(stored.response);
      }
      const done = (async () => {
        const response = await execute();
        // Only accepted requests are remembered: a retry after an error runs again.
        if (response.status < 300) {
          records.put({ id, tenantId: scope.tenantId, operationId: scope.operationId, payloadHash, response, createdAt: clock.nowIso(), expiresAt: clock.now() + ttlMs });
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
