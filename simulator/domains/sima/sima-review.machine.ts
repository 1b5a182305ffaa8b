// The SIMA review workflow as data (spec 3.5: workflowStatus OPEN, OVERRIDDEN, ACCEPTED, DISMISSED;
// "Transitions: not shown"). The moves are the sandbox's reading of a reviewer's dashboard actions, reached
// through the control API (POST /_sim/tenants/{tenantId}/sima/results/{sku}/review), not the public surface:
//   OPEN -accept-> ACCEPTED      the exposure is acknowledged as real
//   OPEN -override-> OVERRIDDEN  the reviewer overrides the screening's answer
//   OPEN -dismiss-> DISMISSED    not relevant to the business
//   ACCEPTED | OVERRIDDEN | DISMISSED -reopen-> OPEN
// No state is terminal: the contract's `sima-workflow` lifecycle declares none, and a decision can always be
// reopened. A CLEARED result has no workflow (workflowStatus null) and so no move at all.
import { defineMachine } from '../../kernel/machine.js';
import type { SimaWorkflowStatus } from './sima-result.store.js';

export type SimaReviewAction = 'accept' | 'override' | 'dismiss' | 'reopen';

export const SIMA_REVIEW_ACTIONS: readonly SimaReviewAction[] = ['accept', 'override', 'dismiss', 'reopen'];

export const simaReviewMachine = defineMachine<SimaWorkflowStatus, SimaReviewAction>({
  name: 'SIMA result review',
  states: ['OPEN', 'OVERRIDDEN', 'ACCEPTED', 'DISMISSED'],
  terminal: [],
  transitions: [
    { from: ['OPEN'], action: 'accept', to: 'ACCEPTED' },
    { from: ['OPEN'], action: 'override', to: 'OVERRIDDEN' },
    { from: ['OPEN'], action: 'dismiss', to: 'DISMISSED' },
    { from: ['ACCEPTED', 'OVERRIDDEN', 'DISMISSED'], action: 'reopen', to: 'OPEN' },
  ],
});
