// trade.stale-snapshot (spec 4.4, 7): the review pins the snapshot apply checks for staleness. A snapshot
// reviewed from one classify preview is stale once a newer preview of the session has ended: apply is 409
// ACTION_NOT_ALLOWED; reviewing the newer preview makes apply possible again.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { receiptJobId, settleJobs } from '../jobs-support.js';
import { codeOf, feedRows, feedTenant, send, sessionPath, settleFeed, uploadFeed } from './support.js';

export const tradeStaleSnapshot = defineCheck({
  id: 'trade.stale-snapshot',
  title: 'Apply refuses a reviewed snapshot made from an older classify preview (409), and takes a current one',
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade stale snapshot');
    const rows = feedRows('clean');
    const uploaded = await uploadFeed(ctx, client, rows);
    if (!uploaded) return;
    const settled = await settleFeed(ctx, client, uploaded);
    if (settled.status !== 'READY') ctx.skip(`a feed with one SKU to classify ended ${settled.status ?? 'unread'}, not READY: classify-preview is not available`);
    const preview = async () => {
      const started = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/classify-preview`, { json: {} });
      const jobId = receiptJobId(started);
      if (!ctx.expect(jobId !== undefined, 'feed-preview-accepted', `classify-preview of a READY session answered ${started.response.status}, not 202 with a jobId (spec 4.4)`, started)) return undefined;
      const previewJobId = (started.response.body as { previewJobId?: unknown }).previewJobId;
      const done = await settleJobs(client, [jobId!], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 90_000 });
      if (done.statuses.get(jobId!) !== 'COMPLETED') ctx.skip(`the classify preview ${jobId} ended ${done.statuses.get(jobId!) ?? 'unread'}`);
      return typeof previewJobId === 'string' ? previewJobId : jobId!;
    };
    const applyRows = rows.map((r) => ({ sku: r.sku, name: r.productName, hsCode: r.hsCode || '9401.61.10' }));
    const review = (previewJobId: string) => send(ctx, client, 'PUT', `/api/trade/classify/preview/${previewJobId}/review`, { json: { rows: applyRows } });
    const apply = () => send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/apply`, { json: { rows: applyRows, originCountry: 'CN', screeningAuthority: 'CA' } });

    const first = await preview();
    if (!first) return;
    const reviewed = await review(first);
    if (!ctx.expect(reviewed.response.status === 200, 'feed-review', `the review of a completed preview answered ${reviewed.response.status}, not 200 (spec 4.4)`, reviewed)) return;
    const second = await preview();
    if (!second) return;
    const stale = await apply();
    ctx.expect(stale.response.status === 409 && codeOf(stale) === 'ACTION_NOT_ALLOWED', 'feed-stale-snapshot', `apply with a snapshot reviewed from preview ${first}, after preview ${second} ended, answered ${stale.response.status}, not 409 ACTION_NOT_ALLOWED (spec 4.4: stale reviewed snapshot)`, stale);
    if (stale.response.status !== 409) return;
    await review(second);
    const current = await apply();
    ctx.expect(current.response.status === 200, 'feed-current-snapshot', `apply after reviewing the newest preview answered ${current.response.status}, not 200 (spec 4.4)`, current);
  },
});
