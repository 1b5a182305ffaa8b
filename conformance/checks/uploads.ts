// Uploads (spec 4.3, 7, 8.3; contracts/README.md decisions 6-7): every multipart upload operation of the
// contract refuses a file above its size cap with 413 FILE_TOO_LARGE and a file of a type it does not accept
// with 415 INVALID_FILE_FORMAT, the operations documenting 409 DUPLICATE_UPLOAD refuse the same file twice
// naming the first job, and a valid small file is accepted with a receipt whose job reads back with the
// operation's job type. What each operation accepts is read from the contract (`x-max-file-bytes`,
// `x-accepted-file-types`, `x-job-type`, the documented 409 codes, the security requirement's scopes), never
// written here.
import fc from 'fast-check';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { mediaExample } from '../../contracts/lib/example-request.js';
import { deref, type ContractOperation } from '../../contracts/lib/operations.js';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { LoadedContract } from '../harness/contract.js';
import { replayCommand } from '../harness/runner.js';
import { flatten } from '../harness/schema-arbitraries.js';
import type { Exchange, Failure } from '../harness/types.js';
import { expectError, isErrorEnvelope } from './auth.js';
import { errorCode, isRateLimited, receiptJobId, RUN_NONCE, seeded, sleep } from './jobs-support.js';

// ---------------------------------------------------------------------------------------------------------
// What the contract says about each upload operation.

export interface UploadOperation {
  op: ContractOperation;
  operationId: string;
  path: string;
  /** `x-max-file-bytes` (spec 8.3: 50 MB). */
  maxBytes: number;
  /** `x-accepted-file-types`, lower-case extensions with their dot (decision 7). */
  accepted: string[];
  /** `x-job-type` (decision 6). */
  jobType?: string;
  /** The binary form field (spec 4.3: `file`). */
  fileField: string;
  /** The other required form fields, valued from the contract's example (e.g. the feed's originCountry). */
  fields: Record<string, string | string[]>;
  /** Required fields the contract gives no value for (the operation cannot be exercised). */
  unvalued: string[];
  /** Scopes of the operation's security requirement (spec 5.4: ship:upload on carrier agreements). */
  scopes: string[];
  /** Error codes the documented 409 answer allows. */
  conflictCodes: string[];
}

/** The upload operations of the contract: multipart operations carrying `x-max-file-bytes`. */
export function uploadOperations(contract: LoadedContract): UploadOperation[] {
  const doc = contract.doc;
  const found: UploadOperation[] = [];
  for (const op of contract.operations) {
    const maxBytes = op.operation['x-max-file-bytes'];
    if (typeof maxBytes !== 'number') continue;
    const body = deref(doc, op.operation.requestBody ?? null);
    const media = isObject(body) && isObject(body.content) ? body.content['multipart/form-data'] : undefined;
    if (!isObject(media)) continue;
    const schema = flatten(doc, (media.schema ?? {}) as Json);
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const fileField = Object.keys(properties).find((name) => flatten(doc, properties[name]).format === 'binary') ?? 'file';
    const example = mediaExample(doc, media);
    const fields: Record<string, string | string[]> = {};
    const unvalued: string[] = [];
    for (const name of required) {
      if (name === fileField) continue;
      const value = formValue(isObject(example) ? example[name] : undefined) ?? formValue(exampleOf(flatten(doc, properties[name])));
      if (value === undefined) unvalued.push(name);
      else fields[name] = value;
    }
    const accepted = Array.isArray(op.operation['x-accepted-file-types']) ? (op.operation['x-accepted-file-types'] as Json[]).map((t) => String(t).toLowerCase()) : [];
    const jobType = op.operation['x-job-type'];
    found.push({
      op,
      operationId: op.operationId,
      path: op.path,
      maxBytes,
      accepted,
      jobType: typeof jobType === 'string' ? jobType : undefined,
      fileField,
      fields,
      unvalued,
      scopes: requiredScopes(doc, op),
      conflictCodes: documentedCodes(doc, op, '409'),
    });
  }
  return found;
}

const exampleOf = (schema: JsonObject): Json | undefined =>
  'example' in schema ? schema.example : Array.isArray(schema.enum) && schema.enum.length ? schema.enum[0] : 'default' in schema ? schema.default : undefined;

function formValue(value: Json | undefined): string | string[] | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map(String);
  return undefined;
}

