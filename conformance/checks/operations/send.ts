// Sending a request to an operation, with the credentials it takes and 429s waited out.
import type { CheckContext } from '../../harness/check.js';
import type { Auth } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { recordSent } from './coverage.js';
import type { AuthKind } from './inputs.js';
import { buildForm, urlOf, type Prepared, type RequestSpec } from './requests.js';

function authOf(ctx: CheckContext, kind: AuthKind): Auth {
  if (kind === 'none') return 'none';
  if (kind === 'integration-key') return { apiKey: ctx.client.apiKey };
  return 'bearer';
}

/**
 * Sends one request, recorded with its final status for the run's input coverage (coverage.ts). A 429 (spec 8: rate buckets, queue caps) is waited out: against the simulator by moving
 * its virtual clock past `Retry-After`, elsewhere by sleeping when the wait is short. Returns the last
 * exchange (still 429 when the wait was too long).
 */
export async function send(ctx: CheckContext, prepared: Prepared, spec: RequestSpec, options: { unchecked?: boolean } = {}): Promise<Exchange> {
  const method = prepared.inputs.op.method.toUpperCase();
  const call = () =>
    ctx.client.call(method, urlOf(prepared, spec), {
      auth: authOf(ctx, prepared.inputs.auth),
      headers: spec.headers,
      json: spec.form ? undefined : spec.json,
      form: buildForm(prepared, spec),
      unchecked: options.unchecked,
    });
  const exchange = await call();
  // Recorded with its answer: a request still answered 429 exercised nothing (coverage.ts says so).
  recordSent(ctx.options, prepared.inputs.op.operationId, spec, exchange.response.status);
  return exchange;
}
