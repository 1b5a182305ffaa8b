// The advanced trade path's deviations (README "Defect injection"), as data: rows of the classification
// review table (applied by transition()) and rules at the hook points of classification.hooks.ts.
import { isBodyObject, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
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

/** spec 2.10: "Records of the advanced trade path (classification, review, quoteability summary) are only named: fields not shown [...]". */
const RECORDS_NOT_SHOWN = 'spec 2.10: "Records of the advanced trade path (classification, review, quoteability summary) are only named: fields not shown, except that the compliance check yields a `quoteReadiness` whose value `quoteable` is meaningful (see 4.6)."; spec 4.6: "Payload shapes: not shown."';

/** Legitimate variants of the advanced trade path (README "Variants"): choices the spec leaves open. */
export const CLASSIFICATION_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'classify.records-other-shape', area: 'advanced-trade', description: 'classification, review and apply records name their codes otherwise: `alternatives: [{ code, score, label }]` for `candidates`, a review\'s `proposedCode`, `decidedCode`, `reviewerNote`, `closedAt` for `suggestedHsCode`, `finalHsCode`, `note`, `decidedAt`, an apply\'s `appliedCode` for `hsCode` (ids and review states as the sandbox names them)', spec: RECORDS_NOT_SHOWN },
  { kind: 'variant', id: 'compliance.record-other-shape', area: 'advanced-trade', description: 'the compliance check answers `evaluations: [{ name, result, detail }]` and `reasons: [{ reason, text }]` instead of `checks` and `blockers`, and names the two states that are not `quoteable` `review_required` and `blocked`', spec: RECORDS_NOT_SHOWN },
  { kind: 'variant', id: 'classify.reviews-oldest-first', area: 'advanced-trade', description: 'listClassificationReviews lists a tenant\'s reviews oldest first (a stable order, pages still partition it)', spec: 'spec 4.6: "Advanced trade endpoints: [...] `/api/trade/classify/reviews*` [...] Payload shapes: not shown." (no order is given)', hooks: [at(CLASSIFICATION_HOOKS.reviewsOrder, () => 'oldest-first' as const)] },
  { kind: 'variant', id: 'classify.reviews-default-limit-20', area: 'advanced-trade', description: 'listClassificationReviews without `limit` answers pages of 20', spec: 'spec 4.6: "Advanced trade endpoints: [...] `/api/trade/classify/reviews*` [...] Payload shapes: not shown." (no page size is given; spec 8.6 lists no default for them)', hooks: [at(CLASSIFICATION_HOOKS.reviewsDefaultLimit, () => 20)] },
];

type Body = Record<string, unknown>;
const otherCandidates = (list: unknown) => (Array.isArray(list) ? list.map((c) => (isBodyObject(c) ? { code: c.hsCode, score: c.confidence, label: c.description } : c)) : list);
/** classify.records-other-shape on a classification review record. */
const otherReview = (review: unknown) => {
  if (!isBodyObject(review) || typeof review.reviewId !== 'string') return review;
  const { suggestedHsCode, finalHsCode, note, decidedAt, candidates, ...rest } = review;
  return { ...rest, proposedCode: suggestedHsCode, decidedCode: finalHsCode, reviewerNote: note, closedAt: decidedAt, alternatives: otherCandidates(candidates) };
};
const OTHER_READINESS: Record<string, string> = { needs_review: 'review_required', not_quoteable: 'blocked' };

export const CLASSIFICATION_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('classify.records-other-shape', ['classifyProduct'], ({ candidates, ...rest }) => ({ ...rest, alternatives: otherCandidates(candidates) })),
  rewriteSuccessBody('classify.records-other-shape', ['getClassificationReview', 'decideClassificationReview'], (body) => otherReview(body) as Body),
  rewriteSuccessBody('classify.records-other-shape', ['listClassificationReviews'], (body) => (Array.isArray(body.reviews) ? { ...body, reviews: body.reviews.map(otherReview) } : undefined)),
  rewriteSuccessBody('classify.records-other-shape', ['applyClassification'], ({ hsCode, ...rest }) => ({ ...rest, appliedCode: hsCode })),
  rewriteSuccessBody('compliance.record-other-shape', ['checkCompliance'], ({ checks, blockers, quoteReadiness, ...rest }) => ({
    ...rest,
    quoteReadiness: OTHER_READINESS[String(quoteReadiness)] ?? quoteReadiness,
    evaluations: Array.isArray(checks) ? checks.map((c: Body) => ({ name: c.check, result: c.outcome, detail: c.message })) : checks,
    reasons: Array.isArray(blockers) ? blockers.map((b: Body) => ({ reason: b.code, text: b.message })) : blockers,
  })),
];
