// Reading answers: the error body, the answer and the request described for messages, and the verdict on
// the answer to a valid request.
import { isObject } from '../../../contracts/lib/bundle.js';
import type { CheckContext } from '../../harness/check.js';
import type { Exchange, Failure } from '../../harness/types.js';
import { replayOf } from '../../harness/runner.js';
import type { Prepared, RequestSpec } from './requests.js';

/** Status codes that answer valid input without refusing it (spec 7: 403 scope/principal/adapter, 404 an
 *  id that is not the tenant's, 409 a state or idempotency conflict or a duplicate upload, 429 limits). */
const ANSWERS_TO_VALID_INPUT = new Set([403, 404, 409, 429]);

interface ErrorBody {
  code?: unknown;
  message?: unknown;
  details?: { field?: unknown };
}

export const errorOf = (exchange: Exchange): ErrorBody => (isObject(exchange.response.body) ? (exchange.response.body as ErrorBody) : {});

export function describeAnswer(exchange: Exchange): string {
  const { code, message } = errorOf(exchange);
  return `${exchange.response.status}${typeof code === 'string' ? ` ${code}` : ''}${typeof message === 'string' ? ` (${message.slice(0, 160)})` : ''}`;
}

function describeRequest(spec: RequestSpec): string {
  const parts: string[] = [];
  if (Object.keys(spec.path).length) parts.push(`path ${JSON.stringify(spec.path)}`);
  if (Object.keys(spec.query).length) parts.push(`query ${JSON.stringify(spec.query)}`);
  if (Object.keys(spec.headers).length) parts.push(`headers ${JSON.stringify(spec.headers)}`);
  if (spec.json !== undefined) parts.push(`body ${JSON.stringify(spec.json)}`);
  if (spec.form) parts.push(`form ${JSON.stringify(spec.form.fields)}${spec.form.file ? ' + file' : ''}`);
  const text = parts.join('; ') || 'no input';
  return text.length > 600 ? `${text.slice(0, 597)}...` : text;
}

export function propertyExtra(ctx: CheckContext, checkId: string, spec: RequestSpec): Partial<Failure> {
  return { seed: ctx.seed, counterexample: `${spec.label}: ${describeRequest(spec)}`, replay: replayOf(ctx, checkId) };
}

/**
 * Judges the answer to a valid request. Returns false when the server failed (5xx): more requests to the
 * same operation would only repeat it.
 */
export function judgeValid(ctx: CheckContext, checkId: string, prepared: Prepared, spec: RequestSpec, exchange: Exchange): boolean {
  const status = exchange.response.status;
  const op = prepared.inputs.op;
  const { code } = errorOf(exchange);
  if ((status >= 200 && status < 300) || ANSWERS_TO_VALID_INPUT.has(status)) return true;
  // Spec 4.7: the signup endpoints answer 503 FEATURE_DISABLED while their feature flag is off.
  const documented = isObject(op.operation.responses) && '503' in op.operation.responses;
  if (status === 503 && code === 'FEATURE_DISABLED' && documented) return true;
  // A request shaped by sandbox-defined schemas proves nothing about another deployment's choices.
  if (status === 400 && spec.sandboxDependent && ctx.options.profile !== 'simulator') return true;
  ctx.fail('valid-input-accepted', `${op.operationId}: ${spec.label} (valid per the contract) was answered ${describeAnswer(exchange)}; expected it to be served (2xx, or 403/404/409/429)`, exchange, propertyExtra(ctx, checkId, spec));
  return status < 500;
}
