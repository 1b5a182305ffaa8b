// The job lifecycle table (spec 3.1) and the observation rules (spec 2.2) on hand-made observations.
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { jobLifecycle, judgeJob } from './job.model.js';
import { initialStates, reachable, successors } from './machine-table.js';

const T0 = '2026-11-02T14:05:09.000Z';
const T1 = '2026-11-02T14:05:10.000Z';
const T2 = '2026-11-02T14:05:12.000Z';
const job = (fields: Record<string, unknown>) => ({ id: 'j1', status: 'PENDING', progress: 0, error: null, createdAt: T0, updatedAt: T0, ...fields });
const rules = (problems: Array<{ rule: string }>) => problems.map((p) => p.rule);

describe('the job table', () => {
  it('is spec 3.1: created PENDING, then PROCESSING, then COMPLETED or FAILED, both terminal', () => {
    expect(initialStates(jobLifecycle)).toEqual(['PENDING']);
    expect(successors(jobLifecycle, 'PROCESSING').sort()).toEqual(['COMPLETED', 'FAILED']);
    expect(reachable(jobLifecycle, 'PENDING', 'COMPLETED')).toBe(true);
    expect(reachable(jobLifecycle, 'PROCESSING', 'PENDING')).toBe(false);
    expect(reachable(jobLifecycle, 'COMPLETED', 'FAILED')).toBe(false);
    expect(reachable(jobLifecycle, 'FAILED', 'FAILED')).toBe(true);
  });

  it('has the states and terminal states the contract declares for the job lifecycle, in every version', () => {
    // The model reads v1.3.0; a target certified against an archived version must see the same table.
    for (const version of CONTRACT_VERSIONS) {
      const declared = contractLifecycle(loadContract(version), 'job');
      expect(new Set(jobLifecycle.states), version).toEqual(new Set(declared.states));
      expect(new Set(jobLifecycle.terminal), version).toEqual(new Set(declared.terminal));
    }
  });

  it('names only known states in its transitions, and none out of a terminal state', () => {
    for (const t of jobLifecycle.transitions) {
      if (t.from !== null) expect(jobLifecycle.states).toContain(t.from);
      expect(jobLifecycle.states).toContain(t.to);
      if (t.from !== null) expect(jobLifecycle.terminal).not.toContain(t.from);
    }
  });
});

describe('judgeJob', () => {
  it('accepts a job moving forward with its timestamps', () => {
    expect(judgeJob({ id: 'j1', status: 'PENDING' }, job({}))).toEqual([]);
    expect(judgeJob({ id: 'j1', status: 'PENDING', createdAt: T0, updatedAt: T0 }, job({ status: 'COMPLETED', progress: 100, updatedAt: T2 }))).toEqual([]);
    expect(judgeJob({ id: 'j1', status: 'PROCESSING', createdAt: T0, updatedAt: T1 }, job({ status: 'FAILED', error: 'boom', updatedAt: T2 }))).toEqual([]);
  });

  it('names each broken rule', () => {
    const done = { id: 'j1', status: 'COMPLETED' as const, createdAt: T0, updatedAt: T1 };
    expect(rules(judgeJob(done, job({ status: 'PROCESSING', updatedAt: T2 })))).toEqual(['job-terminal-stable']);
    expect(rules(judgeJob({ id: 'j1', status: 'PROCESSING', createdAt: T0, updatedAt: T1 }, job({ status: 'PENDING', updatedAt: T2 })))).toEqual(['job-transition']);
    expect(rules(judgeJob({ id: 'j1', status: 'PENDING' }, job({ status: 'DONE' })))).toEqual(['job-status-known']);
    expect(rules(judgeJob(done, job({ status: 'COMPLETED', progress: 90, updatedAt: T1 })))).toEqual(['job-progress-complete']);
    expect(rules(judgeJob({ id: 'j1', status: 'PROCESSING', createdAt: T0, updatedAt: T1 }, job({ status: 'FAILED', error: null, updatedAt: T2 })))).toEqual(['job-failed-error']);
    expect(rules(judgeJob(done, job({ status: 'COMPLETED', progress: 100, createdAt: T1, updatedAt: T1 })))).toEqual(['job-created-at-stable']);
    expect(rules(judgeJob({ id: 'j1', status: 'PENDING' }, job({ createdAt: T1, updatedAt: T0 })))).toEqual(['job-updated-after-created']);
  });

  it('requires updatedAt to advance whenever the status moved', () => {
    // Frozen at creation through PENDING -> PROCESSING.
    expect(rules(judgeJob({ id: 'j1', status: 'PENDING', createdAt: T0, updatedAt: T0 }, job({ status: 'PROCESSING' })))).toEqual(['job-updated-at-advances']);
    // First read already past PENDING, updatedAt still the creation time.
    expect(rules(judgeJob({ id: 'j1', status: 'PENDING' }, job({ status: 'COMPLETED', progress: 100 })))).toEqual(['job-updated-at-advances']);
    // No status change: updatedAt may stay.
    expect(judgeJob({ id: 'j1', status: 'PROCESSING', createdAt: T0, updatedAt: T1 }, job({ status: 'PROCESSING', updatedAt: T1 }))).toEqual([]);
  });
});
