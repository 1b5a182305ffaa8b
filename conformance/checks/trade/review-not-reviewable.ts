// trade.review-needs-ended-preview (spec 4.4): "PUT /api/trade/classify/preview/:jobId/review [...] 409 when the
// preview job is not in a reviewable state". A preview job still in flight (PENDING or PROCESSING, spec 3.1)
// has produced no preview to review: its review is 409 ACTION_NOT_ALLOWED (spec 7: "transition not allowed
// from the current state"); once the job has ended COMPLETED the same review is 200. Simulator profile: the
// virtual clock holds the job in flight while the review is sent (the job's status is read before and after
// it, and an attempt where the job ended meanwhile proves nothing and is repeated).
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { receiptJobId, settleJobs } from '../jobs-support.js';
import { codeOf, feedRows, feedTenant, send, sessionPath, settleFeed, uploadFeed } from './support.js';

const IN_FLIGHT = ['PENDING', 'PROCESSING'];

export const tradeReviewNeedsEndedPreview = defineCheck({
  id: 'trade.review-needs-ended-preview',
  title: 'A review of a classify preview whose job is still in flight is 409 ACTION_NOT_ALLOWED; once it has completed, 200',
  area: 'trade',
  needs: ['writes', 'admin'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade review in flight');
    const rows = feedRows('clean');
    const uploaded = await uploadFeed(ctx, client, rows);
    if (!uploaded) return;
    const settled = await settleFeed(ctx, client, uploaded);
    if (settled.status !== 'READY') ctx.skip(`a feed with one SKU to classify ended ${settled.status ?? 'unread'}, not READY: classify-preview is not available`);
    const applyRows = rows.map((r) => ({ sku: r.sku, name: r.productName, hsCode: r.hsCode || '9401.61.10' }));
    const statusOf = async (jobId: string) => (await client.call('GET', `/api/jobs/${jobId}`)).response.body as { status?: string } | null;

    for (let attempt = 0; attempt < 3; attempt++) {
      const started = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/classify-preview`, { json: {} });
      const jobId = receiptJobId(started);
      if (!ctx.expect(jobId !== undefined, 'feed-preview-accepted', `classify-preview of a READY session answered ${started.response.status}, not 202 with a jobId (spec 4.4)`, started)) return;
      const previewJobId = (started.response.body as { previewJobId?: unknown }).previewJobId;
      const reviewPath = `/api/trade/classify/preview/${typeof previewJobId === 'string' ? previewJobId : jobId}/review`;
      const before = (await statusOf(jobId!))?.status;
      const early = await send(ctx, client, 'PUT', reviewPath, { json: { rows: applyRows } });
      const after = (await statusOf(jobId!))?.status;
      const inFlight = IN_FLIGHT.includes(String(before)) && IN_FLIGHT.includes(String(after));
      if (early.response.status === 409) {
        ctx.expect(codeOf(early) === 'ACTION_NOT_ALLOWED', 'feed-review-not-reviewable', `the review of preview job ${jobId} while it was ${before} answered 409 with code ${JSON.stringify(codeOf(early) ?? null)}, not ACTION_NOT_ALLOWED (spec 7)`, early);
      } else if (inFlight) {
        ctx.fail('feed-review-not-reviewable', `the review of preview job ${jobId} answered ${early.response.status}, not 409, while the job was ${before} (read before the review) and ${after} (read after it): an in-flight preview is not in a reviewable state (spec 4.4)`, early);
        return;
      } else if (IN_FLIGHT.includes(String(before))) {
        continue; // the job ended while the review was on its way: nothing proven
      } else {
        ctx.skip(`preview job ${jobId} was already ${before ?? 'unread'} when the review was sent: its in-flight state could not be caught`);
      }
      const done = await settleJobs(client, [jobId!], { admin: ctx.admin, realMs: 10_000 });
      if (done.statuses.get(jobId!) !== 'COMPLETED') ctx.skip(`the classify preview ${jobId} ended ${done.statuses.get(jobId!) ?? 'unread'}, not COMPLETED`);
      const reviewed = await send(ctx, client, 'PUT', reviewPath, { json: { rows: applyRows } });
      ctx.expect(reviewed.response.status === 200, 'feed-review', `the review of preview job ${jobId} once it had completed answered ${reviewed.response.status}, not 200 (spec 4.4)`, reviewed);
      return;
    }
    ctx.skip('every preview job ended while its review was on its way: the in-flight state could not be caught');
  },
});
