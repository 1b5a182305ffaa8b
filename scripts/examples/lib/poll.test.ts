// The polling pace of spec 8.7 and the early wake-up by a webhook.
import { describe, expect, it } from 'vitest';
import { pollDelayMs, pollUntil } from './poll.js';

describe('pollDelayMs', () => {
  it('pauses 2-3 s during the first minute and 5-10 s after it, the jitter spread across the range (spec 8.7)', () => {
    expect([pollDelayMs(0, () => 0), pollDelayMs(59_999, () => 1)]).toEqual([2000, 3000]);
    expect([pollDelayMs(60_000, () => 0), pollDelayMs(3_600_000, () => 1)]).toEqual([5000, 10_000]);
    expect(pollDelayMs(10_000, () => 0.5)).toBe(2500);
  });
});

describe('pollUntil', () => {
  it('reads until settled, pausing per spec 8.7 between reads', async () => {
    const states = ['PENDING', 'PROCESSING', 'COMPLETED'];
    const pauses: number[] = [];
    const lines: string[] = [];
    const value = await pollUntil({
      what: 'job j',
      read: async () => states.shift()!,
      settled: (s) => s === 'COMPLETED',
      describe: (s) => s,
      log: (l) => lines.push(l),
      random: () => 0,
      sleep: async (ms) => void pauses.push(ms),
    });
    expect(value).toBe('COMPLETED');
    expect(pauses).toEqual([2000, 2000]);
    expect(lines).toEqual(['  poll: job j PENDING', '  poll: job j PROCESSING', '  poll: job j COMPLETED']);
  });

  it('ends a pause at once when the webhook comes, then goes back to the spec pace', async () => {
    let reads = 0;
    let webhook!: () => void;
    const wake = new Promise<void>((resolve) => (webhook = resolve));
    const started = Date.now();
    const value = await pollUntil({
      what: 'job j',
      read: async () => {
        reads += 1;
        if (reads === 1) setTimeout(webhook, 20);
        return reads >= 2 ? 'COMPLETED' : 'PROCESSING';
      },
      settled: (s) => s === 'COMPLETED',
      describe: (s) => s,
      log: () => {},
      wake,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), // a real 2-3 s pause the webhook cuts short
    });
    expect(value).toBe('COMPLETED');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('gives up after the timeout, naming the last state', async () => {
    await expect(
      pollUntil({ what: 'session s', read: async () => 'NORMALIZING', settled: () => false, describe: (s) => s, log: () => {}, timeoutMs: -1, sleep: async () => {} }),
    ).rejects.toThrow('session s did not settle within 0 s (last: NORMALIZING)');
  });
});
