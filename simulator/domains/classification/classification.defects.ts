// The advanced trade path's injectable defects (README "Defect injection"). Each is one
// `defects.has('<id>')` line where the behaviour lives: compliance.routes.ts (via compliance.ts),
// classification-review.routes.ts, classification.routes.ts, classification-batch.processor.ts.
import type { DefectEntry } from '../../kernel/defects.js';

export const CLASSIFICATION_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'classify.quoteable-unknown-origin', area: 'advanced-trade', description: 'checkCompliance skips the origin gate: an unknown origin (ZZ) can be `quoteable`' },
  { kind: 'defect', id: 'classify.quoteable-at-risk', area: 'advanced-trade', description: 'checkCompliance passes trade_remedy_exposure for an AT_RISK screening (quoteable despite a SIMA measure)' },
  { kind: 'defect', id: 'classify.review-redecided', area: 'advanced-trade', description: 'decideClassificationReview decides an already decided review again (200) instead of 409' },
  { kind: 'defect', id: 'classify.review-overridden-after-approval', area: 'advanced-trade', description: 'decideClassificationReview overrides an APPROVED review (200 OVERRIDDEN instead of 409; decided reviews are terminal)' },
  { kind: 'defect', id: 'classify.review-status-filter-ignored', area: 'advanced-trade', description: 'the `status` filter of listClassificationReviews is ignored' },
  { kind: 'defect', id: 'classify.apply-pending-review', area: 'advanced-trade', description: "applyClassification writes a PENDING review's suggested code instead of answering 409" },
  { kind: 'defect', id: 'classify.batch-counts-off', area: 'advanced-trade', description: 'a classification batch job reports result.requiresReview one higher than the reviews it opened' },
];
