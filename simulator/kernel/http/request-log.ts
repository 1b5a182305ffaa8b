// A request id on every request (echoed as X-Request-Id), one structured log line per request, and an
// entry in the request log (kernel/request-journal.ts, GET /_sim/requests) for each request to the public
// API: a contract operation, or any other path outside /_sim/ that was refused (a wrong URL is an
// integrator's mistake worth seeing; the site's pages and the control API are not logged).
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { TenantClocks } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { ParserRefusal } from './server.js';
import { BODY_CAP, boundedJson, captureText, type CapturedBody, type RequestJournal, type RequestRecord } from '../request-journal.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const NO_FAULTS: string[] = [];
const TEXTUAL = /^(text\/|application\/(json|[a-z.+-]*\+json|csv|xml))/i;

export interface RequestLogOptions {
  /** Where public API requests are recorded; none: only the log line. */
  journal?: RequestJournal;
  /** The tenants' virtual clocks (an entry's virtualAt). */
  clocks?: TenantClocks;
}

export function requestLog(log: Logger, ids: IdGenerator, options: RequestLogOptions = {}): Middleware {
  const { journal, clocks } = options;
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = CLIENT_REQUEST_ID.test(incoming) ? incoming : ids.uuid();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const arrived = Date.now();
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const tenantId: string | undefined = ctx.state.principal?.tenantId;
      log.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms, tenantId, operationId: ctx.state.operationId });
      if (journal && journal.size > 0 && isPublicApiRequest(ctx)) {
        // The log observes; it never changes an answer: a failure to record is logged and the entry skipped
        // (this middleware sits outside the error envelope, so a throw here would reach the client bare).
        try {
          journal.record(entryOf(ctx, { requestId, arrived, ms, tenantId, clocks }));
        } catch (error) {
          log.error({ err: error, requestId }, 'request log entry not recorded');
        }
      }
    }
  };
}

/** The request log's entry of a finished request. */
function entryOf(ctx: Context, at: { requestId: string; arrived: number; ms: number; tenantId: string | undefined; clocks: TenantClocks | undefined }): RequestRecord {
  const { tenantId, clocks } = at;
  const clock = clocks ? (tenantId ? clocks.of(tenantId) : clocks.sandbox) : undefined;
  return {
    id: at.requestId,
    atMs: at.arrived,
    virtualAtMs: clock ? clock.now() : Date.now(),
    tenantId: tenantId ?? null,
    method: ctx.method,
    path: ctx.path,
    query: ctx.querystring,
    operationId: ctx.state.operationId ?? null,
    status: ctx.status,
    durationMs: at.ms,
    requestHeaders: ctx.req.headers,
    requestBody: requestBodyOf(ctx),
    // Before the headers: stringifying a JSON body here sets its Content-Length.
    responseBody: responseBodyOf(ctx),
    responseHeaders: ctx.res.getHeaders(),
    faults: Array.isArray(ctx.state.faults) && ctx.state.faults.length > 0 ? [...(ctx.state.faults as string[])] : NO_FAULTS,
  };
}

function isPublicApiRequest(ctx: Context): boolean {
  if (ctx.path === '/_sim' || ctx.path.startsWith('/_sim/')) return false;
  return typeof ctx.state.operationId === 'string' || ctx.status >= 400;
}

const contentLength = (value: string | number | undefined): number | null => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : null;
};

interface FormidableFile {
  originalFilename?: string | null;
  size?: number;
  mimetype?: string | null;
}

/** The request as parsed by the route (koa-body): JSON, or a multipart summary; never file bytes. */
function requestBodyOf(ctx: Context): CapturedBody {
  const bytes = contentLength(ctx.get('content-length') || undefined);
  const body = (ctx.request as { body?: unknown }).body;
  const files = (ctx.request as { files?: Record<string, FormidableFile | FormidableFile[]> }).files;
  const fileList = files ? Object.entries(files) : [];
  if (fileList.length > 0 || (body !== undefined && ctx.is('multipart'))) {
    const fields = boundedJson(body ?? {});
    return {
      kind: 'multipart',
      fields: fields.text,
      truncated: fields.truncated,
      files: fileList.flatMap(([field, value]) =>
        (Array.isArray(value) ? value : [value]).map((f) => ({ field, fileName: f.originalFilename ?? 'upload', size: f.size ?? 0, contentType: f.mimetype ?? null })),
      ),
    };
  }
  // Unread: no body, or refused before it was parsed.
  if (body === undefined) return { kind: 'none', bytes };
  const { text, truncated } = boundedJson(body);
  return { kind: 'json', text, truncated, bytes };
}

/**
 * The response as sent. A JSON body is stringified here once and handed to Koa as that text (Koa would
 * stringify it anyway), so logging it costs no second serialization; streams and binary bodies are not read.
 */
function responseBodyOf(ctx: Context): CapturedBody {
  const body: unknown = ctx.body;
  const type = ctx.response.get('Content-Type');
  if (body === null || body === undefined) return { kind: 'none', bytes: 0 };
  if (typeof body === 'string') return captureText(/json/i.test(type) ? 'json' : 'text', body, contentLength(ctx.response.length));
  if (Buffer.isBuffer(body)) {
    if (TEXTUAL.test(type)) return { kind: /json/i.test(type) ? 'json' : 'text', text: body.subarray(0, BODY_CAP).toString('utf8'), truncated: body.length > BODY_CAP, bytes: body.length };
    return { kind: 'binary', contentType: type || null, bytes: body.length };
  }
  if (typeof (body as { pipe?: unknown }).pipe === 'function' || body instanceof ReadableStream || body instanceof Blob) {
    return { kind: 'binary', contentType: type || null, bytes: contentLength(ctx.response.length) };
  }
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch {
    return { kind: 'binary', contentType: type || null, bytes: null };
  }
  // Koa keeps the JSON Content-Type already set (the setter only sets a type when none is).
  ctx.body = text;
  return captureText('json', text, ctx.response.length ?? null);
}

/** A request Node's HTTP parser refused (server.ts) in the request log: no method, path or tenant is known. */
export function recordRefusal(journal: RequestJournal, clocks: TenantClocks, refusal: ParserRefusal): void {
  if (journal.size === 0) return;
  const now = Date.now();
  journal.record({
    id: refusal.requestId,
    atMs: now,
    virtualAtMs: clocks.sandbox.now(),
    tenantId: null,
    method: '',
    path: '',
    query: '',
    operationId: null,
    status: refusal.status,
    durationMs: 0,
    requestHeaders: {},
    requestBody: { kind: 'none', bytes: null },
    responseHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': refusal.requestId },
    responseBody: captureText('json', refusal.body, Buffer.byteLength(refusal.body)),
    faults: [],
  });
}
