// One move of a trade feed session (spec 3.2) through the kernel pipeline (kernel/move.ts): load the
// tenant's session -> transition() by the table in force (deviations included) -> the move's changes ->
// compare-and-set save, read and decided again on a lost race. A refused move is 409 ACTION_NOT_ALLOWED
// naming the session's state and the action.
import type { KernelDeps } from '../../kernel/deps.js';
import { notFound } from '../../kernel/errors.js';
import { move } from '../../kernel/move.js';
import { factsOf } from './feed-session.response.js';
import { feedSessionMachine, type FeedSessionAction, type FeedSessionFacts } from './feed-session.machine.js';
import type { FeedSessionStore } from './feed-session.store.js';
import type { FeedSessionRecord } from './trade.types.js';

export interface FeedSessionStep {
  tenantId: string;
  sessionId: string;
  action: FeedSessionAction;
  /** What the guards and computed targets read; by default the facts of the session as loaded. */
  facts?(session: FeedSessionRecord): FeedSessionFacts;
  /**
   * What the move sets besides the state (`updatedAt` is now unless set here), on the session as loaded
   * (again after a lost race), knowing the state it lands on; may throw to refuse.
   */
  changes?(session: FeedSessionRecord, to: FeedSessionRecord['status']): Partial<FeedSessionRecord> | Promise<Partial<FeedSessionRecord>>;
}

export function feedSessionMover(deps: Pick<KernelDeps, 'clocks' | 'defects'>, sessions: FeedSessionStore) {
  return async (step: FeedSessionStep): Promise<FeedSessionRecord> => {
    const { record } = await move({
      machine: feedSessionMachine,
      action: step.action,
      context: step.facts ?? factsOf,
      switches: deps.defects,
      details: { sessionId: step.sessionId },
      load: () => sessions.get(step.tenantId, step.sessionId),
      missing: () => notFound('trade feed session'),
      state: (s) => s.status,
      apply: async (s, to) => ({ ...s, updatedAt: deps.clocks.of(s.tenantId).nowIso(), ...(await step.changes?.(s, to)), status: to }),
      save: (next) => sessions.update(next),
    });
    return record;
  };
}
