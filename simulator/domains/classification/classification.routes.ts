// The advanced trade path's classification operations (spec 4.6; shapes sandbox-defined in
// contracts/components/schemas/advanced-trade.yaml): classify one product, enqueue a batch (a `catalog_upload`
// job, the contract's x-job-type, run by the `classification_batch` variant), and apply a classification or a
// decided review to a catalog SKU through the SIMA domain's catalog (so screening sees the new code).
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, ApiError } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { JobsDomain } from '../jobs/index.js';
import type { SimaDomain } from '../sima/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { CLASSIFICATION_BATCH_VARIANT } from './classification-batch.processor.js';
import type { ClassificationReviewRecord, ClassificationReviewStore } from './classification-review.store.js';
import { CLASSIFICATION_HOOKS } from './classification.hooks.js';
import { toClassification } from './classification.response.js';
import type { ClassificationStore } from './classification.store.js';
import type { ClassificationBatchInput } from './classification.types.js';
import type { RecordClassification } from './record-classification.js';

/** Where applied rows say they came from (the catalog item's `source`). */
const APPLY_SOURCE = 'classification apply (POST /api/trade/classify/apply)';

export function classificationRoutes(
  deps: KernelDeps,
  stores: { classifications: ClassificationStore; reviews: ClassificationReviewStore; record: RecordClassification },
  peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'>; catalog: SimaDomain['catalog'] },
) {
  const { classifications, reviews, record } = stores;

  /** The code a decided review stands for, or 409 naming its state (PENDING and REJECTED apply nothing). */
  const decidedCode = (review: ClassificationReviewRecord): string => {
    if (review.status === 'PENDING' && !deps.defects.at(CLASSIFICATION_HOOKS.pendingReviewApplyRefused, true)) return review.suggestedHsCode;
    if ((review.status === 'APPROVED' || review.status === 'OVERRIDDEN') && review.finalHsCode) return review.finalHsCode;
    throw actionNotAllowed(
      review.status === 'PENDING' ? `review ${review.id} is PENDING: approve or override it before applying` : `review ${review.id} is ${review.status}: a rejected classification cannot be applied`,
      { currentState: review.status, action: 'apply' },
    );
  };

  return {
    async classifyProduct({ principal, body }) {
      const classification = await record(principal.tenantId, body);
      return { status: 200, body: toClassification(classification) };
    },

    async classifyProductBatch({ principal, body }) {
      // Refuse a bad webhook target before anything is queued (contracts/README.md decision 10).
      const webhook = peers.webhooks.parseConfig(body);
      const input: ClassificationBatchInput = { items: body.items };
      // Not an upload: the batch counts against the tenant's total queue cap only (spec 8.2).
      const job = await peers.jobs.enqueue({ tenantId: principal.tenantId, keyId: principal.keyId, type: 'catalog_upload', variant: CLASSIFICATION_BATCH_VARIANT, family: 'other', input });
      if (webhook) await peers.webhooks.attach(job.id, principal.tenantId, webhook);
      const n = body.items.length;
      return { status: 202, body: { jobId: job.id, status: job.status, message: `classification batch accepted (${n} item${n === 1 ? '' : 's'})`, replayed: false } };
    },

    async applyClassification({ principal, body }) {
      const tenantId = principal.tenantId;
      let hsCode: string;
      let from: { productName: string | null; description: string; originCountry: string | null } | undefined;
      if (body.reviewId !== undefined) {
        const review = await reviews.get(tenantId, body.reviewId);
        if (!review) throw new ApiError('NOT_FOUND', `classification review ${body.reviewId} not found`);
        hsCode = decidedCode(review);
        const classification = await classifications.get(tenantId, review.classificationId);
        from = classification;
      } else {
        const classification = await classifications.get(tenantId, body.classificationId!);
        if (!classification) throw new ApiError('NOT_FOUND', `classification ${body.classificationId} not found`);
        from = classification;
        if (classification.requiresReview) {
          // A classification that required review applies once its review is approved or overridden.
          const review = classification.reviewId ? await reviews.get(tenantId, classification.reviewId) : undefined;
          if (!review) throw actionNotAllowed(`classification ${classification.id} requires review`, { currentState: 'PENDING', action: 'apply' });
          hsCode = decidedCode(review);
        } else hsCode = classification.hsCode;
      }
      // A SKU new to the catalog is created with what the classification request said of the product. Applying
      // no rows seeds a new tenant's sample catalog first, so a sample SKU is found as the tenant has it.
      await peers.catalog.apply(tenantId, [], APPLY_SOURCE);
      const existing = await peers.catalog.get(tenantId, body.sku);
      const creating = !existing && from;
      await peers.catalog.apply(
        tenantId,
        [{ sku: body.sku, hsCode, ...(creating ? { productName: from!.productName ?? from!.description, ...(from!.originCountry ? { countryOfOrigin: from!.originCountry } : {}) } : {}) }],
        APPLY_SOURCE,
      );
      return { status: 200, body: { sku: body.sku, hsCode, appliedAt: deps.clocks.of(tenantId).nowIso() } };
    },
  } satisfies HandlerTable;
}