/** Scopes named by the operation's (or the document's) first security requirement. */
function requiredScopes(doc: OpenApiDocument, op: ContractOperation): string[] {
  const requirements = Array.isArray(op.operation.security) ? op.operation.security : Array.isArray(doc.security) ? doc.security : [];
  const first = requirements[0];
  if (!isObject(first)) return [];
  return [...new Set(Object.values(first).flatMap((scopes) => (Array.isArray(scopes) ? scopes.map(String) : [])))];
}

/** The `code` values the documented answer with this status allows (its schema narrows the envelope). */
function documentedCodes(doc: OpenApiDocument, op: ContractOperation, status: string): string[] {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const response = deref(doc, responses[status] ?? null);
  const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  if (!isObject(media)) return [];
  const schema = flatten(doc, (media.schema ?? {}) as Json);
  const code = isObject(schema.properties) ? flatten(doc, schema.properties.code) : {};
  return Array.isArray(code.enum) ? code.enum.map(String) : [];
}

// ---------------------------------------------------------------------------------------------------------
// Files and forms.

const MIME: Record<string, string> = {
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.exe': 'application/octet-stream',
  '.zip': 'application/zip',
  '.png': 'image/png',
};
const mimeOf = (extension: string) => MIME[extension] ?? 'application/octet-stream';

/** The extension valid files are sent with: .csv where accepted (every text example is CSV), else the first. */
const validExtension = (target: UploadOperation) => (target.accepted.includes('.csv') || !target.accepted.length ? '.csv' : target.accepted[0]);

/** Extensions no upload of the interface accepts (spec 8.3: CSV or Excel; decision 7: PDF for agreements). */
const FOREIGN_EXTENSIONS = ['.exe', '.txt', '.json', '.zip', '.png'];

/** A CSV the operation's example gives as text, when it does (binary examples are placeholders). */
function exampleCsv(doc: OpenApiDocument, target: UploadOperation): string | undefined {
  const body = deref(doc, target.op.operation.requestBody ?? null);
  const media = isObject(body) && isObject(body.content) ? body.content['multipart/form-data'] : undefined;
  const example = mediaExample(doc, media ?? null);
  const file = isObject(example) ? example[target.fileField] : undefined;
  return typeof file === 'string' && file.trim().includes('\n') && file.includes(',') ? file : undefined;
}

const GENERIC_CSV = 'sku,productName,hsCode,countryOfOrigin\nCONF-SKU-001,Conformance sample,6109.10,CN\n';

/**
 * A small valid file whose bytes are unique to this run and `tag`: the operation's example CSV (or a generic
 * one) with one more row, the last row with `tag` as its first cell. Unique bytes keep a shared server's
 * earlier uploads from making this one a duplicate.
 */
function uniqueFile(doc: OpenApiDocument, target: UploadOperation, tag: string): File {
  const text = (exampleCsv(doc, target) ?? GENERIC_CSV).trimEnd();
  const last = text.split('\n').at(-1) ?? '';
  const comma = last.indexOf(',');
  const row = comma > 0 && !last.startsWith('"') ? `${tag}${last.slice(comma)}` : tag;
  const extension = validExtension(target);
  return new File([`${text}\n${row}\n`], `conformance-${tag}${extension}`, { type: mimeOf(extension) });
}

/**
 * `bytes` of CSV text (a header, then rows), built in place: the one buffer becomes the File's contents, so
 * the 50 MB are not held twice once the File exists.
 */
function oversizedCsv(bytes: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(bytes));
  const encoder = new TextEncoder();
  const header = encoder.encode('sku,productName,hsCode\n');
  const row = encoder.encode('CONF-OVERSIZE,Conformance size-cap row,6109.10\n');
  out.set(header.subarray(0, Math.min(header.length, bytes)));
  let filled = Math.min(header.length, bytes);
  if (filled < bytes) {
    out.set(row.subarray(0, Math.min(row.length, bytes - filled)), filled);
    filled += Math.min(row.length, bytes - filled);
  }
  // Double the written rows until the buffer is full.
  const rowsStart = header.length;
  while (filled < bytes) {
    const chunk = Math.min(filled - rowsStart, bytes - filled);
    out.copyWithin(filled, rowsStart, rowsStart + chunk);
    filled += chunk;
  }
  return out;
}

