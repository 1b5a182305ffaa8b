// trade.acknowledgement (spec 1, 3.2, 5.5; simulator profile: acknowledgement is a dashboard action the
// sandbox's control API offers): acknowledging the last non-blocking issue of a PREVIEW_BLOCKED session
// without blocking issues makes it READY; a blocking issue cannot be acknowledged (409) and its session
// stays PREVIEW_BLOCKED.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { codeOf, feedRows, feedTenant, readPages, sessionPath, settleFeed, uploadFeed } from './support.js';

export const tradeAcknowledgement = defineCheck({
  id: 'trade.acknowledgement',
  title: 'Acknowledging the last non-blocking issue makes the session READY; a blocking issue cannot be acknowledged',
  area: 'trade',
  needs: ['writes', 'admin'],
  async run(ctx: CheckContext) {
    const admin = ctx.admin!;
    const { client, tenantId } = await feedTenant(ctx, 'Conformance trade acknowledgement');
    const soft = await uploadFeed(ctx, client, feedRows('nonBlocking'));
    const hard = await uploadFeed(ctx, client, feedRows('blocking'));
    if (!soft || !hard) return;
    const settledSoft = await settleFeed(ctx, client, soft);
    if (settledSoft.status === 'PREVIEW_BLOCKED' && settledSoft.session.blockingIssueCount === 0 && Number(settledSoft.session.issueCount) > 0) {
      const acked = await admin.acknowledgeFeedIssues(tenantId!, soft.sessionId);
      ctx.expect(acked.response.status === 200, 'feed-acknowledge', `acknowledging the open non-blocking issues answered ${acked.response.status}, not 200`, acked);
      const after = await client.call('GET', sessionPath(soft.sessionId));
      const body = (after.response.body ?? {}) as Record<string, unknown>;
      ctx.expect(body.status === 'READY' && body.applyable === true, 'feed-acknowledge-ready', `after the last non-blocking issue was acknowledged the session is ${JSON.stringify(body.status)} (applyable ${JSON.stringify(body.applyable)}), not READY (spec 3.2)`, after);
    }
    const settledHard = await settleFeed(ctx, client, hard);
    const issues = await readPages(client, `${sessionPath(hard.sessionId)}/issues`, 'issues');
    const blocking = issues.items.find((i) => i.isBlocking === true);
    if (!blocking) ctx.skip(`the blocking feed ended ${settledHard.status ?? 'unread'} without a blocking issue listed`);
    const refused = await admin.acknowledgeFeedIssues(tenantId!, hard.sessionId, [String(blocking!.issueKey)]);
    ctx.expect(refused.response.status === 409 && codeOf(refused) === 'ACTION_NOT_ALLOWED', 'feed-blocking-not-acknowledged', `acknowledging blocking issue ${String(blocking!.issueKey)} answered ${refused.response.status}, not 409 ACTION_NOT_ALLOWED (spec 3.2: blocking issues cannot be acknowledged)`, refused);
    await admin.acknowledgeFeedIssues(tenantId!, hard.sessionId);
    const after = await client.call('GET', sessionPath(hard.sessionId));
    const status = (after.response.body as { status?: unknown } | null)?.status;
    ctx.expect(status === 'PREVIEW_BLOCKED', 'feed-blocking-holds', `with a blocking issue left the session is ${JSON.stringify(status)} after the non-blocking ones were acknowledged, not PREVIEW_BLOCKED (spec 3.2)`, after);
  },
});
