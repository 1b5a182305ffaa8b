// The four endpoints Idempotency-Key applies to (spec 8.5), each with how to build a payload, another
// payload, and payloads equal to the first once normalized. Upload forms come from the contract (required
// fields valued from its examples; conformance/checks/uploads), with a file unique to the run.
import fc from 'fast-check';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { errorCode, seeded, SKU_POOL, type WriteTenant } from '../jobs-support.js';
import { formWith, uniqueFile } from '../uploads/files.js';
import { runTag } from '../uploads/send.js';
import { uploadOperations, type UploadOperation } from '../uploads/targets.js';

/** A request body: JSON, or a multipart form built afresh for each send (a 429 or 401 sends it again). */
export type Payload = { json: unknown } | { form: () => FormData };

interface EndpointPayloads {
  original: Payload;
  /** Differs from `original` in what it asks for (other SKUs, another file). */
  other: Payload;
  /** Uploads: the same form and file name, another file content (spec 8.5: the file is the payload, not its name). */
  otherContent?: Payload;
  /** Differ from `original` only in what normalization removes (spec 8.5 "same normalized payload"). */
  equivalents: Array<{ label: string; payload: Payload }>;
}

export interface IdempotentEndpoint {
  path: string;
  operationId: string;
  /** Spec 2.3: the receipt names a trade feed session as well as a job. */
  session: boolean;
  /** Spec 2.3: the receipt always carries `replayed` (optional on the trade feed receipt). */
  replayedRequired: boolean;
  payloads(purpose: string, index: number): EndpointPayloads;
}

/** Spec 8.5: the endpoints Idempotency-Key applies to. */
const IDEMPOTENT_PATHS = ['/api/sima/batch', '/api/upload', '/api/catalog/upload', '/api/trade/feeds/upload'] as const;

/** Spec 4.2, 4.3: the endpoints taking `screeningAuthority`, given "trimmed, case-insensitive". */
const AUTHORITY_PATHS = new Set<string>(['/api/sima/batch', '/api/upload', '/api/catalog/upload']);
const AUTHORITY = 'CA';
/** The same authority as spec 4.2 normalizes it: trimmed, case-insensitive. */
const AUTHORITY_RESPELLED = ' ca ';

function batchEndpoint(ctx: CheckContext, operationId: string): IdempotentEndpoint {
  return {
    path: '/api/sima/batch',
    operationId,
    session: false,
    replayedRequired: true,
    payloads(_purpose, index) {
      const [skus, otherSkus] = seeded(fc.uniqueArray(fc.subarray(SKU_POOL, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 2, selector: (s) => s.join(',') }), ctx.seed, index);
      return {
        original: { json: { skus, runPolicy: 'always', screeningAuthority: AUTHORITY } },
        other: { json: { skus: otherSkus, runPolicy: 'always', screeningAuthority: AUTHORITY } },
        equivalents: [
          // RFC 8259: the members of a JSON object are unordered.
          { label: 'the same members in another order', payload: { json: { screeningAuthority: AUTHORITY, runPolicy: 'always', skus } } },
          { label: `screeningAuthority ${JSON.stringify(AUTHORITY_RESPELLED)} for ${JSON.stringify(AUTHORITY)}`, payload: { json: { skus, runPolicy: 'always', screeningAuthority: AUTHORITY_RESPELLED } } },
        ],
      };
    },
  };
}

function uploadEndpoint(ctx: CheckContext, target: UploadOperation): IdempotentEndpoint {
  const authority = AUTHORITY_PATHS.has(target.path);
  const form = (file: File, screeningAuthority?: string) => () => {
    const built = formWith(target, file);
    if (screeningAuthority !== undefined) built.append('screeningAuthority', screeningAuthority);
    return built;
  };
  return {
    path: target.path,
    operationId: target.operationId,
    session: target.path === '/api/trade/feeds/upload',
    replayedRequired: target.path !== '/api/trade/feeds/upload',
    payloads(purpose, index) {
      const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, `idem-${purpose}`, index));
      const otherFile = uniqueFile(ctx.contract.doc, target, runTag(ctx, `idem-${purpose}-other`, index));
      const given = authority ? AUTHORITY : undefined;
      const sameNameOtherBytes = new File([otherFile], file.name, { type: file.type });
      return {
        original: { form: form(file, given) },
        other: { form: form(otherFile, given) },
        otherContent: { form: form(sameNameOtherBytes, given) },
        equivalents: authority ? [{ label: `screeningAuthority ${JSON.stringify(AUTHORITY_RESPELLED)} for ${JSON.stringify(AUTHORITY)} (same file)`, payload: { form: form(file, AUTHORITY_RESPELLED) } }] : [],
      };
    },
  };
}

