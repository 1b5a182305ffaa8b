// The one place the advanced trade path's response bodies are shaped (contracts/components/schemas/
// advanced-trade.yaml: Classification, ClassificationReview, ClassificationReviewPage).
import type { Schema } from '../../../contracts/generated/index.js';
import type { ClassificationReviewRecord } from './classification-review.store.js';
import type { ClassificationRecord } from './classification.store.js';

export function toClassification(record: ClassificationRecord): Schema<'Classification'> {
  return {
    classificationId: record.id,
    hsCode: record.hsCode,
    confidence: record.confidence,
    candidates: record.candidates,
    requiresReview: record.requiresReview,
    reviewId: record.reviewId,
  };
}

export function toClassificationReview(record: ClassificationReviewRecord): Schema<'ClassificationReview'> {
  return {
    reviewId: record.id,
    classificationId: record.classificationId,
    status: record.status,
    sku: record.sku,
    description: record.description,
    suggestedHsCode: record.suggestedHsCode,
    confidence: record.confidence,
    candidates: record.candidates,
    finalHsCode: record.finalHsCode,
    note: record.note,
    createdAt: record.createdAt,
    decidedAt: record.decidedAt,
  };
}
