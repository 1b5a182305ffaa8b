// The reads of a trade feed session (spec 4.4): the session detail, and offset pages of its normalized
// SKUs (with the current classify preview's proposal) and of its issues (limit 1..500, validated by the
// contract). Another tenant's session is 404.
import type { KernelDeps } from '../../kernel/deps.js';
import { notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { FeedPreviewStore } from './feed-preview.store.js';
import type { FeedRowsStore } from './feed-rows.store.js';
import type { FeedSessionStore } from './feed-session.store.js';
import { toFeedIssue, toFeedSession, toFeedSku } from './feed-session.response.js';
import { TRADE_HOOKS } from './trade.hooks.js';

const pageOf = (query: { limit?: number; offset?: number }) => ({ limit: query.limit ?? 50, offset: query.offset ?? 0 });

export function feedSessionRoutes(deps: KernelDeps, sessions: FeedSessionStore, rows: FeedRowsStore, previews: FeedPreviewStore) {
  const sessionOf = async (tenantId: string, sessionId: string) => {
    const session = await sessions.get(tenantId, sessionId);
    if (!session) throw notFound('trade feed session');
    return session;
  };
  return {
    async getTradeFeedSession({ principal, params }) {
      return { status: 200, body: toFeedSession(await sessionOf(principal.tenantId, params.sessionId)) };
    },
    async listTradeFeedSkus({ principal, params, query }) {
      const session = await sessionOf(principal.tenantId, params.sessionId);
      const page = pageOf(query);
      const found = await rows.skuPage(params.sessionId, page);
      const previewJobId = session.currentPreviewJobId;
      // One read by id per SKU of the page (the proposal of the current preview), never a scan.
      const skus = await Promise.all(found.items.map(async (r) => toFeedSku(r, previewJobId && r.providedHs === null ? await previews.getProposal(previewJobId, r.sku) : null)));
      return { status: 200, body: { skus, total: found.total, ...page, hasMore: page.offset + found.items.length < found.total } };
    },
    async listTradeFeedIssues({ principal, params, query }) {
      await sessionOf(principal.tenantId, params.sessionId);
      const page = pageOf(query);
      const found = await rows.issuePage(params.sessionId, deps.defects.at(TRADE_HOOKS.issuesPage, page));
      return { status: 200, body: { issues: found.items.map(toFeedIssue), total: found.total, ...page, hasMore: page.offset + found.items.length < found.total } };
    },
  } satisfies HandlerTable;
}
