// GET /_sim/requests and GET /_sim/transitions (sandbox-defined, contracts/sandbox-control.openapi.yaml): the
// request log of the public API (kernel/request-journal.ts) and the append-only transition log of every
// lifecycle machine (kernel/transition-log.ts), read by the console and by integrators as audit evidence.
import type { KernelDeps } from '../kernel/deps.js';
import { invalidRequest } from '../kernel/errors.js';
import type { Handler } from '../kernel/http/types.js';
import type { RequestJournal } from '../kernel/request-journal.js';
import { InvalidCursorError } from '../kernel/store/collection.js';
import { transitionLog } from '../kernel/transition-log.js';

export function logHandlers(deps: Pick<KernelDeps, 'store' | 'clocks'>, requests: RequestJournal) {
  const transitions = transitionLog(deps);
  const listSandboxRequests: Handler<'listSandboxRequests'> = ({ query }) => {
    if (query.since && query.until && Date.parse(query.since) > Date.parse(query.until)) throw invalidRequest('since must not be after until', 'since');
    return { status: 200, body: requests.list({ ...query, limit: query.limit ?? 50 }) };
  };
  const listSandboxTransitions: Handler<'listSandboxTransitions'> = async ({ query }) => {
    try {
      const page = await transitions.list({ ...query, limit: query.limit ?? 100 });
      return { status: 200, body: { items: page.items.map(({ id: _id, rev: _rev, ...entry }) => entry), nextCursor: page.nextCursor } };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw invalidRequest('cursor is not one this log issued', 'cursor');
      throw error;
    }
  };
  return { listSandboxRequests, listSandboxTransitions };
}
