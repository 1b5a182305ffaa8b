import { describe, expect, it } from 'vitest';
import type { CheckResult, Failure } from '../harness/types.js';
import { causeKey, groupFailuresByCause } from './causes.js';

const failed = (id: string, failures: Failure[]): CheckResult => ({ id, title: id, area: id.split('.')[0]!, verdict: 'failed', failures, durationMs: 1, requests: 1 });

describe('failures grouped by cause', () => {
  it('treats messages that differ only in ids and timestamps as one cause, and other rules or words as others', () => {
    const a = causeKey({ rule: 'job-terminal', message: 'job 0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c ended FAILED at 2026-11-02T14:00:00.000Z' });
    const b = causeKey({ rule: 'job-terminal', message: 'job 6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61 ended FAILED at 2026-11-03T09:30:12Z' });
    expect(a).toBe(b);
    expect(causeKey({ rule: 'job-terminal', message: 'job 0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c ended COMPLETED at 2026-11-02T14:00:00.000Z' })).not.toBe(a);
    expect(causeKey({ rule: 'other-rule', message: 'job 0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c ended FAILED at 2026-11-02T14:00:00.000Z' })).not.toBe(a);
    // Short numbers are kept: "answered 500" and "answered 501" are different causes.
    expect(causeKey({ rule: 'r', message: 'answered 500' })).not.toBe(causeKey({ rule: 'r', message: 'answered 501' }));
  });

  it('counts every failure, names each check once in run order, and puts the most frequent cause first', () => {
    const causes = groupFailuresByCause([
      failed('auth.a', [{ rule: 'token-type', message: 'token_type is "bearer"' }]),
      failed('ops.x', [{ rule: 'check-error', message: 'not implemented' }, { rule: 'check-error', message: 'not implemented' }]),
      failed('ops.y', [{ rule: 'check-error', message: 'not implemented' }]),
    ]);
    expect(causes).toEqual([
      { rule: 'check-error', message: 'not implemented', status: undefined, count: 3, checkIds: ['ops.x', 'ops.y'] },
      { rule: 'token-type', message: 'token_type is "bearer"', status: undefined, count: 1, checkIds: ['auth.a'] },
    ]);
  });
});
