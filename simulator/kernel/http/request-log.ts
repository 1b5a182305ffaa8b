// A request id on every request (echoed as X-Request-Id) and one structured log line per request.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { IdGenerator } from '../ids.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(log: Logger, ids: IdGenerator): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = CLIENT_REQUEST_ID.test(incoming) ? incoming : ids.uuid();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info({
        requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        tenantId: ctx.state.principal?.tenantId,
        operationId: ctx.state.operationId,
      });
    }
  };
}