function formWith(target: UploadOperation, file: File): FormData {
  const form = new FormData();
  form.append(target.fileField, file, file.name);
  for (const [name, value] of Object.entries(target.fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  return form;
}

// ---------------------------------------------------------------------------------------------------------
// Tenant and sending.

interface UploadTenant {
  client: ConformanceClient;
  /** Created for this check through the control API, with the scopes the operations require. */
  fresh: boolean;
}

/**
 * A tenant to upload in. With the control API: a new tenant whose key carries the scopes the operations'
 * security requirements name (spec 5.4), with the upload and read buckets and queue caps raised
 * (sandbox-defined limits, simulator profile only). Without it: the primary tenant, shared with the run.
 */
async function uploadTenant(ctx: CheckContext, name: string, targets: UploadOperation[]): Promise<UploadTenant> {
  if (!ctx.admin) return { client: ctx.client, fresh: false };
  const scopes = [...new Set(targets.flatMap((t) => t.scopes))];
  const created = await ctx.admin.createTenant({ name, ...(scopes.length ? { scopes } : {}) });
  await ctx.admin.updateSettings(created.tenantId, {
    rateLimits: { read: { limit: 100_000, windowMs: 60_000 }, upload: { limit: 100_000, windowMs: 60_000 } },
    queueCaps: { total: 100_000, upload: 100_000 },
  });
  return { client: ctx.client.withApiKey(created.integrationKey), fresh: true };
}

/** Real time a check may spend waiting out 429s (spec 7: wait `details.retryAfterSeconds`). */
const MAX_WAIT_MS = 15_000;

/**
 * Uploads `file` with the operation's required fields. A 429 (spec 8.1-8.2) is waited out as spec 7 asks:
 * on the virtual clock with the control API, else in real time within a budget. Returns the last exchange.
 */
async function upload(ctx: CheckContext, client: ConformanceClient, target: UploadOperation, file: File, budget: { waitedMs: number }): Promise<Exchange> {
  for (let attempt = 1; ; attempt++) {
    const exchange = await client.call('POST', target.path, { form: formWith(target, file) });
    if (!isRateLimited(exchange) || attempt > 5) return exchange;
    const details = (exchange.response.body as { details?: { retryAfterSeconds?: unknown } }).details;
    const asked = Number(details?.retryAfterSeconds ?? exchange.response.headers['retry-after'] ?? 1);
    const seconds = Number.isFinite(asked) && asked > 0 ? asked : 1;
    if (ctx.admin) {
      await ctx.admin.advanceClock(seconds);
      await sleep(20);
    } else {
      if (budget.waitedMs + seconds * 1000 > MAX_WAIT_MS) return exchange;
      await sleep(seconds * 1000);
      budget.waitedMs += seconds * 1000;
    }
  }
}

/**
 * Why the answer says nothing about the rule under test, if so: still throttled after waiting, or a key
 * without the operation's scope (the primary key of a deployment; spec 5.4). With a tenant created for the
 * check, a 403 is an answer to judge, not a reason.
 */
function untestable(tenant: UploadTenant, target: UploadOperation, exchange: Exchange): string | undefined {
  if (isRateLimited(exchange)) return `${target.operationId} was still rate limited after waiting as the 429 asked`;
  if (!tenant.fresh && target.scopes.length && exchange.response.status === 403 && errorCode(exchange) === 'SCOPE_DENIED') {
    return `${target.operationId} needs scope ${target.scopes.join(', ')}, which the given key lacks (403 SCOPE_DENIED); give a key with it, or run the simulator profile`;
  }
  return undefined;
}

/** Status and error code of an answer, for messages. */
const answered = (exchange: Exchange) =>
  isErrorEnvelope(exchange.response.body) ? `${exchange.response.status} ${exchange.response.body.code}` : String(exchange.response.status);

/** Skips the check for the operations it could not exercise, unless something already failed. */
function finish(ctx: CheckContext, reasons: string[]) {
  if (reasons.length) ctx.skip(reasons.join('; '));
}

/** Seed, drawn input and replay command for a failure whose input was drawn with the run's seed. */
const drawn = (ctx: CheckContext, id: string, input: unknown): Partial<Failure> => ({
  seed: ctx.seed,
  counterexample: JSON.stringify(input),
  replay: replayCommand(ctx.options, [id]),
});

/** A tag unique to this run (seeded, plus the process nonce so a replay does not meet its own uploads). */
const runTag = (ctx: CheckContext, purpose: string, index: number) =>
  `CONF-${RUN_NONCE}-${purpose}-${seeded(fc.stringMatching(/^[A-Z0-9]{8}$/), ctx.seed, index)}`;

function operationsOrSkip(ctx: CheckContext): UploadOperation[] {
  const targets = uploadOperations(ctx.contract);
  if (!targets.length) ctx.skip(`contract ${ctx.contract.version} has no upload operation (x-max-file-bytes)`);
  return targets;
}

// ---------------------------------------------------------------------------------------------------------
// Checks.

const FILE_TOO_LARGE_ID = 'uploads.file-too-large';

// Spec 8.3, 7: upload endpoints validate the file size; the cap is 50 MB, above it 413 FILE_TOO_LARGE. One
// operation per run, chosen with the seed (a 50 MB body per operation would slow every run).
export const fileTooLarge = defineCheck({
  id: FILE_TOO_LARGE_ID,
  title: 'An upload one byte over the size cap is refused with 413 FILE_TOO_LARGE',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const candidates = operationsOrSkip(ctx).filter((t) => !t.unvalued.length);
    if (!candidates.length) ctx.skip('no upload operation has contract values for its required form fields');
    const target = seeded(fc.constantFrom(...candidates), ctx.seed, 0);
    const tenant = await uploadTenant(ctx, 'Conformance uploads: size cap', [target]);
    const bytes = target.maxBytes + 1;
    const extension = validExtension(target);
    const input = { operation: target.operationId, fileBytes: bytes, maxFileBytes: target.maxBytes, fileName: `conformance-oversize${extension}` };
    const extra = drawn(ctx, FILE_TOO_LARGE_ID, input);
    const file = new File([oversizedCsv(bytes)], input.fileName, { type: mimeOf(extension) });
    let exchange: Exchange;
    try {
      exchange = await upload(ctx, tenant.client, target, file, { waitedMs: 0 });
    } catch (error) {
      ctx.fail('file-too-large', `${target.operationId} (${target.path}) gave no answer to a file of ${bytes} bytes (${(error as Error).message}); spec 8.3, 7: 413 FILE_TOO_LARGE`, undefined, extra);
      return;
    }
    const reason = untestable(tenant, target, exchange);
    if (reason) ctx.skip(reason);
    expectError(ctx, exchange, 413, 'FILE_TOO_LARGE', `${target.operationId} with a file of ${bytes} bytes (x-max-file-bytes ${target.maxBytes} + 1; spec 8.3)`, extra);
  },
});

const UNSUPPORTED_TYPE_ID = 'uploads.unsupported-type';

// Spec 4.3, 7: an unsupported type or extension is 415 INVALID_FILE_FORMAT; decision 7 lists what each
// operation accepts (`x-accepted-file-types`).
export const unsupportedType = defineCheck({
  id: UNSUPPORTED_TYPE_ID,
  title: 'Every upload operation refuses a file type it does not accept with 415 INVALID_FILE_FORMAT',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx);
    const tenant = await uploadTenant(ctx, 'Conformance uploads: file types', targets);
    const reasons: string[] = [];
    const budget = { waitedMs: 0 };
    for (const [index, target] of targets.entries()) {
      if (target.unvalued.length) {
        reasons.push(`${target.operationId}: the contract gives no value for required field(s) ${target.unvalued.join(', ')}`);
        continue;
      }
      const foreign = FOREIGN_EXTENSIONS.filter((extension) => !target.accepted.includes(extension));
      const extension = seeded(fc.constantFrom(...foreign), ctx.seed, index);
      const tag = runTag(ctx, 'type', index);
      const name = `conformance-${tag}${extension}`;
      const file = new File([`sku,productName,hsCode\n${tag},Conformance sample,6109.10\n`], name, { type: mimeOf(extension) });
      const exchange = await upload(ctx, tenant.client, target, file, budget);
      const reason = untestable(tenant, target, exchange);
      if (reason) {
        reasons.push(reason);
        continue;
      }
      const extra = drawn(ctx, UNSUPPORTED_TYPE_ID, { operation: target.operationId, fileName: name, accepted: target.accepted });
      expectError(ctx, exchange, 415, 'INVALID_FILE_FORMAT', `${target.operationId} with ${name} (accepts ${target.accepted.join(', ')}; spec 4.3, 7)`, extra);
    }
    finish(ctx, reasons);
  },
});

