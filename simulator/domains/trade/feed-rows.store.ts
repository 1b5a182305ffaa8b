// A session's normalized SKUs (`feedSkus`) and issues (`feedIssues`): the only file that touches them. Ids
// are derived from the session and the SKU or issue key, so a normalization run again after a restart
// rewrites the same records instead of adding new ones. Pages are offset pages along the session's index.
import type { KernelDeps } from '../../kernel/deps.js';
import type { Page } from '../../kernel/store/collection.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { FeedIssueRecord, FeedSkuRecord } from './trade.types.js';

export const feedSkuId = (sessionId: string, sku: string) => `${sessionId}/${sku}`;
export const feedIssueId = (sessionId: string, issueKey: string) => `${sessionId}/${issueKey}`;

export function feedRowsStore(deps: KernelDeps) {
  const skus = deps.store.collection<FeedSkuRecord, 'sessionId' | 'rowNumber' | 'hasHs'>('feedSkus', {
    fields: { sessionId: (s) => s.sessionId, rowNumber: (s) => s.rowNumber, hasHs: (s) => s.providedHs !== null },
    // spec 4.4 SKU pages in file order; the classify preview walks the SKUs without providedHs.
    indexes: { bySession: { keys: ['sessionId'], order: [['rowNumber', 'asc']] }, byHs: { keys: ['sessionId', 'hasHs'], order: [['rowNumber', 'asc']] } },
  });
  const issues = deps.store.collection<FeedIssueRecord, 'sessionId' | 'seq' | 'isBlocking' | 'acknowledged'>('feedIssues', {
    fields: { sessionId: (i) => i.sessionId, seq: (i) => i.seq, isBlocking: (i) => i.isBlocking, acknowledged: (i) => i.acknowledged },
    indexes: { bySession: { keys: ['sessionId'], order: [['seq', 'asc']] }, open: { keys: ['sessionId', 'isBlocking', 'acknowledged'], order: [['seq', 'asc']] } },
  });
  return {
    putSku: (record: FeedSkuRecord) => skus.put(record),
    getSku: (sessionId: string, sku: string) => skus.get(feedSkuId(sessionId, sku)),
    skuPage: (sessionId: string, page: { limit: number; offset: number }): Promise<Page<FeedSkuRecord>> => skus.query({ where: { sessionId }, limit: page.limit, offset: page.offset }),
    /** SKUs without providedHs, in file order, a page after `after` (cursor of the previous page). */
    unclassifiedPage: (sessionId: string, limit: number, after: string | null) => skus.query({ where: { sessionId, hasHs: false }, limit, after }),
    putIssue: (record: FeedIssueRecord) => issues.put(record),
    getIssue: (sessionId: string, issueKey: string) => issues.get(feedIssueId(sessionId, issueKey)),
    issuePage: (sessionId: string, page: { limit: number; offset: number }): Promise<Page<FeedIssueRecord>> => issues.query({ where: { sessionId }, limit: page.limit, offset: page.offset }),
    /** Non-blocking issues not yet acknowledged, oldest first. */
    openIssues: async (sessionId: string) => (await issues.query({ where: { sessionId, isBlocking: false, acknowledged: false } })).items,
    /** Compare-and-set: null when another writer won. */
    updateIssue: (record: FeedIssueRecord) => issues.update(record),
    /** DELETE /_sim/tenants/{tenantId}: a session's SKUs and issues, by their session index. */
    purgeSession: async (sessionId: string) => (await deleteMatching(skus, { sessionId })) + (await deleteMatching(issues, { sessionId })),
  };
}

export type FeedRowsStore = ReturnType<typeof feedRowsStore>;
