// What normalization makes of a feed (spec 2.5, 3.2, 4.4), judged from what the server itself lists:
//   trade.normalization-end-state: the state a session reaches when normalization ends follows from its
//     issues (spec 3.2): "completed with no blocking issues" is READY and "surfaced issues needing operator
//     acknowledgement" is PREVIEW_BLOCKED (every issue needs one: the operator acknowledges "the last
//     non-blocking issue", and blocking ones need a new file), so straight from normalization READY has
//     no issue listed, and PREVIEW_BLOCKED has one, or is the direct-apply shortcut (applyable, issueCount 0,
//     blockingIssueCount 0); FAILED gives its "reason in session detail and issues". Three feeds: one
//     with a product name worth an operator's look, one clean, one without a SKU column (a 400 "bad shape"
//     at upload is as good as a FAILED session). Which issues a deployment raises is its own.
//   trade.row-overrides-defaults: the upload's originCountry and defaultDestinationCountry are "feed-level
//     defaults for rows that omit their own; rows may override by column" (spec 4.4): a normalized SKU
//     keeps its row's own country and takes the default where the row has none. SKU fields beyond
//     providedHs and productName are not shown (2.5): the countries are read under the upload's own field
//     names where a SKU item shows them (the contract's FeedSku, required in the simulator profile).
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import { RUN_NONCE } from '../jobs-support.js';
import { UPLOAD_PATH, feedCsv, feedForm, feedRows, feedTenant, readPages, send, sessionPath, settleFeed, uploadFeed, type FeedRow } from './support.js';

const SESSION_FIELDS = new Set(['sessionId', 'status', 'fileName', 'applyable', 'issueCount', 'blockingIssueCount', 'jobId', 'originCountry', 'defaultDestinationCountry', 'createdAt', 'updatedAt']);
/** The failure reason of a FAILED session (spec 2.5: "exposed on session detail", its name not shown): a non-empty string under a name that says so. */
const failureReasonOf = (session: Record<string, unknown>) =>
  Object.entries(session).find(([key, value]) => !SESSION_FIELDS.has(key) && /reason|error|fail/i.test(key) && typeof value === 'string' && value.trim() !== '');

/** Uploads a feed, waits for normalization to end, and judges the end state against the issues listed. */
async function judgeEndState(ctx: CheckContext, client: ConformanceClient, label: string, uploaded: { sessionId: string; jobId: string } | undefined) {
  if (!uploaded) return;
  const settled = await settleFeed(ctx, client, uploaded);
  const last = settled.reads.at(-1);
  const where = `the ${label} feed (session ${uploaded.sessionId})`;
  if (!settled.status || !['READY', 'PREVIEW_BLOCKED', 'FAILED'].includes(settled.status)) {
    ctx.fail('feed-normalization-ends', `${where} is ${JSON.stringify(settled.status ?? null)} after polling, not one of the states normalization ends in (READY, PREVIEW_BLOCKED, FAILED; spec 3.2)`, last);
    return;
  }
  const issues = await readPages(client, `${sessionPath(uploaded.sessionId)}/issues`, 'issues');
  const listed = issues.items.length;
  const s = settled.session;
  if (settled.status === 'READY') {
    ctx.expect(listed === 0 && !s.issueCount && !s.blockingIssueCount, 'feed-ready-with-issues', `${where} ended normalization READY with ${listed} issue(s) listed (issueCount ${JSON.stringify(s.issueCount)}, blockingIssueCount ${JSON.stringify(s.blockingIssueCount)}): issues that surface need operator acknowledgement (non-blocking) or a new file (blocking), so the session is PREVIEW_BLOCKED (spec 3.2)`, last);
  } else if (settled.status === 'PREVIEW_BLOCKED') {
    const shortcut = s.applyable === true && s.issueCount === 0 && s.blockingIssueCount === 0;
    ctx.expect(listed > 0 || shortcut, 'feed-blocked-without-issues', `${where} ended normalization PREVIEW_BLOCKED with no issue listed and applyable ${JSON.stringify(s.applyable)}, issueCount ${JSON.stringify(s.issueCount)}, blockingIssueCount ${JSON.stringify(s.blockingIssueCount)}: PREVIEW_BLOCKED is for issues needing acknowledgement, or the direct-apply shortcut (applyable, no issue); completed with no blocking issues is READY (spec 3.2)`, last);
  } else {
    ctx.expect(listed > 0, 'feed-failed-reason', `${where} ended FAILED with no issue listed: the reason is "in session detail and issues" (spec 3.2)`, issues.pages[0] ?? last);
    ctx.expect(failureReasonOf(s) !== undefined, 'feed-failed-reason', `${where} ended FAILED and its detail shows no failure reason (fields ${Object.keys(s).join(', ')}): the reason is in session detail (spec 2.5, 3.2)`, last);
  }
}

