// The operator's acknowledgement of non-blocking issues (spec 1, 3.2, 5.5): a dashboard action, offered
// to the control API and to dashboard principals, never to an integration bearer. Acknowledging the last
// open non-blocking issue of a PREVIEW_BLOCKED session without blocking issues moves it to READY. A
// blocking issue cannot be acknowledged (409: fix the file and upload it again).
import type { KernelDeps } from '../../kernel/deps.js';
import type { DashboardHandlerTable } from '../../kernel/http/types.js';
import { actionNotAllowed, notFound } from '../../kernel/errors.js';
import type { FeedRowsStore } from './feed-rows.store.js';
import { feedSessionMover } from './feed-session.move.js';
import { toFeedSession } from './feed-session.response.js';
import type { FeedSessionStore } from './feed-session.store.js';
import { TRADE_HOOKS } from './trade.hooks.js';
import type { FeedIssueRecord, FeedSessionBody, FeedSessionRecord } from './trade.types.js';

/** spec 3.2: the last non-blocking issue of a PREVIEW_BLOCKED session without blocking issues is acknowledged. */
const isLastAcknowledged = (s: FeedSessionRecord) => s.status === 'PREVIEW_BLOCKED' && s.openIssueCount === 0 && s.blockingIssueCount === 0;

export function feedAcknowledge(deps: KernelDeps, sessions: FeedSessionStore, rows: FeedRowsStore) {
  const moveSession = feedSessionMover(deps, sessions);
  return async (tenantId: string, sessionId: string, issueKeys?: readonly string[]): Promise<FeedSessionBody> => {
    const session = await sessions.get(tenantId, sessionId);
    if (!session) throw notFound('trade feed session');
    if (session.status !== 'PREVIEW_BLOCKED') throw actionNotAllowed(`issues are acknowledged while the session is PREVIEW_BLOCKED; it is ${session.status}`, { currentState: session.status, action: 'acknowledge' });
    const chosen: FeedIssueRecord[] = [];
    if (issueKeys === undefined) chosen.push(...(await rows.openIssues(sessionId)));
    else {
      for (const key of new Set(issueKeys)) {
        const found = await rows.getIssue(sessionId, key);
        if (!found) throw notFound(`issue ${key} of session ${sessionId}`);
        if (found.isBlocking && deps.defects.at(TRADE_HOOKS.blockingIssueAcknowledgementRefused, true)) {
          throw actionNotAllowed(`issue ${key} is blocking and cannot be acknowledged: fix the file and upload it again`, { currentState: session.status, action: 'acknowledge', issueKey: key });
        }
        if (!found.acknowledged) chosen.push(found);
      }
    }
    const now = deps.clocks.of(tenantId).nowIso();
    let acknowledged = 0;
    for (const found of chosen) {
      // Compare-and-set per issue: an issue acknowledged twice at once counts once.
      if (await rows.updateIssue({ ...found, acknowledged: true, acknowledgedAt: now })) acknowledged += found.isBlocking ? 0 : 1;
    }
    // One compare-and-set write: the count alone, or, when this acknowledgement leaves no open issue and no
    // blocking one, the count with the move to READY (decided again by the move on the session it saves).
    const openAfter = (s: FeedSessionRecord) => Math.max(0, s.openIssueCount - acknowledged);
    let last = false;
    const counted = await sessions.modify(sessionId, (s) => {
      last = isLastAcknowledged({ ...s, openIssueCount: openAfter(s) });
      return last ? undefined : { ...s, openIssueCount: openAfter(s), updatedAt: now };
    });
    if (!last) return toFeedSession(counted!);
    return toFeedSession(await moveSession({ tenantId, sessionId, action: 'acknowledge_last', changes: (s) => ({ openIssueCount: openAfter(s), updatedAt: now }) }));
  };
}

/**
 * The dashboard routes of the acknowledgement (contracts/sandbox-dashboard.openapi.yaml): authentication has
 * already refused an integration bearer with 403 PRINCIPAL_DENIED (`x-principal-types: [dashboard]`).
 */
export function feedAcknowledgeRoutes(acknowledge: ReturnType<typeof feedAcknowledge>) {
  return {
    acknowledgeTradeFeedIssues: async ({ principal, params, body }) => ({ status: 200, body: await acknowledge(principal.tenantId, params.sessionId, body?.issueKeys) }),
    acknowledgeTradeFeedIssue: async ({ principal, params }) => ({ status: 200, body: await acknowledge(principal.tenantId, params.sessionId, [params.issueKey]) }),
  } satisfies DashboardHandlerTable;
}
