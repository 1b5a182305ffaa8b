// A reviewer's move on a SKU's current SIMA result (spec 3.5, transitions sandbox-defined in
// sima-review.machine.ts), offered to the control API as a dashboard action: load the current result ->
// transition() (409 ACTION_NOT_ALLOWED for a move the table refuses) -> compare-and-set save -> the item.
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, notFound } from '../../kernel/errors.js';
import { transition } from '../../kernel/machine.js';
import { simaReviewMachine, type SimaReviewAction } from './sima-review.machine.js';
import { toSimaResultItem, type SimaResultItem, type SimaResultStore } from './sima-result.store.js';

/** Lost compare-and-set races retried before giving up (each retry decides again on what it reads). */
const ATTEMPTS = 5;

export function simaReview(deps: Pick<KernelDeps, 'clocks'>, results: SimaResultStore) {
  return async (tenantId: string, sku: string, action: SimaReviewAction, note: string | null = null): Promise<SimaResultItem> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await results.current(tenantId, sku);
      if (!current) throw notFound('SIMA result');
      // A CLEARED result has no workflow (workflowStatus null, set by the screening): nothing to decide.
      if (current.workflowStatus === null) throw actionNotAllowed(`a ${current.outcome} result has no review workflow`, { currentState: null, action, sku });
      const to = transition(simaReviewMachine, current.workflowStatus, action, undefined, { sku });
      const event = { at: deps.clocks.of(tenantId).nowIso(), action, from: current.workflowStatus, to, note };
      const saved = await results.update({ ...current, workflowStatus: to, reviews: [...(current.reviews ?? []), event] });
      if (saved) return toSimaResultItem(saved);
      // Another review, or a screening superseding this result, won the race: read again, decide again.
    }
    throw actionNotAllowed('the result kept changing while it was reviewed; try again', { action, sku });
  };
}

export type SimaReview = ReturnType<typeof simaReview>;
