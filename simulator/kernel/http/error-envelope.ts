// The one place errors become the spec's envelope { code, message, details? }. Unknown errors are logged
// with the request id and their stack, and answered as 500 INTERNAL_ERROR without internals.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError, internalError } from '../errors.js';

export function errorEnvelope(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ApiError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
    } catch (caught) {
      const error = toApiError(caught);
      // Unexpected: anything that became 500 INTERNAL_ERROR (an escaped exception, a broken invariant), logged
      // with its stack. A 5xx raised on purpose (503 FEATURE_DISABLED, 501 NOT_IMPLEMENTED) is an answer, not
      // a fault: one line without a stack.
      if (error.code === 'INTERNAL_ERROR') log.error({ err: caught, requestId: ctx.state.requestId }, 'unexpected error');
      else if (error.status >= 500) log.info({ requestId: ctx.state.requestId, status: error.status, code: error.code }, error.message);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.toEnvelope();
    }
  };
}

function toApiError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  // Errors raised by the body parser (co-body: status; formidable: httpCode): bad JSON, oversized files.
  const raised = caught as { status?: number; statusCode?: number; httpCode?: number } | undefined;
  const status = raised?.status ?? raised?.statusCode ?? raised?.httpCode;
  if (status === 413) return new ApiError('FILE_TOO_LARGE', 'the request body exceeds the size cap', { field: 'file' });
  if (status === 415) return new ApiError('INVALID_FILE_FORMAT', 'unsupported content type');
  if (status === 400) return new ApiError('INVALID_REQUEST', 'the request body could not be parsed', { field: 'body' });
  return internalError();
}
