// The classification review as data (contract `x-lifecycle: classification-review` on
// ClassificationReviewStatus, sandbox-defined: spec 2.10 only names the records):
//   PENDING -approve-> APPROVED     the suggested code stands (refused when nothing was suggested)
//   PENDING -reject-> REJECTED      the suggestion is wrong; nothing can be applied from it
//   PENDING -override-> OVERRIDDEN  the reviewer's own code (`hsCode`) stands
// APPROVED, REJECTED and OVERRIDDEN are terminal: a new decision is 409 ACTION_NOT_ALLOWED naming the state
// (responses/trade.yaml ClassificationReviewDecided). Reclassify to start again.
import { defineMachine } from '../../kernel/machine.js';

export type ClassificationReviewStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'OVERRIDDEN';
export type ClassificationReviewAction = 'approve' | 'reject' | 'override';

export const CLASSIFICATION_REVIEW_ACTIONS: readonly ClassificationReviewAction[] = ['approve', 'reject', 'override'];

/** What a decision is judged on: the review's suggested code ('' when the classifier found none). */
export interface ReviewDecisionContext {
  suggestedHsCode: string;
}

/** Approving an empty suggestion would apply nothing: the reviewer must override with a code. */
const somethingSuggested = (context: ReviewDecisionContext) =>
  context.suggestedHsCode ? undefined : 'the classifier suggested no code for this review: override it with an hsCode, or reject it';

export const classificationReviewMachine = defineMachine<ClassificationReviewStatus, ClassificationReviewAction, ReviewDecisionContext>({
  name: 'classification review',
  states: ['PENDING', 'APPROVED', 'REJECTED', 'OVERRIDDEN'],
  terminal: ['APPROVED', 'REJECTED', 'OVERRIDDEN'],
  transitions: [
    { from: ['PENDING'], action: 'approve', to: 'APPROVED', guard: somethingSuggested },
    { from: ['PENDING'], action: 'reject', to: 'REJECTED' },
    { from: ['PENDING'], action: 'override', to: 'OVERRIDDEN' },
  ],
});
