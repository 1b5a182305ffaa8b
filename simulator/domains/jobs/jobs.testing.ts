// Helpers for the jobs and SIMA unit tests: handler requests without HTTP, and waiting for the worker's
// promise chains (flushes, processors) to settle after the virtual clock moved.
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import type { HandlerRequest, Principal } from '../../kernel/http/types.js';

/** Slow worker delays, so real time passing during a test never starts or finishes a job by itself. */
export const SLOW_JOBS = { jobStartDelayMs: 60_000, jobProcessingMs: 120_000 } as const;

export function principalOf(tenantId: string, keyId: string | null = 'key-1'): Principal {
  return { type: 'integration', tenantId, keyId, scopes: [], allowedAdapters: null, defaultAdapter: null };
}

export function handlerRequest(operationId: string, principal: Principal | null, parts: Partial<Pick<HandlerRequest, 'params' | 'query' | 'body' | 'headers'>> = {}): HandlerRequest {
  return {
    operation: { operationId } as unknown as ContractOperation,
    contractVersion: 'v1.3.0',
    requestId: 'req-test',
    principal,
    params: parts.params ?? {},
    query: parts.query ?? {},
    headers: parts.headers ?? {},
    body: parts.body,
    files: [],
  };
}

/** Waits (in real time, briefly) until `condition` holds: the worker's steps are promise chains. */
export async function until(condition: () => boolean, what = 'condition', timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Lets every pending promise chain run (no timers involved). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}
