// The trade feed session lifecycle of spec 3.2 as data, and what an observed session must keep (spec 2.5,
// 3.2), written from the spec alone. States and terminal states come from the contract (`x-lifecycle:
// feed-session`); the transitions are the spec's table, which the contract does not describe.
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { defineTable, isState, reachable } from './machine-table.js';

export type FeedSessionStatus = 'UPLOADED' | 'NORMALIZING' | 'READY' | 'PREVIEW_BLOCKED' | 'FAILED' | 'APPLIED';

const declared = contractLifecycle(loadContract('v1.3.0'), 'feed-session');

/** spec 3.2. */
const feedSessionLifecycle = defineTable<FeedSessionStatus>({
  name: 'trade feed session',
  source: 'spec 3.2',
  states: declared.states as FeedSessionStatus[],
  terminal: declared.terminal as FeedSessionStatus[],
  transitions: [
    { from: null, by: 'POST upload (accepted, 202; session and normalization job created synchronously)', to: 'UPLOADED' },
    { from: 'UPLOADED', by: 'worker: normalization starts', to: 'NORMALIZING' },
    { from: 'NORMALIZING', by: 'worker: completed with no blocking issues', to: 'READY' },
    { from: 'NORMALIZING', by: 'worker: issues needing operator acknowledgement', to: 'PREVIEW_BLOCKED' },
    { from: 'NORMALIZING', by: 'worker: normalization errored', to: 'FAILED' },
    { from: 'PREVIEW_BLOCKED', by: 'operator acknowledges the last non-blocking issue (dashboard only)', to: 'READY' },
    { from: 'READY', by: 'POST apply (reviewed snapshot current)', to: 'APPLIED' },
    { from: 'PREVIEW_BLOCKED', by: 'POST apply: the direct-apply shortcut (applyable, issueCount 0, blockingIssueCount 0)', to: 'APPLIED' },
  ],
});

/** spec 3.2: where polling stops. */
export const POLL_TERMINAL: readonly FeedSessionStatus[] = ['READY', 'PREVIEW_BLOCKED', 'FAILED', 'APPLIED'];

export const isFeedStatus = (value: unknown): value is FeedSessionStatus => isState(feedSessionLifecycle, value);

export interface FeedProblem {
  rule: string;
  message: string;
}

/**
 * The problems of one observation of a session (its detail) given the status known before: the status is
 * a spec state reachable through the table; counts are non-negative and issueCount covers the blocking
 * ones; a session with a blocking issue is neither READY nor applyable (spec 3.2: it "stays
 * PREVIEW_BLOCKED"); a PREVIEW_BLOCKED session with issues is not applyable (only the shortcut is); a
 * FAILED or APPLIED session is not applyable. (Spec 2.5 says the failure reason is on the session detail
 * but names no field for it, so it is not judged.)
 */
export function judgeFeedSession(label: string, known: FeedSessionStatus | null, observed: Record<string, unknown>): FeedProblem[] {
  const problems: FeedProblem[] = [];
  const status = observed.status;
  if (!isFeedStatus(status)) return [{ rule: 'feed-status-known', message: `${label} has status ${JSON.stringify(status)}, not a state of spec 3.2` }];
  if (!reachable(feedSessionLifecycle, known, status)) problems.push({ rule: 'feed-transition', message: `${label} moved from ${known ?? '(none)'} to ${status}: no path of spec 3.2 leads there` });
  const issues = observed.issueCount;
  const blocking = observed.blockingIssueCount;
  if (typeof issues !== 'number' || typeof blocking !== 'number' || issues < 0 || blocking < 0 || blocking > issues) {
    problems.push({ rule: 'feed-counts', message: `${label} has issueCount ${JSON.stringify(issues)} and blockingIssueCount ${JSON.stringify(blocking)}: counts of issues, the blocking ones among them (spec 2.5)` });
  }
  const applyable = observed.applyable;
  if (typeof blocking === 'number' && blocking > 0) {
    if (status === 'READY') problems.push({ rule: 'feed-blocking-holds', message: `${label} is READY with ${blocking} blocking issue(s): a session with an unresolved blocking issue stays PREVIEW_BLOCKED (spec 3.2)` });
    if (applyable === true) problems.push({ rule: 'feed-applyable', message: `${label} says applyable: true with ${blocking} blocking issue(s) (spec 3.2)` });
  }
  if (status === 'PREVIEW_BLOCKED' && applyable === true && (issues !== 0 || blocking !== 0)) {
    problems.push({ rule: 'feed-applyable', message: `${label} is PREVIEW_BLOCKED and applyable with ${JSON.stringify(issues)} issue(s): only the direct-apply shortcut (issueCount 0, blockingIssueCount 0) is applyable there (spec 3.2)` });
  }
  if ((status === 'FAILED' || status === 'APPLIED') && applyable === true) problems.push({ rule: 'feed-applyable', message: `${label} is ${status} and says applyable: true` });
  return problems;
}
