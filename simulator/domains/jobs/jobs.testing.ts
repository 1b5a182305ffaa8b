// Helpers for the jobs and SIMA unit tests: handler requests without HTTP, and waiting for the worker's
// promise chains (flushes, processors) to settle after the virtual clock moved.
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import type { AnyOperationId } from '../../../contracts/generated/index.js';
import type { HandlerRequest, Principal, PrincipalOf } from '../../kernel/http/types.js';

/** Slow worker delays, so real time passing during a test never starts or finishes a job by itself. */
export const SLOW_JOBS = { jobStartDelayMs: 60_000, jobProcessingMs: 120_000 } as const;

export function principalOf(tenantId: string, keyId: string | null = 'key-1'): Principal {
  return { type: 'integration', tenantId, keyId, scopes: [], allowedAdapters: null, defaultAdapter: null };
}

/**
 * A handler request for `operationId`, typed as the handler receives it: authenticated operations need a
 * principal. Parameters default to none, as for a request that sent none.
 */
export function handlerRequest<Op extends AnyOperationId>(
  operationId: Op,
  principal: PrincipalOf<Op>,
  parts: Partial<Pick<HandlerRequest<Op>, 'params' | 'query' | 'body' | 'headers'>> = {},
): HandlerRequest<Op> {
  return {
    operation: { operationId } as unknown as ContractOperation,
    contractVersion: 'v1.3.0',
    requestId: 'req-test',
    principal,
    params: parts.params ?? ({} as HandlerRequest<Op>['params']),
    query: parts.query ?? ({} as HandlerRequest<Op>['query']),
    headers: parts.headers ?? {},
    body: parts.body as HandlerRequest<Op>['body'],
    files: [],
  };
}

/** Waits (in real time, briefly) until `condition` holds: the worker's steps are promise chains. */
export async function until(condition: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Lets every pending promise chain run (no timers involved). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
