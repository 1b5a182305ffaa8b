// Classifying one request and keeping the result (spec 4.6; sandbox-defined): the classifier's answer becomes
// a stored classification, and below the review threshold a PENDING classification review as well. Shared by
// `POST /api/trade/classify` and the batch job, so both open reviews the same way.
import type { KernelDeps } from '../../kernel/deps.js';
import { jobRecordId } from '../jobs/index.js';
import { CLASSIFICATION_REVIEW_THRESHOLD, classifyProductText, subheadingDescription } from './classifier.js';
import type { ClassificationReviewStore } from './classification-review.store.js';
import type { ClassificationRecord, ClassificationStore } from './classification.store.js';
import type { ClassificationRequest } from './classification.types.js';

/** The words the classifier reads: the product name, then the description. */
const textOf = (request: ClassificationRequest) => [request.productName?.trim(), request.description.trim()].filter(Boolean).join('. ');

export function recordClassification(deps: KernelDeps, stores: { classifications: ClassificationStore; reviews: ClassificationReviewStore }) {
  /**
   * `job`: the batch job and the item's index in it. Its records' ids are then named by the job and the item
   * (jobs.settlement.ts jobRecordId), so the job run again after a crash finds what its earlier run kept
   * (issue 30 item 3) instead of classifying the item twice: the review is written before the classification,
   * so a stored classification means its review is stored too.
   */
  return async function record(tenantId: string, request: ClassificationRequest, job: { id: string; item: number } | null = null): Promise<ClassificationRecord> {
    const jobId = job?.id ?? null;
    const earlier = job ? await stores.classifications.get(tenantId, jobRecordId(job.id, 'classification', job.item)) : undefined;
    if (earlier) return earlier;
    const result = classifyProductText({ ...(request.sku ? { sku: request.sku } : {}), productName: textOf(request), originCountry: request.originCountry ?? null });
    const now = deps.clocks.of(tenantId).nowIso();
    // No rule matched: no candidate; the contract's hsCode is a string, so '' says "none" and a reviewer decides.
    const hsCode = result.hsCode ?? '';
    const candidates = result.hsCode
      ? [{ hsCode: result.hsCode, description: subheadingDescription(result.hsCode) ?? result.hsCode, confidence: result.confidence }, ...result.alternatives.map(({ hsCode: code, description, confidence }) => ({ hsCode: code, description, confidence }))]
      : [];
    const requiresReview = result.confidence < CLASSIFICATION_REVIEW_THRESHOLD;
    const id = job ? jobRecordId(job.id, 'classification', job.item) : deps.ids.uuid();
    const reviewId = requiresReview ? (job ? jobRecordId(job.id, 'classification-review', job.item) : deps.ids.uuid()) : null;
    // The review first (see above); one an earlier run of the job stored stays as it is.
    if (reviewId && !(job && (await stores.reviews.get(tenantId, reviewId)))) {
      await stores.reviews.create({
        id: reviewId,
        tenantId,
        classificationId: id,
        status: 'PENDING',
        sku: request.sku ?? null,
        description: request.description,
        suggestedHsCode: hsCode,
        confidence: result.confidence,
        candidates,
        finalHsCode: null,
        note: null,
        createdAt: now,
        decidedAt: null,
      });
    }
    return stores.classifications.create({
      id,
      tenantId,
      sku: request.sku ?? null,
      description: request.description,
      productName: request.productName ?? null,
      originCountry: request.originCountry ?? null,
      destinationCountry: request.destinationCountry ?? null,
      hsCode,
      confidence: result.confidence,
      candidates,
      requiresReview,
      reviewId,
      rationale: result.rationale,
      jobId,
      createdAt: now,
    });
  };
}

export type RecordClassification = ReturnType<typeof recordClassification>;
