// The claim submission table (spec 3.4) and the record rules (spec 2.7), on hand-made records.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { reachable } from './machine-table.js';
import { judgeSubmissionRecord, learnRecord, nextState, submissionTable } from './submission.model.js';

const T0 = '2026-11-02T14:05:09.000Z';
const T1 = '2026-11-02T14:05:10.000Z';
const T2 = '2026-11-02T14:05:12.000Z';
const record = (fields: Record<string, unknown>) => ({ status: 'DRAFT', packetUrl: null, submittedAt: null, acknowledgedAt: null, creditConfirmedAt: null, failedAt: null, createdAt: T0, updatedAt: T0, ...fields });
const rules = (problems: Array<{ rule: string }>) => problems.map((p) => p.rule);

describe('the claim submission table', () => {
  it('has the states and terminal states the contract declares, in every version with claims', () => {
    for (const version of ['v1.2.0', 'v1.3.0'] as const) {
      const declared = contractLifecycle(loadContract(version), 'claim-submission');
      expect(new Set(submissionTable.states), version).toEqual(new Set(declared.states));
      expect(new Set(submissionTable.terminal), version).toEqual(new Set(declared.terminal));
    }
  });

  it('is spec 3.4: the forward path, and no repeat into the state already reached (spec 7)', () => {
    expect(nextState('DRAFT', 'generate-packet')).toBe('READY');
    expect(nextState('READY', 'submit')).toBe('SUBMITTED');
    expect(nextState('SUBMITTED', 'acknowledge')).toBe('ACKNOWLEDGED');
    expect(nextState('READY', 'generate-packet')).toBeNull();
    expect(nextState('SUBMITTED', 'submit')).toBeNull();
    expect(nextState('ACKNOWLEDGED', 'acknowledge')).toBeNull();
    expect(nextState('DRAFT', 'confirm-credit', 'all')).toBeNull();
  });

  it('gives confirm-credit its next state per outcome, and nothing after CREDIT_CONFIRMED', () => {
    expect(nextState('SUBMITTED', 'confirm-credit', 'partial')).toBe('SUBMITTED');
    expect(nextState('ACKNOWLEDGED', 'confirm-credit', 'partial')).toBe('ACKNOWLEDGED');
    expect(nextState('FAILED', 'confirm-credit', 'partial')).toBe('ACKNOWLEDGED');
    expect(nextState('FAILED', 'confirm-credit', 'none')).toBe('FAILED');
    expect(nextState('ACKNOWLEDGED', 'confirm-credit', 'all')).toBe('CREDIT_CONFIRMED');
    expect(nextState('CREDIT_CONFIRMED', 'confirm-credit', 'all')).toBeNull();
  });

  it('closes from any state but CLOSED, and nothing leaves CLOSED', () => {
    for (const state of submissionTable.states) expect(nextState(state, 'operator close'), state).toBe(state === 'CLOSED' ? null : 'CLOSED');
    for (const state of submissionTable.states) if (state !== 'CLOSED') expect(reachable(submissionTable, 'CLOSED', state), state).toBe(false);
  });
});

describe('judgeSubmissionRecord', () => {
  it('accepts a record moving forward with its stamps', () => {
    let known = learnRecord({}, record({}));
    const ready = record({ status: 'READY', packetUrl: 'https://x.example/p.pdf', updatedAt: T1 });
    expect(judgeSubmissionRecord(known, ready)).toEqual([]);
    known = learnRecord(known, ready);
    const submitted = { ...ready, status: 'SUBMITTED', submittedAt: T1, updatedAt: T1 };
    expect(judgeSubmissionRecord(known, submitted)).toEqual([]);
    known = learnRecord(known, submitted);
    expect(judgeSubmissionRecord(known, { ...submitted, status: 'ACKNOWLEDGED', acknowledgedAt: T2, updatedAt: T2 })).toEqual([]);
  });

  it('keeps packetUrl once READY and submittedAt once set', () => {
    const known = { packetUrl: 'https://x.example/p.pdf', submittedAt: T1 };
    expect(rules(judgeSubmissionRecord(known, record({ status: 'SUBMITTED', packetUrl: null, submittedAt: T1, updatedAt: T1 })))).toEqual(['packet-url-kept']);
    expect(rules(judgeSubmissionRecord(known, record({ status: 'CREDIT_CONFIRMED', packetUrl: known.packetUrl, submittedAt: null, updatedAt: T2 })))).toEqual(['stamp-kept']);
    // A submission that failed before READY never had a packetUrl: nothing to keep.
    expect(judgeSubmissionRecord({}, record({ status: 'FAILED', failedAt: T1, updatedAt: T1 }))).toEqual([]);
  });

  it('refuses a stamp set before the submission reached its state, once followed from creation', () => {
    let known = learnRecord({}, record({}));
    const ready = record({ status: 'READY', packetUrl: 'https://x.example/p.pdf', updatedAt: T1 });
    expect(rules(judgeSubmissionRecord(known, { ...ready, creditConfirmedAt: T1 }))).toEqual(['stamp-before-transition']);
    known = learnRecord(known, ready);
    expect(rules(judgeSubmissionRecord(known, { ...ready, status: 'SUBMITTED', submittedAt: T1, failedAt: T1 }))).toEqual(['stamp-before-transition']);
    // Once FAILED was seen, failedAt may stay as the submission goes on (a partial confirm-credit: ACKNOWLEDGED).
    known = learnRecord(known, { ...ready, status: 'FAILED', failedAt: T1 });
    expect(judgeSubmissionRecord(known, { ...ready, status: 'ACKNOWLEDGED', failedAt: T1, acknowledgedAt: T2, updatedAt: T2 })).toEqual([]);
  });

  it('orders the stamps as the moves setting them', () => {
    expect(rules(judgeSubmissionRecord({}, record({ status: 'ACKNOWLEDGED', submittedAt: T1, acknowledgedAt: T0, updatedAt: T1 })))).toEqual(['stamps-ordered']);
    expect(rules(judgeSubmissionRecord({}, record({ createdAt: T1, updatedAt: T0 })))).toEqual(['stamps-ordered']);
    expect(rules(judgeSubmissionRecord({}, record({ status: 'FAILED', createdAt: T1, failedAt: T0, updatedAt: T1 })))).toEqual(['stamps-ordered']);
  });
});
