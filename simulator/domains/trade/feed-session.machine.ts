// The trade feed session lifecycle as data (spec 3.2):
//   (upload) -> UPLOADED -normalize-> NORMALIZING -> READY | PREVIEW_BLOCKED | FAILED
//   PREVIEW_BLOCKED -acknowledge_last-> READY        (the operator acknowledged the last non-blocking issue)
//   READY -apply-> APPLIED                             (terminal; rows written to the tenant catalog)
//   PREVIEW_BLOCKED -apply-> APPLIED                   (the direct-apply shortcut: applyable, no issues)
// FAILED has no way out on the public surface (retry is not available) and APPLIED is terminal: the
// contract's x-terminal-states. Polling ends at READY, PREVIEW_BLOCKED, FAILED and APPLIED (POLL_TERMINAL).
// `resume` is the restart path: a normalization caught NORMALIZING by a crash runs again.
import { defineMachine } from '../../kernel/machine.js';
import type { FeedSessionStatus } from './trade.types.js';

export type FeedSessionAction = 'normalize' | 'resume' | 'finish_clean' | 'finish_blocked' | 'fail' | 'acknowledge_last' | 'apply' | 'classify_preview';

/** What the shortcut guard reads: the session's counts. */
export interface FeedSessionFacts {
  applyable: boolean;
  issueCount: number;
  blockingIssueCount: number;
}

export const feedSessionMachine = defineMachine<FeedSessionStatus, FeedSessionAction, FeedSessionFacts>({
  name: 'trade feed session',
  states: ['UPLOADED', 'NORMALIZING', 'READY', 'PREVIEW_BLOCKED', 'FAILED', 'APPLIED'],
  terminal: ['FAILED', 'APPLIED'],
  transitions: [
    { from: ['UPLOADED'], action: 'normalize', to: 'NORMALIZING' },
    { from: ['NORMALIZING'], action: 'resume', to: 'NORMALIZING' },
    { from: ['NORMALIZING'], action: 'finish_clean', to: 'READY' },
    { from: ['NORMALIZING'], action: 'finish_blocked', to: 'PREVIEW_BLOCKED' },
    { from: ['UPLOADED', 'NORMALIZING'], action: 'fail', to: 'FAILED' },
    { from: ['PREVIEW_BLOCKED'], action: 'acknowledge_last', to: 'READY' },
    { from: ['READY'], action: 'apply', to: 'APPLIED' },
    {
      from: ['PREVIEW_BLOCKED'],
      action: 'apply',
      to: 'APPLIED',
      guard: (s) =>
        s.applyable && s.issueCount === 0 && s.blockingIssueCount === 0
          ? undefined
          : `apply needs status READY; a PREVIEW_BLOCKED session may apply directly only with applyable true and no issues (it has ${s.issueCount}, ${s.blockingIssueCount} blocking)`,
    },
    // classify-preview does not move the session (it stays READY); the table says where it may start.
    { from: ['READY'], action: 'classify_preview', to: 'READY' },
  ],
});

/** spec 3.2: the states polling stops at. */
const POLL_TERMINAL: readonly FeedSessionStatus[] = ['READY', 'PREVIEW_BLOCKED', 'FAILED', 'APPLIED'];