const DUPLICATE_ID = 'uploads.duplicate-upload';
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// Spec 4.3, 7: ship, order and carrier-agreement uploads answer the same file again with 409
// DUPLICATE_UPLOAD, `details.existingJobId` (uuid) and `details.uploadedAt` (date-time). The operations are
// the ones whose documented 409 allows the code.
export const duplicateUpload = defineCheck({
  id: DUPLICATE_ID,
  title: 'The same file uploaded twice is refused with 409 DUPLICATE_UPLOAD naming the first job',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx).filter((t) => t.conflictCodes.includes('DUPLICATE_UPLOAD'));
    if (!targets.length) ctx.skip(`no upload operation of contract ${ctx.contract.version} documents 409 DUPLICATE_UPLOAD`);
    const tenant = await uploadTenant(ctx, 'Conformance uploads: duplicates', targets);
    const reasons: string[] = [];
    const budget = { waitedMs: 0 };
    for (const [index, target] of targets.entries()) {
      if (target.unvalued.length) {
        reasons.push(`${target.operationId}: the contract gives no value for required field(s) ${target.unvalued.join(', ')}`);
        continue;
      }
      const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, 'dup', index));
      const extra = drawn(ctx, DUPLICATE_ID, { operation: target.operationId, fileName: file.name });
      const first = await upload(ctx, tenant.client, target, file, budget);
      const reason = untestable(tenant, target, first);
      if (reason) {
        reasons.push(reason);
        continue;
      }
      const firstJobId = receiptJobId(first);
      if (!firstJobId) {
        ctx.fail('upload-accepted', `${target.operationId}: the first upload of a new file answered ${answered(first)}, not 202 with a jobId (spec 4.3)`, first, extra);
        continue;
      }
      const second = await upload(ctx, tenant.client, target, file, budget);
      if (isRateLimited(second)) {
        reasons.push(`${target.operationId} was still rate limited after waiting as the 429 asked`);
        continue;
      }
      const envelope = expectError(ctx, second, 409, 'DUPLICATE_UPLOAD', `${target.operationId}: the same file (${file.name}, ${file.size} bytes) uploaded again`, extra);
      if (!envelope) continue;
      const details = (envelope.details ?? {}) as { existingJobId?: unknown; uploadedAt?: unknown };
      if (details.existingJobId !== firstJobId) {
        ctx.fail('duplicate-upload-details', `${target.operationId}: details.existingJobId is ${JSON.stringify(details.existingJobId)}, not the first upload's job ${firstJobId} (spec 7)`, second, extra);
      }
      const uploadedAt = details.uploadedAt;
      if (typeof uploadedAt !== 'string' || !ISO_DATE_TIME.test(uploadedAt) || Number.isNaN(Date.parse(uploadedAt))) {
        ctx.fail('duplicate-upload-details', `${target.operationId}: details.uploadedAt is ${JSON.stringify(uploadedAt)}, not a date-time (spec 7)`, second, extra);
      }
    }
    finish(ctx, reasons);
  },
});

