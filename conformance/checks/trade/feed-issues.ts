// trade.feed-issues (spec 2.5, 3.2, 4.4): a feed with rows no service can take (no SKU; a country code no
// country has) ends normalization with its issues listed, blocking and non-blocking, and then: the
// session's counts equal the issues listed; with a blocking issue it is PREVIEW_BLOCKED, not applyable,
// and refuses classify-preview and apply with 409 naming its state; issue pages walk every issue once.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { judgeFeedSession } from '../../models/feed-session.model.js';
import { codeOf, feedRows, feedTenant, readPages, send, sessionPath, settleFeed, uploadFeed } from './support.js';

export const tradeFeedIssues = defineCheck({
  id: 'trade.feed-issues',
  title: 'A feed with blocking issues lists them, counts them, stays PREVIEW_BLOCKED and refuses preview and apply',
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade feed issues');
    const uploaded = await uploadFeed(ctx, client, feedRows('blocking'));
    if (!uploaded) return;
    const settled = await settleFeed(ctx, client, uploaded);
    const last = settled.reads.at(-1);
    for (const problem of judgeFeedSession(`session ${uploaded.sessionId}`, 'UPLOADED', settled.session)) ctx.fail(problem.rule, problem.message, last);
    if (settled.status === 'FAILED') ctx.skip('normalization FAILED the feed as a whole: no issue counts to judge');

    const all = await readPages(client, `${sessionPath(uploaded.sessionId)}/issues`, 'issues');
    const blocking = all.items.filter((i) => i.isBlocking === true).length;
    ctx.expect(all.items.length === settled.session.issueCount, 'feed-issue-count', `the session says issueCount ${JSON.stringify(settled.session.issueCount)}; its issues list holds ${all.items.length}`, last);
    ctx.expect(blocking === settled.session.blockingIssueCount, 'feed-issue-count', `the session says blockingIssueCount ${JSON.stringify(settled.session.blockingIssueCount)}; ${blocking} listed issue(s) are blocking`, last);
    ctx.expect(all.total === undefined || all.total === all.items.length, 'feed-issue-pages', `the issues list says total ${all.total} but holds ${all.items.length}`, all.pages[0]);
    const small = await readPages(client, `${sessionPath(uploaded.sessionId)}/issues`, 'issues', 1);
    const keys = small.items.map((i) => i.issueKey);
    ctx.expect(new Set(keys).size === keys.length && keys.length === all.items.length, 'feed-issue-pages', `pages of one issue gave ${keys.length} issue(s), ${new Set(keys).size} distinct, of ${all.items.length}: offset must move through the list (spec 4.4)`, small.pages[1] ?? small.pages[0]);

    if (blocking === 0) ctx.skip('the service found no blocking issue in a row without a SKU or with country XX: nothing more to judge');
    ctx.expect(settled.status === 'PREVIEW_BLOCKED', 'feed-blocking-holds', `with ${blocking} blocking issue(s) the session is ${settled.status}, not PREVIEW_BLOCKED (spec 3.2)`, last);
    const preview = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/classify-preview`, { json: {} });
    ctx.expect(preview.response.status === 409 && codeOf(preview) === 'ACTION_NOT_ALLOWED', 'feed-preview-refused', `classify-preview of a session with blocking issues answered ${preview.response.status}, not 409 ACTION_NOT_ALLOWED (spec 4.4: not READY)`, preview);
    const skus = await readPages(client, `${sessionPath(uploaded.sessionId)}/skus`, 'skus');
    const rows = skus.items.slice(0, 1).map((s) => ({ sku: String(s.sku), name: String(s.productName), hsCode: String(s.providedHs ?? '6109.10') }));
    if (rows.length) {
      const apply = await send(ctx, client, 'POST', `${sessionPath(uploaded.sessionId)}/apply`, { json: { rows, originCountry: 'CN', screeningAuthority: 'CA' } });
      ctx.expect(apply.response.status === 409 && codeOf(apply) === 'ACTION_NOT_ALLOWED', 'feed-apply-refused', `apply of a session with blocking issues answered ${apply.response.status}, not 409 ACTION_NOT_ALLOWED (spec 3.2, 4.4)`, apply);
    }
  },
});
