// The loop the per-endpoint idempotency checks share: each endpoint of the table in turn, what an answer
// that cannot be judged means, and the first request of a key.
import type { CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import type { WriteTenant } from '../jobs-support.js';
import { idempotentEndpoints, receiptIds, untestable, type IdempotentEndpoint, type ReceiptIds } from './endpoints.js';

/** What a visit learns from an answer it expected to be accepted. */
export type Acceptance = { ids: ReceiptIds } | { reason: string } | { failed: true };

/**
 * Whether `exchange` is a 202 receipt naming its job (and session), for `what`. A throttled answer or a
 * shared key without the scope is a reason to leave the endpoint out; anything else fails the check.
 */
export function accepted(ctx: CheckContext, tenant: WriteTenant, endpoint: IdempotentEndpoint, exchange: Exchange, what: string): Acceptance {
  const reason = untestable(tenant, endpoint, exchange);
  if (reason) return { reason };
  const ids = receiptIds(endpoint, exchange);
  if (ids) return { ids };
  const wanted = endpoint.session ? 'a sessionId and a jobId' : 'a jobId';
  ctx.fail('idempotency-accepted', `POST ${endpoint.path}: ${what} answered ${exchange.response.status}, not 202 with ${wanted} (spec 2.3, 8.5)`, exchange);
  return { failed: true };
}

/**
 * The endpoints of the table this run can exercise; skips the check when fewer than `atLeast` are. Reasons
 * an endpoint could not be exercised (a required form field without a contract value) are returned for the end of the check.
 */
export function endpointsOrSkip(ctx: CheckContext, atLeast = 1): { endpoints: IdempotentEndpoint[]; reasons: string[] } {
  const { endpoints, missing } = idempotentEndpoints(ctx);
  if (endpoints.length < atLeast) ctx.skip(`fewer than ${atLeast} idempotent endpoints of contract ${ctx.contract.version} can be exercised${missing.length ? `: ${missing.join('; ')}` : ''}`);
  return { endpoints, reasons: missing };
}

/**
 * Visits each endpoint in order; `visit` returns why its endpoint could not be judged, if so. Those
 * reasons skip the check at the end, unless something already failed (the runner reports the failure).
 */
export async function forEachEndpoint(ctx: CheckContext, visit: (endpoint: IdempotentEndpoint, index: number) => Promise<string | undefined | void>): Promise<void> {
  const { endpoints, reasons } = endpointsOrSkip(ctx);
  for (const [index, endpoint] of endpoints.entries()) {
    const reason = await visit(endpoint, index);
    if (reason) reasons.push(reason);
  }
  if (reasons.length) ctx.skip(reasons.join('; '));
}