/**
 * The idempotent endpoints of the contract under certification, and why any of them cannot be exercised
 * (a required form field without a contract value).
 */
export function idempotentEndpoints(ctx: CheckContext): { endpoints: IdempotentEndpoint[]; missing: string[] } {
  const uploads = uploadOperations(ctx.contract);
  const endpoints: IdempotentEndpoint[] = [];
  const missing: string[] = [];
  for (const path of IDEMPOTENT_PATHS) {
    const op = ctx.contract.operations.find((o) => o.path === path && o.method === 'post');
    // An endpoint the contract under certification does not have is not part of what it certifies.
    if (!op) continue;
    if (path === '/api/sima/batch') {
      endpoints.push(batchEndpoint(ctx, op.operationId));
      continue;
    }
    const target = uploads.find((t) => t.path === path);
    if (!target || target.unvalued.length) {
      missing.push(`POST ${path}: the contract gives no value for required field(s) ${target?.unvalued.join(', ') ?? '(no multipart form)'}`);
      continue;
    }
    endpoints.push(uploadEndpoint(ctx, target));
  }
  return { endpoints, missing };
}

/** Sends `payload` to the endpoint, with `key` when given (429s are waited out by the client, harness/transport.ts). */
export function send(_ctx: CheckContext, client: ConformanceClient, endpoint: IdempotentEndpoint, payload: Payload, key?: string): Promise<Exchange> {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
  return client.call('POST', endpoint.path, 'json' in payload ? { json: payload.json, headers } : { form: payload.form(), headers });
}

/**
 * Why an answer says nothing about idempotency, if so: a shared tenant's
 * key without the endpoint's scope (spec 5.4). In a tenant created for the check a 403 is an answer to judge.
 */
export function untestable(tenant: WriteTenant, endpoint: IdempotentEndpoint, exchange: Exchange): string | undefined {
  if (!tenant.fresh && exchange.response.status === 403 && errorCode(exchange) === 'SCOPE_DENIED') {
    return `POST ${endpoint.path}: the given key lacks its scope (403 SCOPE_DENIED); give a key with it, or run the simulator profile`;
  }
  return undefined;
}

/** The identifiers a receipt hands out (spec 2.3): the job, and the session of a trade feed upload. */
export interface ReceiptIds {
  jobId: string;
  sessionId?: string;
  /** For messages: `job <id>` or `job <id>, session <id>`. */
  label: string;
}

/** The receipt's identifiers when it is a 202 carrying them all, else undefined. */
export function receiptIds(endpoint: IdempotentEndpoint, exchange: Exchange): ReceiptIds | undefined {
  const body = (exchange.response.body ?? {}) as { jobId?: unknown; sessionId?: unknown };
  if (exchange.response.status !== 202 || typeof body.jobId !== 'string') return undefined;
  if (!endpoint.session) return { jobId: body.jobId, label: `job ${body.jobId}` };
  if (typeof body.sessionId !== 'string') return undefined;
  return { jobId: body.jobId, sessionId: body.sessionId, label: `job ${body.jobId}, session ${body.sessionId}` };
}

/** Both receipts name the same job (and session). */
export const sameResources = (a: ReceiptIds, b: ReceiptIds) => a.jobId === b.jobId && a.sessionId === b.sessionId;
/** The receipts share a job or a session (not independent). */
export const shareResources = (a: ReceiptIds, b: ReceiptIds) => a.jobId === b.jobId || (a.sessionId !== undefined && a.sessionId === b.sessionId);
