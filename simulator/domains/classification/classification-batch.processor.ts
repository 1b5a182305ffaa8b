// The classification batch job (POST /api/trade/classify/batch; spec 4.6, 2.2): a `catalog_upload` job (the
// contract's x-job-type) run by the `classification_batch` variant. Each item is classified and kept exactly
// as a single classify call would (low confidence opens a review); the job's `result` lists them
// (sandbox-defined: spec 2.2 leaves `result` free-form). Reconciliation: `rowsUploaded` the items received,
// `skusFound` the distinct SKUs given; no screening runs (outcomes 0). Run again after a crash, the job keeps
// the items its earlier run classified (record-classification.ts: ids named by the job and the item).
import type { KernelDeps } from '../../kernel/deps.js';
import { cooperative } from '../../kernel/cooperate.js';
import type { JobProcessor } from '../jobs/index.js';
import { CLASSIFICATION_REVIEW_THRESHOLD } from './classifier.js';
import { CLASSIFICATION_HOOKS } from './classification.hooks.js';
import type { ClassificationBatchInput, ClassificationBatchItem, ClassificationBatchResult } from './classification.types.js';
import type { RecordClassification } from './record-classification.js';

/** The jobs domain's variant key for this processor (JobRecord.variant; never sent). */
export const CLASSIFICATION_BATCH_VARIANT = 'classification_batch';

export function classificationBatchProcessor(deps: KernelDeps, record: RecordClassification): JobProcessor {
  return async (job, { progress }) => {
    const { items } = job.input as ClassificationBatchInput;
    const giveWay = cooperative(64);
    const done: ClassificationBatchItem[] = [];
    for (const [index, item] of items.entries()) {
      await giveWay();
      const c = await record(job.tenantId, item, { id: job.id, item: index });
      done.push({ index, sku: c.sku, classificationId: c.id, hsCode: c.hsCode, confidence: c.confidence, requiresReview: c.requiresReview, reviewId: c.reviewId });
      if (index % 10 === 9) await progress(Math.floor(((index + 1) / items.length) * 100));
    }
    const requiresReview = done.filter((i) => i.requiresReview).length;
    const result: ClassificationBatchResult = {
      kind: 'classification_batch',
      itemsClassified: done.length,
      confident: done.length - requiresReview,
      requiresReview: deps.defects.at(CLASSIFICATION_HOOKS.batchRequiresReview, requiresReview),
      reviewThreshold: CLASSIFICATION_REVIEW_THRESHOLD,
      items: done,
    };
    const skus = new Set(items.map((i) => i.sku).filter((s): s is string => typeof s === 'string'));
    return {
      result: { ...result },
      reconciliation: { rowsUploaded: items.length, rowsSkipped: 0, rowsDeduplicated: 0, skusFound: skus.size },
    };
  };
}
