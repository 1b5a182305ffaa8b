// Routes every operation of a contract document to its handler, with the per-operation middleware in the
// order the spec implies: authenticate, rate-limit, parse and validate, idempotency, handle, make durable.
import { rm } from 'node:fs/promises';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { listOperations, type ContractOperation } from '../../../contracts/lib/operations.js';
import type { ContractSchemas } from '../../../contracts/lib/schemas.js';
import { loadKoaBody } from '../deferred-loads.js';
import { enterTenant, NO_DEFECTS, type Defects } from '../defects.js';
import { ApiError, internalError, invalidRequest } from '../errors.js';
import type { Store } from '../store/collection.js';
import type { Idempotency } from './idempotency.js';
import { isJsonRequest, needsShapeGuard, readJsonBody } from './json-body.js';
import type { RateLimiter } from './rate-limit.js';
import { requestChaos } from './request-chaos.js';
import { PUBLIC_OPERATIONS, type ControlHandlerTable, type DashboardHandlerTable, type Handler, type HandlerRequest, type HandlerResponse, type HandlerTable, type Principal, type UploadedFile } from './types.js';
import { compileRequestValidator } from './validate-request.js';

/** Establishes who calls (or throws 401/403). Returns null for operations without security. */
export type Authenticator = (operation: ContractOperation, headers: Record<string, string | undefined>) => Promise<Principal | null>;

export interface ContractRouterOptions {
  doc: OpenApiDocument;
  version: string;
  schemas: ContractSchemas;
  handlers: HandlerTable | ControlHandlerTable | DashboardHandlerTable;
  authenticate: Authenticator;
  /** Public contracts: every operation but the public ones must reach its handler with a principal. */
  principalRequired?: boolean;
  rateLimiter: RateLimiter;
  idempotency: Idempotency;
  store: Store;
  uploadDir: string;
  maxFileBytes: number;
  /** URL prefix (`/versions/v1.2.0`) or '' for the default version. */
  prefix?: string;
  /** Defect injection (validation.*); none when absent (the control API). */
  defects?: Defects;
}

export interface ContractRouter {
  router: Router;
  /** operationIds without a handler: they answer 501 until their domain exists. */
  unhandled: string[];
}

const notImplemented = (op: ContractOperation): Handler => () => {
  throw new ApiError('NOT_IMPLEMENTED', `${op.operationId} is not implemented by this sandbox build yet`);
};

