// The claim submission lifecycle as data (spec 3.4; contract lifecycle `claim-submission`):
//   create -> DRAFT -generate-packet-> READY -submit-> SUBMITTED -acknowledge-> ACKNOWLEDGED
//   confirm-credit from SUBMITTED, ACKNOWLEDGED or FAILED: all credited -> CREDIT_CONFIRMED (terminal);
//     all failed -> FAILED (may be called again); partial -> SUBMITTED stays SUBMITTED, ACKNOWLEDGED or
//     FAILED become ACKNOWLEDGED;
//   fail: a failure at packet generation, submission or credit confirmation -> FAILED;
//   close: the operator's administrative close (control API only) from any state but CLOSED -> CLOSED,
//     which nothing leaves (never reopened).
// A move the table lacks is 409 ACTION_NOT_ALLOWED, including the repeat of a move into the state already
// reached (spec 7), and confirm-credit after CREDIT_CONFIRMED. Independent of the finding machine (spec 3.4).
import { defineMachine } from '../../kernel/machine.js';
import type { ClaimSubmissionStatus } from './ship.types.js';

export type ClaimAction = 'generate-packet' | 'submit' | 'acknowledge' | 'confirm-credit' | 'fail' | 'close';

/** What a confirm-credit request says about the findings (contracts/README.md decision 20). */
export type CreditOutcome = 'all-credited' | 'all-failed' | 'partial';

export interface ClaimContext {
  creditOutcome?: CreditOutcome;
}

/** spec 3.4 confirm-credit table. */
export function afterConfirmCredit(context: ClaimContext, current: ClaimSubmissionStatus): ClaimSubmissionStatus {
  if (context.creditOutcome === 'all-credited') return 'CREDIT_CONFIRMED';
  if (context.creditOutcome === 'all-failed') return 'FAILED';
  return current === 'SUBMITTED' ? 'SUBMITTED' : 'ACKNOWLEDGED';
}

export const claimMachine = defineMachine<ClaimSubmissionStatus, ClaimAction, ClaimContext>({
  name: 'claim submission',
  states: ['DRAFT', 'READY', 'SUBMITTED', 'ACKNOWLEDGED', 'CREDIT_CONFIRMED', 'CLOSED', 'FAILED'],
  terminal: ['CREDIT_CONFIRMED', 'CLOSED'],
  transitions: [
    { from: ['DRAFT'], action: 'generate-packet', to: 'READY' },
    { from: ['READY'], action: 'submit', to: 'SUBMITTED' },
    { from: ['SUBMITTED'], action: 'acknowledge', to: 'ACKNOWLEDGED' },
    { from: ['SUBMITTED', 'ACKNOWLEDGED', 'FAILED'], action: 'confirm-credit', to: afterConfirmCredit },
    { from: ['DRAFT', 'READY', 'SUBMITTED', 'ACKNOWLEDGED'], action: 'fail', to: 'FAILED' },
    { from: ['DRAFT', 'READY', 'SUBMITTED', 'ACKNOWLEDGED', 'CREDIT_CONFIRMED', 'FAILED'], action: 'close', to: 'CLOSED' },
  ],
});

/** spec 4.5 rule 3: a submission in these states no longer holds its findings. */
export const INACTIVE_SUBMISSION_STATES: readonly ClaimSubmissionStatus[] = ['CREDIT_CONFIRMED', 'CLOSED', 'FAILED'];