const ACCEPTED_ID = 'uploads.accepted-receipt';

// Spec 4.3, 2.3, 3.1: a valid upload answers 202 with its receipt (checked against the contract by the
// client) and creates a job, readable through GET /api/jobs/{id}, of the operation's type (decision 6).
export const acceptedReceipt = defineCheck({
  id: ACCEPTED_ID,
  title: 'A valid small upload answers 202 with a receipt whose job reads back with the operation\'s job type',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx);
    const tenant = await uploadTenant(ctx, 'Conformance uploads: receipts', targets);
    const reasons: string[] = [];
    const budget = { waitedMs: 0 };
    for (const [index, target] of targets.entries()) {
      if (target.unvalued.length) {
        reasons.push(`${target.operationId}: the contract gives no value for required field(s) ${target.unvalued.join(', ')}`);
        continue;
      }
      const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, 'ok', index));
      const extra = drawn(ctx, ACCEPTED_ID, { operation: target.operationId, fileName: file.name });
      const exchange = await upload(ctx, tenant.client, target, file, budget);
      const reason = untestable(tenant, target, exchange);
      if (reason) {
        reasons.push(reason);
        continue;
      }
      const jobId = receiptJobId(exchange);
      if (!jobId) {
        ctx.fail('upload-accepted', `${target.operationId}: a valid ${file.size}-byte ${validExtension(target)} file answered ${answered(exchange)}, not 202 with a jobId (spec 4.3, 2.3)`, exchange, extra);
        continue;
      }
      const read = await tenant.client.call('GET', `/api/jobs/${encodeURIComponent(jobId)}`);
      if (read.response.status !== 200) {
        ctx.fail('upload-job-readable', `${target.operationId}: GET /api/jobs/${jobId} of the receipt's job answered ${read.response.status}, not 200 (spec 3.1, 4.1)`, read, extra);
        continue;
      }
      const type = (read.response.body as { type?: unknown } | null)?.type;
      if (target.jobType !== undefined && type !== target.jobType) {
        ctx.fail('upload-job-type', `${target.operationId}: the job it created reads type ${JSON.stringify(type)}, not ${target.jobType} (x-job-type; spec 2.2, decision 6)`, read, extra);
      }
    }
    finish(ctx, reasons);
  },
});

export const uploadChecks: Check[] = [acceptedReceipt, unsupportedType, duplicateUpload, fileTooLarge];
