// The finding workflow as data (spec 3.3; contract lifecycle `finding`). The spec gives the moves of
// dispute, dismiss, submit and carrier-review; the source states of credit and reject are "not shown":
// the sandbox allows both from SUBMITTED and CARRIER_REVIEW (contracts/README.md decision 17: they record
// the carrier's answer, which exists only once the finding reached the carrier). Reopen takes a terminal
// (DISMISSED, CREDITED, REJECTED) or in-flight (DISPUTED, SUBMITTED, CARRIER_REVIEW) finding back to OPEN
// (decision 18). A move the table lacks is 409 ACTION_NOT_ALLOWED, subcode invalid_transition (spec 4.5 rule 4).
import { defineMachine } from '../../kernel/machine.js';
import type { FindingWorkflowStatus } from './ship.types.js';

export type FindingAction = 'dispute' | 'dismiss' | 'submit' | 'carrier-review' | 'credit' | 'reject' | 'reopen';

export const FINDING_ACTIONS: readonly FindingAction[] = ['dispute', 'dismiss', 'submit', 'carrier-review', 'credit', 'reject', 'reopen'];

/** Actions that reach the carrier: a blocking carrier policy refuses them (spec 4.5 rule 4, carrier_blocked). */
export const CARRIER_FACING_ACTIONS: readonly FindingAction[] = ['submit', 'carrier-review'];

export const findingMachine = defineMachine<FindingWorkflowStatus, FindingAction>({
  name: 'finding',
  states: ['OPEN', 'DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW', 'CREDITED', 'REJECTED', 'DISMISSED'],
  terminal: ['DISMISSED', 'CREDITED', 'REJECTED'],
  transitions: [
    { from: ['OPEN'], action: 'dispute', to: 'DISPUTED' },
    { from: ['OPEN'], action: 'dismiss', to: 'DISMISSED' },
    { from: ['DISPUTED'], action: 'submit', to: 'SUBMITTED' },
    { from: ['SUBMITTED'], action: 'carrier-review', to: 'CARRIER_REVIEW' },
    { from: ['SUBMITTED', 'CARRIER_REVIEW'], action: 'credit', to: 'CREDITED' },
    { from: ['SUBMITTED', 'CARRIER_REVIEW'], action: 'reject', to: 'REJECTED' },
    { from: ['DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW', 'DISMISSED', 'CREDITED', 'REJECTED'], action: 'reopen', to: 'OPEN' },
  ],
});
