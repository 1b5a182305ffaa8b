// The claim submission lifecycle of spec 3.4 as data, for the model: every move with its source states and,
// for confirm-credit, the next state per outcome (all credited, all failed, partial).
import { defineTable } from '../../models/machine-table.js';

export type SubmissionState = 'DRAFT' | 'READY' | 'SUBMITTED' | 'ACKNOWLEDGED' | 'CREDIT_CONFIRMED' | 'CLOSED' | 'FAILED';
export type CreditOutcome = 'all' | 'none' | 'partial';

export const submissionTable = defineTable<SubmissionState>({
  name: 'claim submission',
  source: 'spec 3.4',
  states: ['DRAFT', 'READY', 'SUBMITTED', 'ACKNOWLEDGED', 'CREDIT_CONFIRMED', 'CLOSED', 'FAILED'],
  terminal: ['CREDIT_CONFIRMED', 'CLOSED'],
  transitions: [
    { from: null, by: 'POST create', to: 'DRAFT' },
    { from: 'DRAFT', by: 'generate-packet', to: 'READY' },
    { from: 'READY', by: 'submit', to: 'SUBMITTED' },
    { from: 'SUBMITTED', by: 'acknowledge', to: 'ACKNOWLEDGED' },
    ...(['SUBMITTED', 'ACKNOWLEDGED', 'FAILED'] as const).flatMap((from) => [
      { from, by: 'confirm-credit: all findings credited', to: 'CREDIT_CONFIRMED' as const },
      { from, by: 'confirm-credit: all findings failed', to: 'FAILED' as const },
    ]),
    { from: 'SUBMITTED', by: 'confirm-credit: partial results', to: 'SUBMITTED' },
    { from: 'ACKNOWLEDGED', by: 'confirm-credit: partial results', to: 'ACKNOWLEDGED' },
    { from: 'FAILED', by: 'confirm-credit: partial results', to: 'ACKNOWLEDGED' },
  ],
});

const OUTCOME_WORDS: Record<CreditOutcome, string> = { all: 'all findings credited', none: 'all findings failed', partial: 'partial results' };

/** The state a move leads to from `from`, or null when the spec gives no such move (409). */
export function nextState(from: SubmissionState, step: string, outcome?: CreditOutcome): SubmissionState | null {
  const by = step === 'confirm-credit' ? `confirm-credit: ${OUTCOME_WORDS[outcome!]}` : step;
  return submissionTable.transitions.find((t) => t.from === from && t.by === by)?.to ?? null;
}

/** spec 2.7: the timestamp each state sets when a move reaches it. */
export const STAMP: Partial<Record<SubmissionState, string>> = { SUBMITTED: 'submittedAt', ACKNOWLEDGED: 'acknowledgedAt', CREDIT_CONFIRMED: 'creditConfirmedAt', FAILED: 'failedAt' };
