// The claim submission lifecycle of spec 3.4 as data, and what an observed submission must keep (spec 2.7),
// written from the spec alone. States and terminal states are the contract's (`x-lifecycle:
// claim-submission`); the moves are the spec's table, with the next state of confirm-credit per outcome
// (all credited, all failed, partial). The operator close has no public operation (spec 3.4); the
// simulator's control API stands for it.
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { defineTable } from './machine-table.js';

export type SubmissionState = 'DRAFT' | 'READY' | 'SUBMITTED' | 'ACKNOWLEDGED' | 'CREDIT_CONFIRMED' | 'CLOSED' | 'FAILED';
export type CreditOutcome = 'all' | 'none' | 'partial';

const declared = contractLifecycle(loadContract('v1.3.0'), 'claim-submission');
const states = declared.states as SubmissionState[];

/** spec 3.4. */
export const submissionTable = defineTable<SubmissionState>({
  name: 'claim submission',
  source: 'spec 3.4',
  states,
  terminal: declared.terminal as SubmissionState[],
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
    // "(any) operator close -> CLOSED; terminal; never reopened": from every state but CLOSED itself.
    ...states.filter((from) => from !== 'CLOSED').map((from) => ({ from, by: 'operator close', to: 'CLOSED' as const })),
  ],
});

const OUTCOME_WORDS: Record<CreditOutcome, string> = { all: 'all findings credited', none: 'all findings failed', partial: 'partial results' };

/** The state a move leads to from `from`, or null when the spec gives no such move (409 ACTION_NOT_ALLOWED). */
export function nextState(from: SubmissionState, step: string, outcome?: CreditOutcome): SubmissionState | null {
  const by = step === 'confirm-credit' ? `confirm-credit: ${OUTCOME_WORDS[outcome!]}` : step;
  return submissionTable.transitions.find((t) => t.from === from && t.by === by)?.to ?? null;
}

/** spec 2.7: the timestamp each state sets when a move reaches it. */
export const STAMP: Partial<Record<SubmissionState, string>> = { SUBMITTED: 'submittedAt', ACKNOWLEDGED: 'acknowledgedAt', CREDIT_CONFIRMED: 'creditConfirmedAt', FAILED: 'failedAt' };

/** What the model learnt of the submission's record from earlier answers. */
export interface KnownRecord {
  /** The packetUrl seen once READY (spec 2.7: "set once READY"). */
  packetUrl?: string;
  /** submittedAt as first set (the READY -> SUBMITTED row, which the table makes at most once). */
  submittedAt?: string;
  /** Every status the submission was seen in. */
  reached?: string[];
}

export interface SubmissionProblem {
  rule: string;
  message: string;
}

const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : NaN);

/**
 * The problems of one observed submission record given what was known: packetUrl stays set once the
 * submission was READY (spec 2.7); no stamp is set before the submission reached its state (spec 2.7); submittedAt, set on READY -> SUBMITTED, which no path repeats, keeps its
 * value; and the stamps are ordered as the moves setting them are: createdAt <= updatedAt, every
 * submittedAt, acknowledgedAt and failedAt not before createdAt, acknowledgedAt not before submittedAt
 * (both set: the submission was submitted before any acknowledgement, as READY is never reached again).
 * creditConfirmedAt is not compared: the spec does not say whether it is the server's time or the
 * confirmation's `confirmedAt`.
 */
export function judgeSubmissionRecord(known: KnownRecord, record: Record<string, unknown>): SubmissionProblem[] {
  const problems: SubmissionProblem[] = [];
  if (known.packetUrl !== undefined && typeof record.packetUrl !== 'string') {
    problems.push({ rule: 'packet-url-kept', message: `the submission is ${String(record.status)} with packetUrl ${JSON.stringify(record.packetUrl)}, after it was READY with ${known.packetUrl} (spec 2.7: set once READY)` });
  }
  if (known.submittedAt !== undefined && time(record.submittedAt) !== time(known.submittedAt)) {
    problems.push({ rule: 'stamp-kept', message: `submittedAt changed from ${known.submittedAt} to ${JSON.stringify(record.submittedAt)} while the submission went to ${String(record.status)} (spec 2.7: set on READY -> SUBMITTED, a move no path repeats)` });
  }
  // spec 2.7: each stamp is "set on the matching transition": never before the submission reached its state.
  // Judged when the submission was followed from its creation (its statuses known).
  const reached = new Set([...(known.reached ?? []), String(record.status)]);
  for (const [state, stamp] of known.reached ? Object.entries(STAMP) : []) {
    if (!reached.has(state) && record[stamp] != null) {
      problems.push({ rule: 'stamp-before-transition', message: `the submission is ${String(record.status)} and was never ${state}, yet ${stamp} is ${JSON.stringify(record[stamp])} (spec 2.7: set on the matching transition)` });
    }
  }
  const created = time(record.createdAt);
  const order: Array<[string, number, string, number]> = [['updatedAt', time(record.updatedAt), 'createdAt', created]];
  for (const stamp of ['submittedAt', 'acknowledgedAt', 'failedAt']) order.push([stamp, time(record[stamp]), 'createdAt', created]);
  order.push(['acknowledgedAt', time(record.acknowledgedAt), 'submittedAt', time(record.submittedAt)]);
  for (const [later, at, earlier, before] of order) {
    if (!Number.isNaN(at) && !Number.isNaN(before) && at < before) {
      problems.push({ rule: 'stamps-ordered', message: `${later} ${String(record[later])} is before ${earlier} ${String(record[earlier])} (spec 2.7, 3.4: each is set on its transition, which comes later)` });
    }
  }
  return problems;
}

/** What is known after an observation that passed. */
export function learnRecord(known: KnownRecord, record: Record<string, unknown>): KnownRecord {
  return {
    packetUrl: typeof record.packetUrl === 'string' && (record.status === 'READY' || known.packetUrl !== undefined) ? record.packetUrl : known.packetUrl,
    submittedAt: known.submittedAt ?? (typeof record.submittedAt === 'string' ? record.submittedAt : undefined),
    reached: [...new Set([...(known.reached ?? []), String(record.status)])],
  };
}
