// The suite's one poller: every job or status poll of every check waits between reads as spec 8.7 asks of a
// client ("every 2-3 seconds during the first minute, then every 5-10 seconds with jitter"), on the run's
// clock. In the simulator profile a check may instead move the server's clock through the control API between
// reads (`advance`): the sandbox then runs its jobs in virtual time, and no real wait is needed.
import { REAL_CLOCK, type Clock } from './transport.js';

/** Spec 8.7: the first minute of polling, at 2-3 s between reads. */
export const POLL_FIRST_PHASE_MS = 60_000;

/**
 * The wait before the next read, `elapsedMs` after polling began, with `random` in [0, 1) as the jitter:
 * 2-3 s during the first minute, 5-10 s after it (spec 8.7).
 */
export function specPollIntervalMs(elapsedMs: number, random: number): number {
  return elapsedMs < POLL_FIRST_PHASE_MS ? 2_000 + 1_000 * random : 5_000 + 5_000 * random;
}

export interface PollOptions {
  /** One read of what is polled (`round` counts from 0); true when polling is over (a terminal state). */
  read(round: number): Promise<boolean>;
  /** No read starts later than this after the first one. */
  maxMs: number;
  /** At most this many reads. */
  maxReads?: number;
  /** Time: the run's (the transport's clock); tests give a fake one. */
  clock?: Pick<Clock, 'now' | 'sleep' | 'random'>;
  /**
   * Simulator profile: between reads, moves the server's clock instead of waiting (the control API); answers
   * false when polling should end (nothing moves any more). `maxMs` still bounds the real time.
   */
  advance?: (round: number) => Promise<boolean>;
}

export interface PollOutcome {
  /** Whether a read ended the polling (`read` answered true). */
  done: boolean;
  reads: number;
  elapsedMs: number;
}

/**
 * Reads until `read` answers true, `maxReads` reads were made, or the next read would start past `maxMs`.
 * Each wait runs from the start of the previous read (spec 8.7 gives the pace of reads, not of the gaps after
 * them), so a read slowed by pacing or a 429 (transport.ts) shortens the wait after it.
 */
export async function poll(options: PollOptions): Promise<PollOutcome> {
  const clock = options.clock ?? REAL_CLOCK;
  const began = clock.now();
  const outcome = (done: boolean, reads: number): PollOutcome => ({ done, reads, elapsedMs: clock.now() - began });
  for (let round = 0; ; round++) {
    const readAt = clock.now();
    if (await options.read(round)) return outcome(true, round + 1);
    if (options.maxReads !== undefined && round + 1 >= options.maxReads) return outcome(false, round + 1);
    if (options.advance) {
      if (clock.now() - began >= options.maxMs || !(await options.advance(round))) return outcome(false, round + 1);
      continue;
    }
    const next = readAt + specPollIntervalMs(readAt - began, clock.random());
    if (next - began > options.maxMs) return outcome(false, round + 1);
    await clock.sleep(next - clock.now());
  }
}
