// What every check that expects a refusal asserts (spec 2.9, 7): the status, the error envelope
// `{ code, message, details? }` and the stable code, each failing under its own rule id.
import type { CheckContext } from './check.js';
import type { Exchange, Failure } from './types.js';

export interface ErrorEnvelope {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Spec 2.9 / 7: `{ code: string, message: string, details?: object }`. */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { code, message, details } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && (details === undefined || (typeof details === 'object' && details !== null && !Array.isArray(details)));
}

/**
 * Fails the check unless `exchange` is an error answer with this status, the error envelope and this code
 * (spec 7). Returns the envelope when all three hold. `what` names the request in the message.
 */
export function expectError(ctx: Pick<CheckContext, 'fail'>, exchange: Exchange, status: number, code: string, what: string, extra?: Partial<Failure>): ErrorEnvelope | undefined {
  const { response } = exchange;
  if (response.status !== status) {
    const got = isErrorEnvelope(response.body) ? `${response.status} ${response.body.code}` : String(response.status);
    ctx.fail('error-status', `${what}: expected ${status} ${code}, got ${got}`, exchange, extra);
    return undefined;
  }
  if (!isErrorEnvelope(response.body)) {
    ctx.fail('error-envelope', `${what}: the ${status} body is not the error envelope { code, message, details? } (spec 2.9, 7): ${response.text.slice(0, 200)}`, exchange, extra);
    return undefined;
  }
  if (response.body.code !== code) {
    ctx.fail('error-code', `${what}: the ${status} carries code ${response.body.code}, not ${code} (spec 7)`, exchange, extra);
    return undefined;
  }
  return response.body;
}
