// trade.session-isolated (spec 4.4, 7): a feed session, its SKUs and its issues are 404 NOT_FOUND to
// another tenant.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { codeOf, feedRows, feedTenant, sessionPath, settleFeed, uploadFeed } from './support.js';

export const tradeSessionIsolated = defineCheck({
  id: 'trade.session-isolated',
  title: "Another tenant's feed session, SKUs and issues are 404",
  area: 'trade',
  needs: ['writes', 'secondTenant'],
  async run(ctx: CheckContext) {
    const { client, fresh } = await feedTenant(ctx, 'Conformance trade isolation');
    const uploaded = await uploadFeed(ctx, client, feedRows('direct'));
    if (!uploaded) return;
    await settleFeed(ctx, client, uploaded);
    // The second tenant of the run, or (fresh first tenant) the primary one: either way another tenant.
    const other = fresh ? ctx.client : ctx.second!;
    for (const path of [sessionPath(uploaded.sessionId), `${sessionPath(uploaded.sessionId)}/skus`, `${sessionPath(uploaded.sessionId)}/issues`]) {
      const exchange = await other.call('GET', path);
      ctx.expect(exchange.response.status === 404 && codeOf(exchange) === 'NOT_FOUND', 'tenant-isolation', `another tenant's GET ${path} answered ${exchange.response.status}, not 404 NOT_FOUND (spec 7)`, exchange);
    }
  },
});
