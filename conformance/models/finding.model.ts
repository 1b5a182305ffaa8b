// The ship finding workflow of spec 3.3 as data, and how the model judges one answer to a workflow action,
// written from the spec alone. States and terminal states are the contract's (`x-lifecycle: finding`:
// DISMISSED, CREDITED and REJECTED are terminal); the moves are the spec's table:
//   dispute, dismiss from OPEN; submit from DISPUTED; carrier-review from SUBMITTED;
//   reopen from "terminal or in-flight states" (every state but OPEN) to OPEN;
//   credit -> CREDITED and reject -> REJECTED: source states "not shown".
// Where the spec is silent (credit, reject) the model accepts 200 in the named state or 409, with one limit
// the spec does state: a terminal state is left only by reopen (the contract's x-terminal-states, spec 3.3
// "terminal"), so credit or reject from another terminal state must not answer 200.
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { defineTable, isTerminal } from './machine-table.js';

export type FindingState = 'OPEN' | 'DISPUTED' | 'SUBMITTED' | 'CARRIER_REVIEW' | 'CREDITED' | 'REJECTED' | 'DISMISSED';
export const FINDING_ACTIONS = ['dispute', 'dismiss', 'submit', 'carrier-review', 'credit', 'reject', 'reopen'] as const;
export type FindingAction = (typeof FINDING_ACTIONS)[number];

const declared = contractLifecycle(loadContract('v1.3.0'), 'finding');
const states = declared.states as FindingState[];

/** spec 3.3 (reopen's sources: every state but OPEN, i.e. the terminal and the in-flight ones). */
export const findingTable = defineTable<FindingState>({
  name: 'finding',
  source: 'spec 3.3',
  states,
  terminal: declared.terminal as FindingState[],
  transitions: [
    { from: 'OPEN', by: 'POST dispute', to: 'DISPUTED' },
    { from: 'OPEN', by: 'POST dismiss', to: 'DISMISSED' },
    { from: 'DISPUTED', by: 'POST submit', to: 'SUBMITTED' },
    { from: 'SUBMITTED', by: 'POST carrier-review', to: 'CARRIER_REVIEW' },
    ...states.filter((from) => from !== 'OPEN').map((from) => ({ from, by: 'POST reopen', to: 'OPEN' as const })),
  ],
});

/** action -> the source states and the next state the spec's table gives (credit and reject: none). */
export const SPEC_MOVES: Partial<Record<FindingAction, { from: FindingState[]; to: FindingState }>> = Object.fromEntries(
  (['dispute', 'dismiss', 'submit', 'carrier-review', 'reopen'] as const).map((action) => {
    const moves = findingTable.transitions.filter((t) => t.by === `POST ${action}`);
    return [action, { from: moves.map((t) => t.from!), to: moves[0].to }];
  }),
);

/** The state credit and reject reach when they are accepted (spec 3.3). */
const OPEN_SOURCE_TARGET: Partial<Record<FindingAction, FindingState>> = { credit: 'CREDITED', reject: 'REJECTED' };

/** One answer to an action: its HTTP status, the finding's workflowStatus (200), the error code and subcode (409). */
export interface FindingAnswer {
  status: number;
  workflowStatus?: unknown;
  code?: unknown;
  subcode?: unknown;
}

export interface FindingVerdict {
  /** The broken rule, when the answer breaks one. */
  problem?: { rule: string; message: string };
  /** The state the finding is in after the answer. */
  state: FindingState;
}

/**
 * Judges one answer to `action` on a finding the model holds in `from`. 409 must be ACTION_NOT_ALLOWED
 * (spec 3.3, 7) with details.subcode invalid_transition (spec 4.5 rule 4), and is wrong only for a move the
 * table gives (unless the carrier policy blocks it, spec 4.5 rule 4 carrier_blocked). 200 must be a move the table gives, into its state; for credit and reject
 * (sources not shown) into CREDITED / REJECTED, and never out of another terminal state.
 */
export function judgeFindingAnswer(action: FindingAction, from: FindingState, answer: FindingAnswer): FindingVerdict {
  const spec = SPEC_MOVES[action];
  const what = `${action} from ${from}`;
  if (answer.status === 409) {
    if (answer.code !== 'ACTION_NOT_ALLOWED') return { state: from, problem: { rule: 'refusal-code', message: `${what} answered 409 ${JSON.stringify(answer.code)}, not ACTION_NOT_ALLOWED (spec 3.3)` } };
    if (spec?.from.includes(from) && answer.subcode !== 'carrier_blocked') return { state: from, problem: { rule: 'allowed-move-refused', message: `${what} was refused with 409; spec 3.3 moves it to ${spec.to}` } };
    // Spec 4.5 rule 4: a refused move says why in details.subcode: invalid_transition (carrier_blocked when
    // the tenant's carrier policy blocks the action).
    if (answer.subcode !== 'invalid_transition' && answer.subcode !== 'carrier_blocked') return { state: from, problem: { rule: 'refusal-subcode', message: `${what} was refused with 409 ACTION_NOT_ALLOWED and details.subcode ${JSON.stringify(answer.subcode)}, not invalid_transition (spec 4.5 rule 4)` } };
    return { state: from };
  }
  if (answer.status !== 200) return { state: from, problem: { rule: 'finding-action-answer', message: `${what} answered ${answer.status}, neither 200 nor 409 (spec 3.3, 4.5)` } };
  const reached = answer.workflowStatus;
  const to = spec ? spec.to : OPEN_SOURCE_TARGET[action]!;
  if (spec && !spec.from.includes(from)) {
    return { state: from, problem: { rule: 'illegal-move-accepted', message: `${what} answered 200 (${JSON.stringify(reached)}); spec 3.3 allows ${action} only from ${spec.from.join(', ')} (409 ACTION_NOT_ALLOWED otherwise)` } };
  }
  if (!spec && isTerminal(findingTable, from) && from !== to) {
    return { state: from, problem: { rule: 'terminal-left', message: `${what} answered 200 (${JSON.stringify(reached)}); ${from} is terminal and only reopen leaves it (spec 3.3; contract x-terminal-states)` } };
  }
  if (reached !== to) return { state: from, problem: { rule: 'move-reaches-state', message: `${what} answered workflowStatus ${JSON.stringify(reached)}, not ${to} (spec 3.3)` } };
  return { state: to };
}

/**
 * The actions a finding in `state` must refuse (409 ACTION_NOT_ALLOWED): each move of the table whose
 * source states leave `state` out (spec 3.3 "a disallowed transition returns 409"), and credit or reject
 * out of another terminal state (only reopen leaves a terminal state). Trying them all leaves the state
 * as it is on a correct server, so a model can try them from every state it reaches.
 */
export function refusedFrom(state: FindingState): FindingAction[] {
  return FINDING_ACTIONS.filter((action) => {
    const spec = SPEC_MOVES[action];
    if (spec) return !spec.from.includes(state);
    return isTerminal(findingTable, state) && OPEN_SOURCE_TARGET[action] !== state;
  });
}
