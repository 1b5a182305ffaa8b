// Idempotency-Key (spec 8.5): scoped by tenant, endpoint and key. The same normalized payload replays the
// original response with `replayed: true`; a different payload is 409 ACTION_NOT_ALLOWED. Concurrent
// requests with one key run the handler once: the others wait for it and replay. Keys expire on the
// tenant's clock after a sandbox-defined time (spec 8.5: "the expiry duration: not shown"; README
// "Defaults the spec leaves open", SIM_IDEMPOTENCY_TTL_SECONDS, shown by GET /_sim/status).
import { KERNEL_HOOKS } from '../kernel.hooks.js';
import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { TenantClocks } from '../clock.js';
import { NO_DEFECTS, type Defects } from '../defects.js';
import { actionNotAllowed, invalidRequest } from '../errors.js';
import { storeSerial } from '../serial.js';
import type { Store } from '../store/collection.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './json-depth.js';
import type { HandlerResponse } from './types.js';

const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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

/** What a request carries: its validated body (JSON or multipart fields) and the sha256 of each file. */
export interface IdempotentPayload {
  body: unknown;
  files: readonly string[];
}

export interface IdempotencyScope {
  tenantId: string;
  operationId: string;
  key: string;
  payload: IdempotentPayload;
}

export interface Idempotency {
  run(scope: IdempotencyScope, execute: () => Promise<HandlerResponse> | HandlerResponse): Promise<HandlerResponse>;
}

/** The stable serializer behind the fingerprint: members in key order; anything JSON cannot hold throws. */
const stableJson = configure({ deterministic: true, strict: true, circularValue: Error, maximumDepth: MAX_BODY_DEPTH + 2 });

/**
 * JSON with sorted keys: the normal form two payloads are compared in (JSON object members are unordered).
 * A payload nested deeper than the body bound is refused (400), never truncated: safe-stable-stringify's
 * `maximumDepth` writes "[Object]" past the bound, which would make two different payloads one. The body
 * parser already refused such bodies (json-depth.ts); this keeps the fingerprint safe on its own.
 */
export function canonicalJson(value: unknown): string {
  if (nestsDeeperThan(value, MAX_BODY_DEPTH + 1)) throw invalidRequest(`the payload nests deeper than ${MAX_BODY_DEPTH} levels`, 'body');
  return stableJson(value) ?? 'null';
}

/**
 * The payload as compared (spec 8.5 "same normalized payload"): `screeningAuthority` normalized as spec 4.2
 * and 4.3 say it is read (trimmed, case-insensitive; blank is the same as omitted), so ` ca ` and `CA` are
 * one payload. Any other difference is another payload. A bad value stays as given: the handler refuses it.
 */
export function normalizedPayload(payload: IdempotentPayload): IdempotentPayload {
  const body = payload.body;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('screeningAuthority' in body)) return payload;
  const { screeningAuthority, ...rest } = body as Record<string, unknown>;
  if (typeof screeningAuthority !== 'string') return payload;
  const normalized = screeningAuthority.trim().toUpperCase();
  return { ...payload, body: normalized === '' ? rest : { ...rest, screeningAuthority: normalized } };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** defect injection: how long idempotency.concurrent-duplicates holds a first request between its check and its record. */
const DEFECT_RACE_WINDOW_MS = 250;

/** Keys expire on the tenant's clock (spec 8.5: "keys expire server-side"). */
export function createIdempotency(store: Store, clocks: TenantClocks, ttlMs = DEFAULT_IDEMPOTENCY_TTL_MS, options: { defects?: Defects } = {}): Idempotency {
  const defects = options.defects ?? NO_DEFECTS;
  const records = store.collection<IdempotencyRecord>('idempotencyKeys');
  const inFlight = new Map<string, { payloadHash: string; done: Promise<HandlerResponse> }>();
  const acrossInstances = store.shared ? storeSerial(store, 'idempotency') : undefined;

  const replay = (response: HandlerResponse): HandlerResponse =>
    response.body && typeof response.body === 'object' && !Array.isArray(response.body)
      ? // defect injection (SIM_DEFECTS): idempotency.replayed-flag-missing answers a replay with replayed: false.
        { ...response, body: { ...(response.body as object), replayed: !defects.has('idempotency.replayed-flag-missing') } }
      : response;
  const conflict = (key: string) =>
    actionNotAllowed('this Idempotency-Key was already used with a different payload', { field: 'Idempotency-Key', idempotencyKey: key });
  /** The record's id: tenant, endpoint and key (spec 8.5). */
  const recordId = (scope: IdempotencyScope) => {
    // defect injection (SIM_DEFECTS): idempotency.scope-ignores-tenant shares keys across tenants;
    // idempotency.scope-ignores-endpoint shares them across the four endpoints.
    const tenant = defects.has('idempotency.scope-ignores-tenant') ? '*' : scope.tenantId;
    const endpoint = defects.has('idempotency.scope-ignores-endpoint') ? '*' : scope.operationId;
    return sha256(`${tenant}\u0000${endpoint}\u0000${scope.key}`);
  };
  const hashOf = (sent: IdempotentPayload) => {
    // defect injection (SIM_DEFECTS): idempotency.upload-file-ignored compares an upload's form without its
    // file's bytes (the file name, a form field, still counts).
    const payload = defects.has('idempotency.upload-file-ignored') ? { ...sent, files: [] } : sent;
    // defect injection (SIM_DEFECTS): idempotency.payload-not-normalized compares the payload as sent (member
    // order and spelling count).
    return sha256(defects.has('idempotency.payload-not-normalized') ? JSON.stringify(payload) : canonicalJson(normalizedPayload(payload)));
  };
  const expiryOf = (now: number) => {
    // defect injection (SIM_DEFECTS): idempotency.never-expires keeps keys for ever; idempotency.expires-early
    // reads the expiry as seconds where it is milliseconds (24 h becomes 86.4 s).
    if (defects.has('idempotency.never-expires')) return Number.MAX_SAFE_INTEGER;
    const ttl = defects.at(KERNEL_HOOKS.idempotencyTtlMs, ttlMs);
    return now + (defects.has('idempotency.expires-early') ? ttl / 1000 : ttl);
  };

  return {
    async run(scope, execute) {
      // defect injection (SIM_DEFECTS): idempotency.upload-key-ignored runs every upload (a request with a file) as new.
      if (defects.has('idempotency.upload-key-ignored') && scope.payload.files.length > 0) return execute();
      const id = recordId(scope);
      const payloadHash = hashOf(scope.payload);
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
      // Across instances sharing a database (issue 17) the check, the run and the record hold the key's
      // lock, so a duplicate sent to another instance at the same moment waits and replays.
      const decideAndRun = async (): Promise<HandlerResponse> => {
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
            await records.put({ id, tenantId: scope.tenantId, operationId: scope.operationId, payloadHash, response, createdAt: clock.nowIso(), expiresAt: expiryOf(clock.now()) });
          }
          return response;
        })();
        inFlight.set(id, { payloadHash, done });
        try {
          return await done;
        } finally {
          inFlight.delete(id);
        }
      };
      // defect injection (SIM_DEFECTS): idempotency.concurrent-duplicates takes no lock here either.
      return acrossInstances && !defects.has('idempotency.concurrent-duplicates') ? acrossInstances(id, decideAndRun) : decideAndRun();
    },
  };
}
