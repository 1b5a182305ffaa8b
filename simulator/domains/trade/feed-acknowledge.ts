// The operator's acknowledgement of non-blocking issues (spec 1, 3.2, 5.5): a dashboard action, offered
// to the control API and to dashboard principals, never to an integration bearer. Acknowledging the last
// open non-blocking issue of a PREVIEW_BLOCKED session without blocking issues moves it to READY. A
// blocking issue cannot be acknowledged (409: fix the file and upload it again).
import type { KernelDeps } from '../../kernel/deps.js';
import type { DashboardHandlerTable } from '../../kernel/http/types.js';
import { actionNotAllowed, notFound } from '../../kernel/errors.js';
import { transition } from '../../kernel/machine.js';
import type { FeedRowsStore } from './feed-rows.store.js';
import { factsOf, toFeedSession } from './feed-session.response.js';
import { feedSessionMachine } from './feed-session.machine.js';
import type { FeedSessionStore } from './feed-session.store.js';
import type { FeedIssueRecord, FeedSessionBody } from './trade.types.js';

export function feedAcknowledge(deps: KernelDeps, sessions: FeedSessionStore, rows: FeedRowsStore) {
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
        // defect injection (SIM_DEFECTS): trade.blocking-acknowledged lets a blocking issue be acknowledged
        if (found.isBlocking && !deps.defects.has('trade.blocking-acknowledged')) {
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
    const after = await sessions.modify(sessionId, (s) => {
      const openIssueCount = Math.max(0, s.openIssueCount - acknowledged);
      const last = s.status === 'PREVIEW_BLOCKED' && openIssueCount === 0 && s.blockingIssueCount === 0;
      const status = last ? transition(feedSessionMachine, s.status, 'acknowledge_last', factsOf(s), { sessionId }) : s.status;
      return { ...s, openIssueCount, status, updatedAt: now };
    });
    return toFeedSession(after!);
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
