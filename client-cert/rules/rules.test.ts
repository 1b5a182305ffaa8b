// The rules on small hand-made evidence: the edges the self-test's clients do not reach on their own.
import { describe, expect, it } from 'vitest';
import type { Evidence, LoggedRequest } from '../types.js';
import { pollingPace, stopsWhenTerminal } from './polling.js';
import { noBlindRetryAfter4xx, waitsAfter429, writeRetriedOnceAfter5xx } from './retries.js';
import { tokenReused } from './token.js';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
let n = 0;
function req(ms: number, method: string, path: string, status: number, options: { body?: unknown; response?: unknown; virtualMs?: number } = {}): LoggedRequest {
  return {
    id: `r${++n}`,
    at: new Date(T0 + ms).toISOString(),
    virtualAt: new Date(T0 + (options.virtualMs ?? ms)).toISOString(),
    tenantId: 't1',
    method,
    path,
    query: '',
    operationId: null,
    status,
    durationMs: 0,
    request: { headers: {}, body: options.body ?? null, bodyTruncated: false, bodyBytes: null },
    response: { headers: {}, body: options.response ?? null, bodyTruncated: false, bodyBytes: null },
    faults: [],
  };
}
const evidence = (requests: LoggedRequest[], deliveries: Evidence['deliveries'] = []): Evidence => ({
  scenario: 'test', tenantId: 't', requests, deliveries, actions: [], startedAtMs: T0, endedAtMs: T0 + 100_000, exitCode: 0, timedOut: false, outputTail: '',
});
const exchange = (ms: number, virtualMs = ms) => req(ms, 'POST', '/api/auth/token/integration', 200, { response: { expires_in: 3600 }, virtualMs });
const invalidToken = { code: 'INVALID_TOKEN' };
const job = (status: string) => ({ status });

describe('token.reused', () => {
  it('passes a re-exchange after a 401 INVALID_TOKEN and fails one without', () => {
    const after401 = evidence([exchange(0), req(10, 'GET', '/api/jobs', 200), req(20, 'GET', '/api/jobs', 401, { response: invalidToken }), exchange(30), req(40, 'GET', '/api/jobs', 200)]);
    expect(tokenReused.judge(after401).verdict).toBe('passed');
    const early = evidence([exchange(0), req(10, 'GET', '/api/jobs', 200), exchange(30), req(40, 'GET', '/api/jobs', 200)]);
    expect(tokenReused.judge(early).verdict).toBe('failed');
  });

  it('passes a re-exchange near the end of the lifetime on the tenant clock, and is not exercised without a call', () => {
    expect(tokenReused.judge(evidence([exchange(0), req(10, 'GET', '/api/jobs', 200), exchange(30, 3_500_000), req(40, 'GET', '/api/jobs', 200)])).verdict).toBe('passed');
    expect(tokenReused.judge(evidence([exchange(0)])).verdict).toBe('not exercised');
  });
});

describe('retries', () => {
  const batch = (ms: number, status: number, response: unknown = null) => req(ms, 'POST', '/api/sima/batch', status, { body: { skus: null }, response });

  it('does not count an attempt answered 401 INVALID_TOKEN as a retry after a 5xx', () => {
    expect(writeRetriedOnceAfter5xx.judge(evidence([batch(0, 500), batch(1000, 401, invalidToken), batch(1100, 500)])).verdict).toBe('passed');
    expect(writeRetriedOnceAfter5xx.judge(evidence([batch(0, 500), batch(1000, 500), batch(2000, 202)])).verdict).toBe('failed');
  });

  it('takes the same write after the retry window for a new request, not a retry', () => {
    expect(noBlindRetryAfter4xx.judge(evidence([batch(0, 400), batch(61_000, 400)])).verdict).toBe('passed');
    expect(noBlindRetryAfter4xx.judge(evidence([batch(0, 400), batch(1_000, 400)])).verdict).toBe('failed');
    expect(noBlindRetryAfter4xx.judge(evidence([batch(0, 202)])).verdict).toBe('not exercised');
  });

  it('measures the 429 wait from the answer, with the stated tolerance', () => {
    const limited = { code: 'RATE_LIMITED', details: { retryAfterSeconds: 2 } };
    expect(waitsAfter429.judge(evidence([batch(0, 429, limited), batch(1800, 202)])).verdict).toBe('passed');
    expect(waitsAfter429.judge(evidence([batch(0, 429, limited), batch(1700, 202)])).verdict).toBe('failed');
  });
});

describe('polling', () => {
  const read = (ms: number, status: string) => req(ms, 'GET', '/api/jobs/j1', 200, { response: job(status) });
  const attemptAt = (ms: number): Evidence['deliveries'] => [{ id: 'd', tenantId: 't1', jobId: 'j1', event: 'job.completed', url: '', status: 'delivered', attempts: [{ number: 1, at: new Date(T0 + ms).toISOString(), statusCode: 204, error: null, durationMs: 1 }], nextAttemptAt: null, createdAt: '', origin: 'job' }];

  it('holds polls to 2 s in the first minute and 5 s after, and a read right after a webhook attempt to neither', () => {
    expect(pollingPace.judge(evidence([read(0, 'PENDING'), read(2000, 'PROCESSING'), read(4500, 'COMPLETED')])).verdict).toBe('passed');
    expect(pollingPace.judge(evidence([read(0, 'PENDING'), read(1500, 'PROCESSING')])).verdict).toBe('failed');
    expect(pollingPace.judge(evidence([read(0, 'PENDING'), read(61_000, 'PROCESSING'), read(64_000, 'PROCESSING')])).verdict).toBe('failed');
    expect(pollingPace.judge(evidence([read(0, 'PENDING'), read(2000, 'PROCESSING'), read(2300, 'COMPLETED')], attemptAt(2200))).verdict).toBe('passed');
  });

  it('allows one read after a terminal one, and a new wait after the client writes to the resource', () => {
    expect(stopsWhenTerminal.judge(evidence([read(0, 'COMPLETED'), read(2500, 'COMPLETED')])).verdict).toBe('passed');
    expect(stopsWhenTerminal.judge(evidence([read(0, 'COMPLETED'), read(2500, 'COMPLETED'), read(5000, 'COMPLETED')])).verdict).toBe('failed');
    const feed = (ms: number, status: string) => req(ms, 'GET', '/api/trade/feeds/s1', 200, { response: job(status) });
    const applied = evidence([feed(0, 'READY'), req(1000, 'POST', '/api/trade/feeds/s1/apply', 200), feed(3000, 'APPLIED'), feed(6000, 'APPLIED')]);
    expect(stopsWhenTerminal.judge(applied).verdict).toBe('passed');
  });
});
