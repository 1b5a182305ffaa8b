import { describe, expect, it } from 'vitest';
import type { CheckResult, Failure } from '../harness/types.js';
import { causeKey, groupFailuresByCause } from './causes.js';
import { manyFailuresReport } from './reports.testing.js';

const failed = (id: string, failures: Failure[]): CheckResult => ({ id, title: id, area: id.split('.')[0]!, verdict: 'failed', failures, durationMs: 1, requests: 1 });

describe('failures grouped by cause', () => {
  it('treats messages that differ only in ids and timestamps as one cause, and other rules or words as others', () => {
    const a = causeKey({ rule: 'job-terminal', message: 'job 0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c ended FAILED at 2026-11-02T14:00:00.000Z' });
    const b = causeKey({ rule: 'job-terminal', message: 'job 6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61 ended FAILED at 2026-11-03T09:30:12Z' });
    expect(a).toBe(b);
    expect(causeKey({ rule: 'job-terminal', message: 'job 0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c ended COMPLETED at 2026-11-02T14:00:00.000Z' })).not.toBe(a);
    expect(causeKey({ rule: 'other-rule', message: 'job 0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c ended FAILED at 2026-11-02T14:00:00.000Z' })).not.toBe(a);
    // Array indexes in a JSON path are blanked: the same field broken in another item is the same cause.
    expect(causeKey({ rule: 'r', message: 'body.items[2].createdAt is not a date-time' })).toBe(causeKey({ rule: 'r', message: 'body.items[15].createdAt is not a date-time' }));
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
      { rule: 'check-error', message: 'not implemented', status: undefined, count: 3, checkIds: ['ops.x', 'ops.y'], operations: [] },
      { rule: 'token-type', message: 'token_type is "bearer"', status: undefined, count: 1, checkIds: ['auth.a'], operations: [] },
    ]);
  });

  it('makes the same rule broken the same way on N operations one cause naming the N operations', () => {
    const onOperation = (operationId: string, message: string): Failure => ({
      rule: 'response-conformance',
      message,
      exchange: { request: { method: 'GET', url: 'https://x.test/', headers: {} }, response: { status: 500, headers: {}, body: {}, text: '' }, operation: { operationId } as never, durationMs: 1 },
    });
    const causes = groupFailuresByCause([
      failed('operations:listJobs.valid', [onOperation('listJobs', 'listJobs: status 500 is not documented')]),
      failed('operations:getJob.valid', [onOperation('getJob', 'getJob: status 500 is not documented')]),
      // No exchange: the operation id the client's message starts with.
      failed('operations:listFindings.valid', [{ rule: 'response-conformance', message: 'listFindings: status 500 is not documented' }]),
      failed('operations:getJob.invalid', [onOperation('getJob', 'getJob: status 500 is not documented'), onOperation('getJob', 'getJob: body.id is not a string')]),
    ]);
    expect(causes.map(({ count, operations, checkIds }) => ({ count, operations, checks: checkIds.length }))).toEqual([
      { count: 3, operations: ['listJobs', 'getJob'], checks: 3 },
      { count: 1, operations: ['listFindings'], checks: 1 }, // no status without an exchange: another cause
      { count: 1, operations: ['getJob'], checks: 1 },
    ]);
  });

  it('groups issue 26\'s 1,362 failures over 133 checks into the few causes the defects make', () => {
    const report = manyFailuresReport();
    const causes = groupFailuresByCause(report.results);
    expect(causes.reduce((sum, cause) => sum + cause.count, 0)).toBe(1362);
    // Four rules broken the same way on many operations, and one cause of their own for every tenth check.
    expect(causes).toHaveLength(4 + 13);
    expect(causes[0]!.operations.length).toBeGreaterThan(20);
  });
});