export function contractRouter(options: ContractRouterOptions): ContractRouter {
  const router = new Router({ prefix: options.prefix || undefined });
  const unhandled: string[] = [];
  const defects = options.defects ?? NO_DEFECTS;
  const jsonLimit = '10mb';
  // koa-body is not loaded at start-up (deferred-loads.ts): a start answers reads and tokens without it.
  let koaBodyParser: Promise<Middleware> | undefined;
  const bodyParser = async (ctx: Context): Promise<void> => {
    koaBodyParser ??= loadKoaBody().then(({ koaBody }) =>
      koaBody({
        multipart: true,
        jsonStrict: true,
        jsonLimit,
        formidable: {
          uploadDir: options.uploadDir,
          maxFileSize: options.maxFileBytes,
          maxTotalFileSize: options.maxFileBytes,
          hashAlgorithm: 'sha256',
          keepExtensions: true,
          allowEmptyFiles: true,
          minFileSize: 0,
        },
      }) as Middleware,
    );
    await (await koaBodyParser)(ctx, async () => {});
  };

  // The tenant's request chaos (request-chaos.ts; off by default): its scheduled transient 500s.
  const chaos = requestChaos(defects);
  for (const op of listOperations(options.doc)) {
    const handler = (options.handlers as Record<string, Handler | undefined>)[op.operationId] ?? (unhandled.push(op.operationId), notImplemented(op));
    // The handler's type promises a principal on every authenticated operation: hold the authenticator to it.
    const needsPrincipal = options.principalRequired === true && !(PUBLIC_OPERATIONS as readonly string[]).includes(op.operationId);
    const validate = compileRequestValidator(options.doc, op, options.schemas, { defects });
    const hasBody = op.operation.requestBody !== undefined;
    const idempotent = op.operation['x-idempotent'] === true;
    const path = op.path.replace(/\{([^}]+)\}/g, ':$1');
    const method = op.method as 'get' | 'post' | 'put' | 'delete' | 'patch';

    router[method](path, async (ctx: Context) => {
      ctx.state.operationId = op.operationId;
      const headers = lowerCaseHeaders(ctx.headers);
      const principal = await options.authenticate(op, headers);
      if (needsPrincipal && !principal) throw internalError();
      ctx.state.principal = principal;
      // The tenant's own faults (PUT /_sim/tenants/{id}/faults) apply from here on (kernel/defects.ts).
      enterTenant(principal?.tenantId);
      if (principal) await options.rateLimiter.consume(principal, op);
      if (hasBody) {
        // JSON that could break a bound through its shape guard while it streams in (json-body.ts); small
        // JSON, forms and the rest through koa-body.
        const parsing = isJsonRequest(ctx) && needsShapeGuard(ctx.headers) ? readJsonBody(ctx, jsonLimit) : bodyParser(ctx);
        await parsing.catch((error: unknown) => {
          // defect injection (SIM_DEFECTS): validation.crash-on-bad-json lets the parser's 400 escape as a crash (500).
          if (defects.has('validation.crash-on-bad-json') && (error as { status?: number }).status === 400) throw new Error('body parser crashed');
          throw bodyParserError(error, headers['content-encoding']);
        });
      }
      const files = uploadedFiles(ctx);
      try {
        // After the body is read (an upload's client is not cut off mid-send), before anything is decided.
        chaos(ctx.method, op.operationId, principal?.tenantId);
        const valid = validate({
          params: ctx.params as Record<string, string>,
          query: ctx.query as Record<string, string | string[] | undefined>,
          headers,
          body: (ctx.request as { body?: unknown }).body,
          fileFields: Object.fromEntries(files.map((f) => [f.field, f.originalName])),
          contentType: headers['content-type'],
          hasBody: Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined,
        });
        const request = {
          operation: op,
          contractVersion: options.version,
          requestId: ctx.state.requestId,
          principal,
          params: valid.params,
          query: valid.query,
          headers: { ...headers, ...valid.headers },
          body: valid.body,
          files,
        } as HandlerRequest;
        const key = valid.headers['idempotency-key'];
        const response: HandlerResponse =
          idempotent && key && principal
            ? await options.idempotency.run({ tenantId: principal.tenantId, operationId: op.operationId, key, payload: { body: valid.body ?? null, files: files.map((f) => f.sha256) } }, () => handler(request))
            : await handler(request);
        // Acknowledge only what is on disk: a crash after this line loses nothing the client saw.
        await options.store.flush();
        ctx.status = response.status;
        if (response.headers) ctx.set(response.headers);
        if (response.contentType) ctx.type = response.contentType;
        if (response.body !== undefined) ctx.body = response.body;
      } finally {
        // Handlers copy what they keep; the streamed temp files go.
        if (files.length > 0) await Promise.all(files.map((f) => rm(f.path, { force: true })));
      }
    });
  }
  return { router, unhandled };
}

/**
 * What a body the parser could not read is to the client. co-body inflates a `Content-Encoding` body with
 * zlib; bytes that are not what the header claims fail in zlib with no HTTP status (Z_DATA_ERROR,
 * Z_BUF_ERROR, brotli's ERR_*), which would reach the envelope as 500: they are the client's bad body, 400
 * INVALID_REQUEST (spec 7). An encoding the parser does not know is its 415, said as such.
 */
export function bodyParserError(error: unknown, contentEncoding: string | undefined): unknown {
  if (error instanceof ApiError) return error;
  const raised = error as { status?: number; statusCode?: number; httpCode?: number } | null;
  const status = raised?.status ?? raised?.statusCode ?? raised?.httpCode;
  const encoding = contentEncoding?.trim().toLowerCase();
  if (status === 415 && encoding && encoding !== 'identity') {
    return new ApiError('INVALID_FILE_FORMAT', `unsupported Content-Encoding: ${encoding.slice(0, 40)}`, { field: 'Content-Encoding' });
  }
  if (status === undefined && encoding && encoding !== 'identity') {
    return invalidRequest(`the request body is not valid ${encoding.slice(0, 40)} data`, 'body');
  }
  return error;
}

function lowerCaseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  // A plain loop: this runs on every request (Node's names are lower case already; repeated ones are arrays).
  const lowered: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    lowered[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return lowered;
}

interface FormidableFile {
  filepath: string;
  originalFilename: string | null;
  size: number;
  mimetype: string | null;
  hash?: string | null;
}

function uploadedFiles(ctx: Context): UploadedFile[] {
  const files = (ctx.request as { files?: Record<string, FormidableFile | FormidableFile[]> }).files ?? {};
  return Object.entries(files).flatMap(([field, value]) =>
    (Array.isArray(value) ? value : [value]).map((f) => ({
      field,
      originalName: f.originalFilename ?? 'upload',
      path: f.filepath,
      size: f.size,
      mimeType: f.mimetype,
      sha256: f.hash ?? '',
    })),
  );
}
