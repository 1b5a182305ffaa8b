import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleJobs } from '../checks/jobs-support.js';
import { ConformanceClient, TokenCache } from './client.js';
import { loadTargetContract } from './contract.js';
import { poll, specPollIntervalMs } from './poller.js';
import { Transport, type Clock } from './transport.js';

/** A clock that only moves when slept on (or when told), with a fixed jitter draw. */
function fakeClock(random = 0.5): Clock & { t: number; slept: number[] } {
  return {
    t: 1_000_000,
    slept: [],
    now() {
      return this.t;
    },
    async sleep(ms) {
      this.slept.push(ms);
      this.t += Math.max(0, ms);
    },
    random: () => random,
  };
}

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

describe('specPollIntervalMs', () => {
  it('is 2-3 s during the first minute and 5-10 s after it (spec 8.7)', () => {
    expect(specPollIntervalMs(0, 0)).toBe(2_000);
    expect(specPollIntervalMs(59_999, 0.999)).toBeCloseTo(2_999, 0);
    expect(specPollIntervalMs(60_000, 0)).toBe(5_000);
    expect(specPollIntervalMs(600_000, 0.999)).toBeCloseTo(9_995, 0);
  });
});

describe('poll', () => {
  it('reads 2-3 s apart during the first minute, then 5-10 s apart, until the time is up', async () => {
    for (const random of [0, 0.5, 0.99]) {
      const clock = fakeClock(random);
      const began = clock.t;
      const reads: number[] = [];
      const outcome = await poll({ clock, maxMs: 120_000, read: async () => (reads.push(clock.t), false) });
      expect(outcome.done).toBe(false);
      for (const [index, gap] of gaps(reads).entries()) {
        const startedAt = reads[index] - began;
        const [least, most] = startedAt < 60_000 ? [2_000, 3_000] : [5_000, 10_000];
        expect(gap, `gap after the read at ${startedAt} ms`).toBeGreaterThanOrEqual(least);
        expect(gap, `gap after the read at ${startedAt} ms`).toBeLessThanOrEqual(most);
      }
      expect(reads.at(-1)! - began).toBeLessThanOrEqual(120_000);
      expect(reads.some((time) => time - began > 60_000)).toBe(true);
    }
  });

  it('stops at the read that ends the polling, and reads first without waiting', async () => {
    const clock = fakeClock();
    let reads = 0;
    const outcome = await poll({ clock, maxMs: 60_000, read: async () => ++reads === 3 });
    expect(outcome).toMatchObject({ done: true, reads: 3 });
    expect(clock.slept).toHaveLength(2);
  });

  it('makes at most maxReads reads', async () => {
    const clock = fakeClock();
    const outcome = await poll({ clock, maxMs: 600_000, maxReads: 4, read: async () => false });
    expect(outcome).toMatchObject({ done: false, reads: 4 });
  });

  it('counts each wait from the start of the read before it: a read slowed by pacing shortens the wait after it', async () => {
    const clock = fakeClock(0.5);
    const reads: number[] = [];
    await poll({
      clock,
      maxMs: 10_000,
      async read() {
        reads.push(clock.t);
        clock.t += 1_000; // the read itself took a second (a paced send)
        return false;
      },
    });
    expect(gaps(reads).every((gap) => gap === 2_500)).toBe(true);
    expect(clock.slept.every((ms) => ms === 1_500)).toBe(true);
  });

  it('with advance, moves the server clock instead of waiting, and ends when advance answers false', async () => {
    const clock = fakeClock();
    const moves: number[] = [];
    const outcome = await poll({ clock, maxMs: 60_000, read: async () => false, advance: async (round) => (moves.push(round), round < 2) });
    expect(outcome).toMatchObject({ done: false, reads: 3 });
    expect(moves).toEqual([0, 1, 2]);
    expect(clock.slept).toEqual([]);
  });
});

describe('settleJobs without the control API', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('polls the job at spec 8.7 pace on the run clock (the transport clock), until it is terminal', async () => {
    const clock = fakeClock(0.5);
    const jobReads: number[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      const path = new URL(url).pathname;
      if (path === '/api/auth/token/integration') return Response.json({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 });
      jobReads.push(clock.t);
      const status = jobReads.length < 4 ? 'PROCESSING' : 'COMPLETED';
      return Response.json({ id: 'job-1', type: 'sima_batch', status });
    });
    const transport = new Transport({}, clock);
    const client = new ConformanceClient({ baseUrl: 'http://vendor.test', apiKey: 'key', contract: loadTargetContract('v1.3.0'), sink: () => {}, tokens: new TokenCache(clock), timeoutMs: 5_000, transport });
    const settled = await settleJobs(client, ['job-1'], { realMs: 90_000 });
    expect(settled.settled).toBe(true);
    expect(settled.statuses.get('job-1')).toBe('COMPLETED');
    expect(jobReads).toHaveLength(4);
    expect(gaps(jobReads)).toEqual([2_500, 2_500, 2_500]);
  });
});
