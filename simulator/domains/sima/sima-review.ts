// A reviewer's move on a SKU's current SIMA result (spec 3.5, transitions sandbox-defined in
// sima-review.machine.ts), offered to the control API as a dashboard action: kernel move() loads the current
// result, refuses a result without a workflow, applies the table in force (409 ACTION_NOT_ALLOWED for a move
// it refuses) and saves compare-and-set, deciding again on a lost race; the answer is the saved item.
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, notFound } from '../../kernel/errors.js';
import { move } from '../../kernel/move.js';
import { simaReviewMachine, type SimaReviewAction } from './sima-review.machine.js';
import { toSimaResultItem, type SimaResultItem, type SimaResultRecord, type SimaResultStore, type SimaWorkflowStatus } from './sima-result.store.js';

export function simaReview(deps: Pick<KernelDeps, 'clocks' | 'defects'>, results: SimaResultStore) {
  return async (tenantId: string, sku: string, action: SimaReviewAction, note: string | null = null): Promise<SimaResultItem> => {
    const { record } = await move({
      machine: simaReviewMachine,
      action,
      context: undefined,
      switches: deps.defects,
      details: { sku },
      load: () => results.current(tenantId, sku),
      missing: () => notFound('SIMA result'),
      precheck(current) {
        // A CLEARED result has no workflow (workflowStatus null, set by the screening): nothing to decide.
        if (current.workflowStatus === null) throw actionNotAllowed(`a ${current.outcome} result has no review workflow`, { currentState: null, action, sku });
      },
      // Not null past the precheck.
      state: (current) => current.workflowStatus as SimaWorkflowStatus,
      apply: (current, to): SimaResultRecord => {
        const event = { at: deps.clocks.of(tenantId).nowIso(), action, from: current.workflowStatus as SimaWorkflowStatus, to, note };
        return { ...current, workflowStatus: to, reviews: [...(current.reviews ?? []), event] };
      },
      // Another review, or a screening superseding this result, may win the race: move() reads again.
      save: (next) => results.update(next),
    });
    return toSimaResultItem(record);
  };
}
