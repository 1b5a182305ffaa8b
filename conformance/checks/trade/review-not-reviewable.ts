// trade.review-needs-ended-preview (spec 4.4): "PUT /api/trade/classify/preview/:jobId/review [...] 409 when the
// preview job is not in a reviewable state". A preview job still in flight (PENDING or PROCESSING, spec 3.1)
// has produced no preview to review: its review is 409 ACTION_NOT_ALLOWED (spec 7: "transition not allowed
// from the current state"); once the job has ended COMPLETED the same review is 200. The review is sent as
// soon as the preview is enqueued. A 200 is judged by the server's own record: the job read after it still in
// flight, or completed after the review's `reviewedAt` (the review result's field, sandbox-defined: hence the
// simulator profile, where the sandbox's shapes are held). A 200 after the job ended proves nothing and the
// attempt is repeated (up to 5); a preview job lives only as long as the server makes it, so on a fast or
// loaded one every attempt may come too late, and the check is skipped saying so.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { receiptJobId, settleJobs } from '../jobs-support.js';
import { codeOf, feedRows, feedTenant, send, sessionPath, settleFeed, uploadFeed } from './support.js';

const IN_FLIGHT = ['PENDING', 'PROCESSING'];
/** Previews started until one is caught in flight (each job lives a moment: its review is sent at once). */
const ATTEMPTS = 5;
const instant = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

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
    const jobOf = async (jobId: string) => (await client.call('GET', `/api/jobs/${jobId}`)).response.body as { status?: string; updatedAt?: unknown } | null;

    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const started = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/classify-preview`, { json: {} });
      const jobId = receiptJobId(started);
      if (!ctx.expect(jobId !== undefined, 'feed-preview-accepted', `classify-preview of a READY session answered ${started.response.status}, not 202 with a jobId (spec 4.4)`, started)) return;
      const previewJobId = (started.response.body as { previewJobId?: unknown }).previewJobId;
      const reviewPath = `/api/trade/classify/preview/${typeof previewJobId === 'string' ? previewJobId : jobId}/review`;
      // Sent at once: the preview job has just been created.
      const early = await send(ctx, client, 'PUT', reviewPath, { json: { rows: applyRows } });
      if (early.response.status === 200) {
        const job = await jobOf(jobId!);
        const reviewedAt = instant((early.response.body as { reviewedAt?: unknown } | null)?.reviewedAt);
        const ended = instant(job?.updatedAt);
        if (IN_FLIGHT.includes(String(job?.status))) {
          ctx.fail('feed-review-not-reviewable', `the review of preview job ${jobId} answered 200 while the job was still ${String(job?.status)} (read after the review): an in-flight preview is not in a reviewable state (spec 4.4: 409)`, early);
          return;
        }
        if (job?.status === 'COMPLETED' && reviewedAt !== undefined && ended !== undefined && ended > reviewedAt) {
          ctx.fail('feed-review-not-reviewable', `the review of preview job ${jobId} answered 200 with reviewedAt ${new Date(reviewedAt).toISOString()}, before the job completed (updatedAt ${new Date(ended).toISOString()}): an in-flight preview is not in a reviewable state (spec 4.4: 409)`, early);
          return;
        }
        continue; // the job had ended before the review arrived: nothing proven
      }
      if (!ctx.expect(early.response.status === 409 && codeOf(early) === 'ACTION_NOT_ALLOWED', 'feed-review-not-reviewable', `the review of preview job ${jobId}, sent as soon as it was enqueued, answered ${early.response.status} ${JSON.stringify(codeOf(early) ?? null)}, neither 200 nor 409 ACTION_NOT_ALLOWED (spec 4.4, 7)`, early)) return;
      const done = await settleJobs(client, [jobId!], { admin: ctx.admin, realMs: 10_000 });
      if (done.statuses.get(jobId!) !== 'COMPLETED') ctx.skip(`the classify preview ${jobId} ended ${done.statuses.get(jobId!) ?? 'unread'}, not COMPLETED`);
      const reviewed = await send(ctx, client, 'PUT', reviewPath, { json: { rows: applyRows } });
      ctx.expect(reviewed.response.status === 200, 'feed-review', `the review of preview job ${jobId} once it had completed answered ${reviewed.response.status}, not 200 (spec 4.4)`, reviewed);
      return;
    }
    ctx.skip('every preview job ended while its review was on its way: the in-flight state could not be caught');
  },
});
