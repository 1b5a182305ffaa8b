// trade.journey-b (spec 1 workflow B, 3.2, 4.4, direct-apply shortcut): upload a feed whose SKUs carry
// their HS codes, poll until normalization ends, read the SKUs (each with the file's HS code as
// providedHs), map them to apply rows and apply: APPLIED. The applied rows are then the catalog SIMA
// screens: a batch of those SKUs (spec 4.2) screens each with the applied HS code (`currentHs`, spec 2.4).
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { judgeFeedSession } from '../../models/feed-session.model.js';
import { enqueueHonouringLimits, receiptJobId, settleJobs } from '../jobs-support.js';
import { codeOf, digitsOf, directRows, feedRows, feedTenant, readPages, send, sessionPath, settleFeed, uploadFeed } from './support.js';

export const tradeJourneyB = defineCheck({
  id: 'trade.journey-b',
  title: 'Workflow B: upload, normalize, direct apply; the applied rows are screened with their HS codes',
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade journey B');
    const rows = feedRows('direct');
    const uploaded = await uploadFeed(ctx, client, rows);
    if (!uploaded) return;
    const settled = await settleFeed(ctx, client, uploaded);
    for (const problem of judgeFeedSession(`session ${uploaded.sessionId}`, 'UPLOADED', settled.session)) ctx.fail(problem.rule, problem.message, settled.reads.at(-1));
    if (!ctx.expect(settled.status === 'READY' || (settled.status === 'PREVIEW_BLOCKED' && settled.session.applyable === true), 'feed-direct-applyable', `a feed of ${rows.length} well-formed SKUs with HS codes ended ${settled.status ?? 'unread'} (applyable ${JSON.stringify(settled.session.applyable)}), not READY or the direct-apply shortcut (spec 3.2)`, settled.reads.at(-1))) return;

    const skus = await readPages(client, `${sessionPath(uploaded.sessionId)}/skus`, 'skus');
    for (const row of rows) {
      const sku = skus.items.find((s) => s.sku === row.sku);
      if (!sku) ctx.fail('feed-skus-complete', `SKU ${row.sku} of the file is not among the session's ${skus.items.length} SKU(s)`, skus.pages[0]);
      else if (digitsOf(sku.providedHs) !== digitsOf(row.hsCode)) ctx.fail('feed-provided-hs', `SKU ${row.sku} has providedHs ${JSON.stringify(sku.providedHs)}; the file gives ${row.hsCode} (spec 2.5)`, skus.pages[0]);
    }
    const applyRows = directRows(skus.items);
    if (!ctx.expect(applyRows.length === rows.length, 'feed-direct-rows', `${applyRows.length} of ${rows.length} SKUs carry providedHs: the direct-apply shortcut needs them (spec 4.4)`, skus.pages[0])) return;

    const applied = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/apply`, { json: { rows: applyRows, originCountry: 'CN', screeningAuthority: 'CA' } });
    const body = (applied.response.body ?? {}) as Record<string, unknown>;
    if (!ctx.expect(applied.response.status === 200 && body.status === 'APPLIED', 'feed-apply', `apply answered ${applied.response.status} with status ${JSON.stringify(body.status)}, not 200 APPLIED (spec 4.4)`, applied)) return;
    const again = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/apply`, { json: { rows: applyRows, originCountry: 'CN', screeningAuthority: 'CA' } });
    ctx.expect(again.response.status === 409 && codeOf(again) === 'ACTION_NOT_ALLOWED', 'feed-apply-once', `a second apply of the APPLIED session answered ${again.response.status}, not 409 ACTION_NOT_ALLOWED (spec 3.2: APPLIED is terminal)`, again);

    // Workflow A on the applied rows.
    const enqueued = await enqueueHonouringLimits(client, { skus: rows.map((r) => r.sku), runPolicy: 'always', screeningAuthority: 'CA' }, { admin: ctx.admin });
    const jobId = receiptJobId(enqueued);
    if (!ctx.expect(jobId !== undefined, 'screening-accepted', `POST /api/sima/batch answered ${enqueued.response.status}`, enqueued)) return;
    const settledJob = await settleJobs(client, [jobId!], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 90_000 });
    if (settledJob.statuses.get(jobId!) !== 'COMPLETED') ctx.skip(`the screening of the applied SKUs ended ${settledJob.statuses.get(jobId!) ?? 'unread'}: nothing to compare`);
    const results = await client.call('GET', '/api/sima/results?limit=1000');
    const outcomes = ((results.response.body as { outcomes?: unknown } | null)?.outcomes ?? []) as Array<Record<string, unknown>>;
    for (const row of rows) {
      const result = outcomes.find((r) => r.sku === row.sku);
      if (!result) ctx.fail('applied-rows-screened', `SKU ${row.sku}, applied and then screened, has no SIMA result (spec 4.2)`, results);
      else if (digitsOf(result.currentHs) !== digitsOf(row.hsCode)) ctx.fail('applied-rows-screened', `SKU ${row.sku} was screened with HS ${JSON.stringify(result.currentHs)}, not the applied ${row.hsCode}`, results);
    }
  },
});
