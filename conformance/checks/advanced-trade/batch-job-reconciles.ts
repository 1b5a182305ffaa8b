// advanced-trade.batch-job-reconciles (contract: classifyProductBatch, x-job-type catalog_upload; spec 2.2,
// 3.1): the batch enqueues a catalog_upload job that ends. In the simulator profile its sandbox-defined
// `result` (simulator/README.md) is held to its own items: one per item sent, the counts of confident and
// review-needing items add up, and each item's review is PENDING and names its classification.
import { defineCheck } from '../../harness/check.js';
import { receiptJobId, settleJobs } from '../jobs-support.js';
import { BATCH_PATH, bodyOf, CLEAR_PRODUCT, refusedOurShape, reviewPath, tradeTenant, VAGUE_PRODUCT } from './support.js';

interface BatchItem {
  classificationId?: unknown;
  requiresReview?: unknown;
  reviewId?: unknown;
}

export const batchJobReconciles = defineCheck({
  id: 'advanced-trade.batch-job-reconciles',
  title: 'A classification batch runs as a catalog_upload job whose result accounts for every item and review',
  area: 'advanced-trade',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await tradeTenant(ctx, 'Conformance advanced trade: batch');
    const items = [
      { ...CLEAR_PRODUCT, sku: 'CONF-BATCH-1' },
      { ...VAGUE_PRODUCT, sku: 'CONF-BATCH-2' },
      { ...VAGUE_PRODUCT, sku: 'CONF-BATCH-3' },
    ];
    const accepted = await tenant.client.call('POST', BATCH_PATH, { json: { items } });
    refusedOurShape(ctx, accepted, `POST ${BATCH_PATH}`);
    const jobId = receiptJobId(accepted);
    if (!jobId) return ctx.fail('batch-accepted', `POST ${BATCH_PATH} answered ${accepted.response.status}, not 202 with a jobId`, accepted);
    let last = accepted;
    const settled = await settleJobs(tenant.client, [jobId], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 60_000, onRead: (_id, exchange) => (last = exchange) });
    if (!settled.settled) {
      if (ctx.admin) return ctx.fail('job-reaches-terminal', `batch job ${jobId} is still ${settled.statuses.get(jobId) ?? 'unread'} after ${settled.advancedSeconds} s of virtual time (spec 3.1)`, last);
      ctx.skip(`batch job ${jobId} did not end while the check waited`);
    }
    const job = bodyOf(last);
    ctx.expect(job.type === 'catalog_upload', 'batch-job-type', `batch job ${jobId} has type ${JSON.stringify(job.type)}, not catalog_upload (the contract's x-job-type; spec 2.2)`, last);
    if (ctx.options.profile !== 'simulator') return;
    if (!ctx.expect(job.status === 'COMPLETED', 'batch-completed', `batch job ${jobId} ended ${JSON.stringify(job.status)} (error ${JSON.stringify(job.error)})`, last)) return;

    const result = (job.result ?? {}) as { itemsClassified?: unknown; confident?: unknown; requiresReview?: unknown; items?: unknown };
    const listed = Array.isArray(result.items) ? (result.items as BatchItem[]) : [];
    ctx.expect(listed.length === items.length && result.itemsClassified === items.length, 'batch-items-listed', `batch job ${jobId} sent ${items.length} items; its result lists ${listed.length} with itemsClassified ${JSON.stringify(result.itemsClassified)}`, last);
    const needing = listed.filter((i) => i.requiresReview === true).length;
    ctx.expect(result.requiresReview === needing, 'batch-review-count', `batch job ${jobId} reports requiresReview ${JSON.stringify(result.requiresReview)}, but ${needing} of its items require review`, last);
    ctx.expect(result.confident === listed.length - needing, 'batch-confident-count', `batch job ${jobId} reports confident ${JSON.stringify(result.confident)}, but ${listed.length - needing} of its items need no review`, last);
    for (const item of listed.filter((i) => i.requiresReview === true)) {
      const read = await tenant.client.call('GET', reviewPath(String(item.reviewId)));
      const review = bodyOf(read);
      ctx.expect(read.response.status === 200 && review.status === 'PENDING' && review.classificationId === item.classificationId, 'batch-review-opened', `the review ${JSON.stringify(item.reviewId)} of batch item ${JSON.stringify(item.classificationId)} answered ${read.response.status} with status ${JSON.stringify(review.status)} and classificationId ${JSON.stringify(review.classificationId)}`, read);
    }
  },
});
