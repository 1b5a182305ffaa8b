// Defect injection, response level: one Koa middleware, mounted outside the error envelope (app.ts) so it
// sees the final body of successes and errors alike, applies every active response defect that names the
// answered operation. Domains declare their own (`<domain>.defects.ts`); nothing here knows an operation.
// The control API (/_sim/) is never touched. Off unless switched on.
import type { Middleware } from 'koa';
import { isBodyObject, markFault, type Defects, type ResponseDefect } from '../defects.js';

export function responseDefects(defects: Defects, catalogue: readonly ResponseDefect[]): Middleware {
  return async (ctx, next) => {
    await next();
    // isOn, not has: a defect is recorded as altering the request (the request log) only once applied.
    if (ctx.path.startsWith('/_sim/') || !catalogue.some((d) => defects.isOn(d.id))) return;
    const operationId = ctx.state.operationId as string | undefined;
    for (const defect of catalogue) {
      if (!defects.isOn(defect.id) || !isBodyObject(ctx.body)) continue;
      if (defect.operations !== '*' && (operationId === undefined || !defect.operations.includes(operationId))) continue;
      defect.apply(ctx);
      markFault(defect.id);
    }
  };
}
