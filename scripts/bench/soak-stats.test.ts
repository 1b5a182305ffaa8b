import { describe, expect, it } from 'vitest';
import { growthPercent, pickWeighted, seededRandom, settledAt, Tally } from './soak-stats.js';

describe('the soak statistics', () => {
  it('replays the same sequence from the same seed and another from another seed', () => {
    const run = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    expect(run(7).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('picks kinds in proportion to their weights', () => {
    const weights = { a: 1, b: 3 };
    expect([0, 0.24, 0.25, 0.99].map((r) => pickWeighted(weights, r))).toEqual(['a', 'a', 'b', 'b']);
    const rng = seededRandom(1);
    const picks = Array.from({ length: 4000 }, () => pickWeighted(weights, rng()));
    expect(picks.filter((k) => k === 'b').length / picks.length).toBeCloseTo(0.75, 1);
  });

  it('reads memory as the median of a window, so one spike does not decide the growth', () => {
    const samples = [100, 101, 180, 102, 103, 110, 111, 112].map((rssMb, i) => ({ at: i * 1000, rssMb }));
    expect(settledAt(samples, 4000, 5000, 'rssMb')).toBe(102);
    expect(settledAt(samples, 7000, 3000, 'rssMb')).toBe(111);
    expect(growthPercent(102, 111)).toBeCloseTo(8.82, 2);
  });

  it('counts requests by kind and status, and errors by description keeping the first example', () => {
    const tally = new Tally();
    tally.record('job-get', '200', 2);
    tally.record('job-get', '200', 4);
    tally.record('job-get', 'timeout', 10_000);
    tally.error('job-get: timeout', 'first');
    tally.error('job-get: timeout', 'second');
    expect(tally.requestCount).toBe(3);
    expect(tally.errorCount).toBe(2);
    expect(tally.errors.get('job-get: timeout')).toEqual({ count: 2, example: 'first' });
    expect(tally.table()).toContain('| job-get | 3 | 200: 2, timeout: 1 |');
  });
});
