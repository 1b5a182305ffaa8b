// The advanced trade path's deviations (README "Defect injection"), as data: rows of the classification
// review table (applied by transition()) and rules at the hook points of classification.hooks.ts.
import type { DefectEntry } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { deviateMachine } from '../../kernel/machine.js';
import { classificationReviewMachine } from './classification-review.machine.js';
import { CLASSIFICATION_HOOKS } from './classification.hooks.js';

/** A decided review taking every decision a PENDING one takes, with the same guards and targets. */
const decidedAsPending = classificationReviewMachine.transitions.map((t) => ({ ...t, from: classificationReviewMachine.terminal }));

export const CLASSIFICATION_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'classify.quoteable-unknown-origin', area: 'advanced-trade', description: 'checkCompliance skips the origin gate: an unknown origin (ZZ) can be `quoteable`', hooks: [at(CLASSIFICATION_HOOKS.originGateEnforced, () => false)] },
  { kind: 'defect', id: 'classify.quoteable-at-risk', area: 'advanced-trade', description: 'checkCompliance passes trade_remedy_exposure for an AT_RISK screening (quoteable despite a SIMA measure)', hooks: [at(CLASSIFICATION_HOOKS.atRiskBlocksQuote, () => false)] },
  { kind: 'defect', id: 'classify.review-redecided', area: 'advanced-trade', description: 'decideClassificationReview decides an already decided review again (200) instead of 409', machine: [deviateMachine(classificationReviewMachine, { add: decidedAsPending })] },
  {
    kind: 'defect',
    id: 'classify.review-overridden-after-approval',
    area: 'advanced-trade',
    description: 'decideClassificationReview overrides an APPROVED review (200 OVERRIDDEN instead of 409; decided reviews are terminal)',
    machine: [deviateMachine(classificationReviewMachine, { add: [{ from: ['APPROVED'], action: 'override', to: 'OVERRIDDEN' }] })],
  },
  { kind: 'defect', id: 'classify.review-status-filter-ignored', area: 'advanced-trade', description: 'the `status` filter of listClassificationReviews is ignored', hooks: [at(CLASSIFICATION_HOOKS.reviewsStatusFilter, () => undefined)] },
  { kind: 'defect', id: 'classify.apply-pending-review', area: 'advanced-trade', description: "applyClassification writes a PENDING review's suggested code instead of answering 409", hooks: [at(CLASSIFICATION_HOOKS.pendingReviewApplyRefused, () => false)] },
  { kind: 'defect', id: 'classify.override-keeps-suggestion', area: 'advanced-trade', description: "an override records the classifier's suggested code as the review's finalHsCode instead of the reviewer's hsCode", hooks: [at(CLASSIFICATION_HOOKS.decidedFinalHsCode, (code, { status, suggestedHsCode }) => (status === 'OVERRIDDEN' ? suggestedHsCode : code))] },
  { kind: 'defect', id: 'classify.decided-review-blocks-quote', area: 'advanced-trade', description: "checkCompliance counts a SKU's OVERRIDDEN reviews as blocking instead of its PENDING ones (a pending review no longer keeps it from quoteable; a decided one does)", hooks: [at(CLASSIFICATION_HOOKS.quoteBlockingReviewStatus, () => 'OVERRIDDEN' as const)] },
  { kind: 'defect', id: 'classify.batch-counts-off', area: 'advanced-trade', description: 'a classification batch job reports result.requiresReview one higher than the reviews it opened', hooks: [at(CLASSIFICATION_HOOKS.batchRequiresReview, (count) => count + 1)] },
];
