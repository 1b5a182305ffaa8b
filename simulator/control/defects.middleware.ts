// Defect injection, response level: the defects of the catalogue that only change what is sent (a field
// dropped, a wrong enum or code, a lost envelope or header, a wrong status or content type). One Koa
// middleware keyed on the operationId, mounted outside the error envelope (app.ts) so it sees the final
// body of successes and errors alike. The control API (/_sim/) is never touched. Off unless switched on.
import type { Context, Middleware } from 'koa';
import type { Defects } from '../kernel/defects.js';

/** The catalogue ids this middleware implements. */
export const RESPONSE_DEFECTS = [
  'job.missing-required-field',
  'job.wrong-status-enum',
  'jobs.list-count-missing',
  'auth.token-type-wrong',
  'status.undocumented',
  'error.wrong-code',
  'error.lost-envelope',
  'limits.missing-retry-after',
  'limits.details-incomplete',
  'billing.wrong-content-type',
] as const;

type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';

export function responseDefects(defects: Defects): Middleware {
  /** A job as a defective server would send it (getJob and every listJobs item). */
  const job = (item: unknown): unknown => {
    if (!isBody(item)) return item;
    const out: Body = { ...item };
    if (defects.has('job.missing-required-field')) delete out.reconciliation;
    if (defects.has('job.wrong-status-enum') && out.status === 'COMPLETED') out.status = 'DONE';
    return out;
  };

  const success = (ctx: Context, operationId: string | undefined, body: Body) => {
    if (operationId === 'getJob') ctx.body = job(body);
    if (operationId === 'listJobs') {
      const out: Body = { ...body, jobs: Array.isArray(body.jobs) ? body.jobs.map(job) : body.jobs };
      if (defects.has('jobs.list-count-missing')) delete out.count;
      ctx.body = out;
    }
    if (operationId === 'exchangeIntegrationToken') {
      if (defects.has('auth.token-type-wrong')) ctx.body = { ...body, token_type: 'bearer' };
      if (defects.has('status.undocumented') && ctx.status === 200) ctx.status = 201;
    }
    if (operationId === 'createBillingSetupSession' && defects.has('billing.wrong-content-type')) {
      ctx.body = JSON.stringify(body);
      ctx.type = 'text/plain';
    }
  };

  const failure = (ctx: Context, operationId: string | undefined, body: Body) => {
    let out: Body = { ...body };
    if (defects.has('error.wrong-code') && operationId === 'getJob' && ctx.status === 404) out.code = 'JOB_NOT_FOUND';
    if (ctx.status === 429) {
      if (defects.has('limits.missing-retry-after')) ctx.remove('Retry-After');
      if (defects.has('limits.details-incomplete') && isBody(out.details)) {
        const { keyId: _keyId, ...details } = out.details;
        out.details = details;
      }
    }
    if (defects.has('error.lost-envelope') && ctx.status < 500) out = { error: String(body.message ?? '') };
    ctx.body = out;
  };

  return async (ctx, next) => {
    await next();
    if (ctx.path.startsWith('/_sim/') || !RESPONSE_DEFECTS.some((id) => defects.has(id))) return;
    const body = ctx.body;
    if (!isBody(body)) return;
    const operationId = ctx.state.operationId as string | undefined;
    if (ctx.status >= 200 && ctx.status < 300) success(ctx, operationId, body);
    else if (ctx.status >= 400 && ctx.status < 500) failure(ctx, operationId, body);
  };
}
