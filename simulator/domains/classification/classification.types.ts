// The classification domain's types (spec 2.10, 4.6 advanced trade path; every shape sandbox-defined, see
// contracts/components/schemas/advanced-trade.yaml): stored classifications and reviews, the batch job's
// input and result, and what the domain offers the composition root.
import type { Schema } from '../../../contracts/generated/index.js';
import type { DomainModule } from '../domain.js';
import type { classifyProductText } from './classifier.js';

export type ClassificationRequest = Schema<'ClassificationRequest'>;
export type ClassificationCandidate = Schema<'ClassificationCandidate'>;

/** What the domain offers the composition root: its handlers (the batch job's processor is registered with jobs),
 *  and the pure classifier a trade feed's classify-preview runs. */
export type ClassificationDomain = DomainModule & { classify: typeof classifyProductText };

/** The `catalog_upload` job (variant `classification_batch`) input: the validated items. */
export interface ClassificationBatchInput {
  items: ClassificationRequest[];
}

/** One item of the batch job's `result.items` (sandbox-defined: spec 2.2 leaves `result` free-form). */
export interface ClassificationBatchItem {
  /** Position in the request's `items`. */
  index: number;
  sku: string | null;
  classificationId: string;
  hsCode: string;
  confidence: number;
  requiresReview: boolean;
  reviewId: string | null;
}

/** The batch job's `result`. */
export interface ClassificationBatchResult {
  kind: 'classification_batch';
  itemsClassified: number;
  /** Items at or above the review threshold. */
  confident: number;
  /** Items below it: each opened a review. */
  requiresReview: number;
  reviewThreshold: number;
  items: ClassificationBatchItem[];
}
