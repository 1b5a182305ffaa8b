// The advanced trade path's hook points (kernel/deviations.ts): the named places where an entry of the
// catalogue (an injected defect or a legitimate variant, declared in classification.defects.ts) may change
// what is decided. The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { ClassificationReviewStatus } from './classification-review.machine.js';

export const CLASSIFICATION_HOOKS = {
  /** spec 2.10, 4.6: whether the compliance check fails an unknown origin (origin_known). */
  originGateEnforced: hookPoint<boolean>('rule', 'classify.origin-gate-enforced'),
  /** spec 2.10, 4.6: whether an AT_RISK trade-remedy screening keeps a product from `quoteable`. */
  atRiskBlocksQuote: hookPoint<boolean>('rule', 'classify.at-risk-blocks-quote'),
  /** spec 4.6 `/api/trade/classify/reviews*` (sandbox-defined query): the `status` filter listClassificationReviews applies (undefined: none). */
  reviewsStatusFilter: hookPoint<ClassificationReviewStatus | undefined>('store', 'classify.reviews-status-filter'),
  /** spec 4.6 apply (sandbox-defined rule): whether applying a review still PENDING is refused (409: approve or override it first). */
  pendingReviewApplyRefused: hookPoint<boolean>('rule', 'classify.pending-review-apply-refused'),
  /** spec 2.2 (`result` is free-form): the `requiresReview` count a classification batch job reports. */
  batchRequiresReview: hookPoint<number>('worker', 'classify.batch-requires-review'),
  /** Contract ClassificationReview.finalHsCode: the code a decision records (the suggestion once APPROVED, the reviewer's once OVERRIDDEN). */
  decidedFinalHsCode: hookPoint<string | null, { status: string; suggestedHsCode: string; reviewerHsCode: string | null }>('store', 'classify.decided-final-hs-code'),
  /** The review state that blocks a SKU's quote in the compliance check (classification_confident: PENDING). */
  quoteBlockingReviewStatus: hookPoint<ClassificationReviewStatus>('rule', 'classify.quote-blocking-review-status'),
  /** spec 4.6 ("Payload shapes: not shown"): the page size of listClassificationReviews without `limit`. */
  reviewsDefaultLimit: hookPoint<number>('response', 'classify.reviews-default-limit'),
  /** spec 4.6 ("Payload shapes: not shown"; no order given): the order listClassificationReviews lists in. */
  reviewsOrder: hookPoint<'newest-first' | 'oldest-first'>('store', 'classify.reviews-order'),
} as const;