export const tradeNormalizationEndState = defineCheck({
  id: 'trade.normalization-end-state',
  title: 'Normalization ends READY with no issue, PREVIEW_BLOCKED with issues (or as the direct-apply shortcut), FAILED with its reason',
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade normalization end state');
    await judgeEndState(ctx, client, 'non-blocking', await uploadFeed(ctx, client, feedRows('nonBlocking')));
    await judgeEndState(ctx, client, 'clean', await uploadFeed(ctx, client, feedRows('clean')));

    // No SKU column: refused at upload (400, "bad shape"), or taken and then failed or blocked by normalization.
    const csv = `productName,hsCode\n"Two-seat sofa, wood frame, upholstered",9401.61.10\n"Men's crew-neck T-shirt ${RUN_NONCE}",6109.10.00\n`;
    const accepted = await send(ctx, client, 'POST', UPLOAD_PATH, { form: () => feedForm(csv, undefined, `conformance-feed-nosku-${RUN_NONCE}.csv`) });
    if (accepted.response.status === 400) return;
    const body = accepted.response.body as { sessionId?: unknown; jobId?: unknown } | null;
    if (!ctx.expect(accepted.response.status === 202 && typeof body?.sessionId === 'string' && typeof body.jobId === 'string', 'feed-upload-accepted', `a feed without a SKU column answered ${accepted.response.status}, neither 400 (bad shape) nor 202 with sessionId and jobId (spec 4.4)`, accepted)) return;
    await judgeEndState(ctx, client, 'SKU-less', { sessionId: String(body!.sessionId), jobId: String(body!.jobId) });
  },
});

export const tradeRowOverridesDefaults = defineCheck({
  id: 'trade.row-overrides-defaults',
  title: "A normalized SKU keeps its row's own countries and takes the feed-level defaults where the row has none",
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade row overrides');
    const defaults = { originCountry: 'CN', defaultDestinationCountry: 'CA' };
    const [tee, sofa] = feedRows('direct');
    const rows: FeedRow[] = [
      { ...tee, originCountry: 'CN', destinationCountry: 'US' },
      { ...sofa, originCountry: 'VN', destinationCountry: 'CA' },
      { ...tee, sku: `${tee.sku}-D`, originCountry: '', destinationCountry: '' },
    ];
    const expected = new Map(rows.map((r) => [r.sku, { originCountry: r.originCountry || defaults.originCountry, destinationCountry: r.destinationCountry || defaults.defaultDestinationCountry }]));
    const csv = feedCsv(rows);
    const accepted = await send(ctx, client, 'POST', UPLOAD_PATH, { form: () => feedForm(csv, defaults) });
    const body = accepted.response.body as { sessionId?: unknown; jobId?: unknown } | null;
    if (!ctx.expect(accepted.response.status === 202 && typeof body?.sessionId === 'string' && typeof body.jobId === 'string', 'feed-upload-accepted', `POST ${UPLOAD_PATH} answered ${accepted.response.status}, not 202 with sessionId and jobId (spec 4.4)`, accepted)) return;
    const uploaded = { sessionId: String(body!.sessionId), jobId: String(body!.jobId) };
    const settled = await settleFeed(ctx, client, uploaded);
    if (settled.status === 'FAILED' || !settled.status) ctx.skip(`the feed ended ${settled.status ?? 'unread'}: no SKUs to read`);
    const skus = await readPages(client, `${sessionPath(uploaded.sessionId)}/skus`, 'skus');
    const page = skus.pages.at(-1);
    let judged = 0;
    for (const [sku, want] of expected) {
      const item = skus.items.find((s) => s.sku === sku);
      if (!item) {
        ctx.fail('feed-sku-listed', `SKU ${sku}, a well-formed row of the feed, is missing from the session's SKUs (spec 4.4)`, page);
        continue;
      }
      for (const field of ['originCountry', 'destinationCountry'] as const) {
        if (typeof item[field] !== 'string') {
          if (ctx.options.profile === 'simulator') ctx.fail('feed-row-countries', `SKU ${sku} shows ${field} ${JSON.stringify(item[field])}; the contract's feed SKU carries it`, page);
          continue;
        }
        judged += 1;
        const row = rows.find((r) => r.sku === sku)!;
        const own = row[field] ? `its row's own ${field} ${row[field]}` : `the feed-level default ${want[field]} (its row has no ${field})`;
        ctx.expect(String(item[field]).toUpperCase() === want[field], 'feed-row-countries', `SKU ${sku} shows ${field} ${JSON.stringify(item[field])}, not ${own}: the upload's countries are defaults for rows that omit their own, and rows override them by column (spec 4.4)`, page);
      }
    }
    if (!judged && ctx.options.profile !== 'simulator') ctx.skip('the SKU items show no originCountry or destinationCountry (spec 2.5: SKU fields beyond providedHs and productName are not shown)');
  },
});
