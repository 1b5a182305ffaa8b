// The finding table (spec 3.3) and the judge of one answer, on hand-made answers.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { findingTable, judgeFindingAnswer, refusedFrom, SPEC_MOVES } from './finding.model.js';
import { reachable } from './machine-table.js';

const refused = { status: 409, code: 'ACTION_NOT_ALLOWED', subcode: 'invalid_transition' };
const ok = (workflowStatus: string) => ({ status: 200, workflowStatus });
const rule = (verdict: ReturnType<typeof judgeFindingAnswer>) => verdict.problem?.rule;

describe('the finding table', () => {
  it('has the states and terminal states the contract declares, in every version with findings', () => {
    for (const version of ['v1.2.0', 'v1.3.0'] as const) {
      const declared = contractLifecycle(loadContract(version), 'finding');
      expect(new Set(findingTable.states), version).toEqual(new Set(declared.states));
      expect(new Set(findingTable.terminal), version).toEqual(new Set(declared.terminal));
    }
  });

  it('is spec 3.3: the dispute path, dismiss from OPEN, and reopen from every terminal or in-flight state', () => {
    expect(SPEC_MOVES.dispute).toEqual({ from: ['OPEN'], to: 'DISPUTED' });
    expect(SPEC_MOVES.dismiss).toEqual({ from: ['OPEN'], to: 'DISMISSED' });
    expect(SPEC_MOVES.submit).toEqual({ from: ['DISPUTED'], to: 'SUBMITTED' });
    expect(SPEC_MOVES['carrier-review']).toEqual({ from: ['SUBMITTED'], to: 'CARRIER_REVIEW' });
    expect(SPEC_MOVES.reopen!.from.sort()).toEqual(['CARRIER_REVIEW', 'CREDITED', 'DISMISSED', 'DISPUTED', 'REJECTED', 'SUBMITTED']);
    // Credit and reject have no source states in the spec: the table leaves them out.
    expect(SPEC_MOVES.credit).toBeUndefined();
    expect(reachable(findingTable, 'CREDITED', 'OPEN')).toBe(true);
  });
});

describe('judgeFindingAnswer', () => {
  it('accepts the moves of the table and refusals of moves it lacks', () => {
    expect(judgeFindingAnswer('dispute', 'OPEN', ok('DISPUTED'))).toEqual({ state: 'DISPUTED' });
    expect(judgeFindingAnswer('reopen', 'DISMISSED', ok('OPEN'))).toEqual({ state: 'OPEN' });
    expect(judgeFindingAnswer('submit', 'OPEN', refused)).toEqual({ state: 'OPEN' });
    expect(judgeFindingAnswer('reopen', 'OPEN', refused)).toEqual({ state: 'OPEN' });
  });

  it('accepts either answer where the spec leaves the source states open', () => {
    expect(judgeFindingAnswer('credit', 'OPEN', refused)).toEqual({ state: 'OPEN' });
    expect(judgeFindingAnswer('credit', 'DISPUTED', ok('CREDITED'))).toEqual({ state: 'CREDITED' });
    expect(judgeFindingAnswer('reject', 'CARRIER_REVIEW', ok('REJECTED'))).toEqual({ state: 'REJECTED' });
    expect(judgeFindingAnswer('reject', 'REJECTED', ok('REJECTED'))).toEqual({ state: 'REJECTED' });
  });

  it('allows a move of the table refused because the carrier policy blocks it', () => {
    expect(judgeFindingAnswer('submit', 'DISPUTED', { ...refused, subcode: 'carrier_blocked' })).toEqual({ state: 'DISPUTED' });
  });

  it('names each broken rule', () => {
    expect(rule(judgeFindingAnswer('dispute', 'OPEN', refused))).toBe('allowed-move-refused');
    expect(rule(judgeFindingAnswer('dispute', 'OPEN', { status: 409, code: 'CONFLICT' }))).toBe('refusal-code');
    expect(rule(judgeFindingAnswer('dispute', 'DISMISSED', { ...refused, subcode: undefined }))).toBe('refusal-subcode');
    expect(rule(judgeFindingAnswer('reopen', 'OPEN', { ...refused, subcode: 'invalid_finding_state' }))).toBe('refusal-subcode');
    expect(rule(judgeFindingAnswer('dispute', 'DISMISSED', ok('DISPUTED')))).toBe('illegal-move-accepted');
    expect(rule(judgeFindingAnswer('dispute', 'OPEN', ok('OPEN')))).toBe('move-reaches-state');
    expect(rule(judgeFindingAnswer('credit', 'SUBMITTED', ok('SUBMITTED')))).toBe('move-reaches-state');
    expect(rule(judgeFindingAnswer('reject', 'OPEN', { status: 400 }))).toBe('finding-action-answer');
  });

  it('refuses to let credit or reject leave another terminal state (only reopen leaves one)', () => {
    expect(rule(judgeFindingAnswer('reject', 'CREDITED', ok('REJECTED')))).toBe('terminal-left');
    expect(rule(judgeFindingAnswer('credit', 'DISMISSED', ok('CREDITED')))).toBe('terminal-left');
    expect(judgeFindingAnswer('reject', 'CREDITED', refused)).toEqual({ state: 'CREDITED' });
  });
});

describe('refusedFrom', () => {
  it('lists the moves of spec 3.3 a state is no source of, and credit or reject out of another terminal state', () => {
    expect(refusedFrom('OPEN')).toEqual(['submit', 'carrier-review', 'reopen']);
    expect(refusedFrom('DISPUTED')).toEqual(['dispute', 'dismiss', 'carrier-review']);
    expect(refusedFrom('SUBMITTED')).toEqual(['dispute', 'dismiss', 'submit']);
    expect(refusedFrom('CREDITED')).toEqual(['dispute', 'dismiss', 'submit', 'carrier-review', 'reject']);
    expect(refusedFrom('DISMISSED')).toEqual(['dispute', 'dismiss', 'submit', 'carrier-review', 'credit', 'reject']);
  });

  it('never lists a move the table gives, so trying them all leaves a correct finding where it was', () => {
    for (const state of findingTable.states) {
      for (const action of refusedFrom(state)) expect(judgeFindingAnswer(action, state, refused), `${action} from ${state}`).toEqual({ state });
      for (const action of refusedFrom(state)) expect(SPEC_MOVES[action]?.from ?? [], `${action} from ${state}`).not.toContain(state);
    }
  });
});
