import { describe, expect, it } from 'vitest';
import { checksFor } from '../checks/index.js';
import { bucketOfRequest, estimateOf, expectedToRun, loadBaseline, parseDuration, parseRateLimits, planRun, type Baseline } from './budget.js';
import { loadTargetContract } from './contract.js';

const tiny: Baseline = {
  contract: 'v1.3.0',
  profile: 'simulator',
  seed: 1,
  recordedAt: '2026-11-27T00:00:00Z',
  runs: [10, 100],
  checks: {
    fixed: { '10': { read: 3, write: 1, upload: 0, ms: 100 }, '100': { read: 3, write: 1, upload: 0, ms: 100 } },
    property: { '10': { read: 10, write: 100, upload: 0, ms: 1000 }, '100': { read: 100, write: 1000, upload: 0, ms: 10_000 } },
  },
};

describe('the run budget', () => {
  it('has a measured entry for every check of the v1.3.0 suite (npm run conform:baseline records them)', () => {
    const baseline = loadBaseline();
    const missing = checksFor(loadTargetContract('v1.3.0'))
      .map((check) => check.id)
      .filter((id) => !baseline.checks[id]?.[String(baseline.runs[0])] || !baseline.checks[id]?.[String(baseline.runs[1])]);
    expect(missing).toEqual([]);
  });

  it('reads a check at any --runs off the line through its two measured points', () => {
    expect(estimateOf(tiny, 'fixed', 1000)).toEqual({ read: 3, write: 1, upload: 0, ms: 100 });
    expect(estimateOf(tiny, 'property', 50)).toEqual({ read: 50, write: 500, upload: 0, ms: 5000 });
    expect(estimateOf(tiny, 'property', 1)).toEqual({ read: 1, write: 10, upload: 0, ms: 100 });
    expect(estimateOf(tiny, 'unknown', 50)).toBeUndefined();
  });

  it('plans the least time the limits allow: n requests at `limit` per window need ceil(n / limit) - 1 windows', () => {
    const plan = planRun(['fixed', 'property', 'unknown'], 100, { write: { limit: 120, windowMs: 60_000 }, read: { limit: 240, windowMs: 60_000 } }, tiny);
    expect(plan.requests).toEqual({ read: 103, write: 1001, upload: 0 });
    expect(plan.unestimated).toEqual(['unknown']);
    expect(plan.limitingBucket).toBe('write');
    expect(plan.limitsMs).toBe(8 * 60_000); // 1001 writes at 120 a minute: 9 windows, 8 minutes after the first request
    expect(plan.expectedMs).toBe(8 * 60_000);
    // Without limits, the checks' own time.
    expect(planRun(['fixed', 'property'], 100, undefined, tiny)).toMatchObject({ limitsMs: 0, expectedMs: 10_100 });
    // With a second tenant's key, two keys' windows: 1001 writes at 2 x 120 a minute need 5 windows.
    expect(planRun(['fixed', 'property'], 100, { write: { limit: 120, windowMs: 60_000 } }, tiny, 2)).toMatchObject({ keys: 2, limitsMs: 4 * 60_000 });
  });

  it('counts requests in the buckets of spec 8.1: GET/HEAD/OPTIONS read, a multipart form upload, other mutations write', () => {
    expect(bucketOfRequest('GET', undefined)).toBe('read');
    expect(bucketOfRequest('head', undefined)).toBe('read');
    expect(bucketOfRequest('POST', new FormData())).toBe('upload');
    expect(bucketOfRequest('POST', '{}')).toBe('write');
    expect(bucketOfRequest('DELETE', undefined)).toBe('write');
  });

  it('parses --rate-limits and --max-duration, and refuses what it cannot read', () => {
    expect(parseRateLimits('read=240,write=120,upload=30')).toEqual({ read: { limit: 240, windowMs: 60_000 }, write: { limit: 120, windowMs: 60_000 }, upload: { limit: 30, windowMs: 60_000 } });
    expect(parseRateLimits('read=100/90s')).toEqual({ read: { limit: 100, windowMs: 90_000 } });
    expect(() => parseRateLimits('reads=240')).toThrow(/bucket=limit/);
    expect(() => parseRateLimits('read=240,read=10')).toThrow(/twice/);
    expect(() => parseRateLimits('read=0')).toThrow(/at least 1/);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(() => parseDuration('10')).toThrow(/units/);
    expect(() => parseDuration('0s')).toThrow(/more than 0/);
  });

  it('counts in the plan only the checks whose needs the options meet', () => {
    expect(expectedToRun(['writes'], { profile: 'readonly' })).toBe(false);
    expect(expectedToRun(['writes', 'webhookReceiver'], { profile: 'sandbox' })).toBe(false);
    expect(expectedToRun(['writes', 'webhookReceiver'], { profile: 'sandbox', webhookUrl: 'https://x.test' })).toBe(true);
    expect(expectedToRun(['secondTenant'], { profile: 'simulator', adminToken: 't' })).toBe(true);
    expect(expectedToRun(['admin'], { profile: 'sandbox', adminToken: 't' })).toBe(false);
  });
});
