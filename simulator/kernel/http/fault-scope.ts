// One request's fault scope (kernel/defects.ts): every request to the public API runs inside it, so the
// defect hooks see the request's tenant (once authenticated) and its `X-Sim-Fault` header, and the faults
// that altered it are collected on `ctx.state.faults` for the request log.
//
// `X-Sim-Fault: <id>[, <id>...]` switches catalogue defects on for this one request. It is honoured only by
// a sandbox that allows it (SIM_ALLOW_FAULT_HEADER=1, or PUT /_sim/fault-header): otherwise the header is
// ignored, as the real service ignores a header it does not know, so the default stays faithful to the spec.
// When allowed, an unknown id is 400 INVALID_REQUEST (details.field `X-Sim-Fault`): a typo must not pass for
// a fault that had no effect. The control API (/_sim/) is never altered by the header.
import type { Middleware } from 'koa';
import type { KernelConfig } from '../config.js';
import { ApiError } from '../errors.js';
import { inRequestScope, scopingWanted, type Defects } from '../defects.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const FAULT_HEADER = 'x-sim-fault';

/** Whether this sandbox honours X-Sim-Fault now: the control setting when given, else SIM_ALLOW_FAULT_HEADER. */
export const faultHeaderAllowed = (defects: Defects, config: Pick<KernelConfig, 'allowFaultHeader'>): boolean =>
  defects.headerAllowance() ?? config.allowFaultHeader === true;

export function faultScope(defects: Defects, config: Pick<KernelConfig, 'allowFaultHeader'>): Middleware {
  return async (ctx, next) => {
    const marked: string[] = [];
    ctx.state.faults = marked;
    const raw = ctx.get(FAULT_HEADER);
    let header: string[] = [];
    if (raw && !ctx.path.startsWith('/_sim/') && faultHeaderAllowed(defects, config)) {
      try {
        header = defects.validate(raw.split(',').map((id) => id.trim()).filter(Boolean), 'X-Sim-Fault');
      } catch (error) {
        // Outside the error envelope (it must wrap the response defects): answer the envelope here.
        if (!(error instanceof ApiError)) throw error;
        ctx.status = error.status;
        ctx.body = error.toEnvelope();
        return;
      }
    }
    // A read with no fault in use runs outside any scope (kernel/defects.ts: the storage's cost); a request
    // that may change state always runs in one, so the transitions it makes name it.
    if (header.length === 0 && !scopingWanted() && READS.has(ctx.method)) return next();
    await inRequestScope(header, marked, next, ctx.state.requestId ?? null);
  };
}
