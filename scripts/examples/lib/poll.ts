// Polling an asynchronous resource until it settles (spec 8.7): "every 2-3 seconds during the first minute,
// then every 5-10 seconds with jitter". A webhook (spec 6) may end the wait early: it only says that
// something happened, so the state is read once more from the API, which stays the source of truth. A 429
// while polling is handled by the client (it waits `Retry-After`, spec 7).
import { realSleep } from './client.js';

/** spec 8.7: the pause before the next poll, `elapsedMs` after the first one. */
export function pollDelayMs(elapsedMs: number, random: () => number = Math.random): number {
  return elapsedMs < 60_000 ? 2000 + Math.round(1000 * random()) : 5000 + Math.round(5000 * random());
}

export interface PollOptions<T> {
  /** What is polled, for the log and the timeout message. */
  what: string;
  read: () => Promise<T>;
  settled: (value: T) => boolean;
  /** A one-line summary of each read, e.g. the status and progress. */
  describe: (value: T) => string;
  log?: (line: string) => void;
  /** Resolves when a webhook says the resource changed: ends the current pause at once. */
  wake?: Promise<unknown>;
  timeoutMs?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Reads until `settled`, pausing per spec 8.7 between reads; throws after `timeoutMs` (default 10 min). */
export async function pollUntil<T>(options: PollOptions<T>): Promise<T> {
  const log = options.log ?? ((line: string) => console.log(line));
  const sleep = options.sleep ?? realSleep;
  const timeoutMs = options.timeoutMs ?? 600_000;
  const started = Date.now();
  // The wake-up ends one pause; after it the spec's pace applies again (a webhook can precede the state).
  let wakeUnused = options.wake !== undefined;
  let wokenDuringRead = false;
  const wake = options.wake?.then(() => (wokenDuringRead = true));
  let last = '';
  for (;;) {
    const value = await options.read();
    const line = options.describe(value);
    if (line !== last) log(`  poll: ${options.what} ${line}`);
    last = line;
    if (options.settled(value)) return value;
    const elapsed = Date.now() - started;
    if (elapsed > timeoutMs) throw new Error(`${options.what} did not settle within ${Math.round(timeoutMs / 1000)} s (last: ${line})`);
    if (wakeUnused && wokenDuringRead) {
      wakeUnused = false; // the webhook came while reading: read again at once
      continue;
    }
    const pause = sleep(pollDelayMs(elapsed, options.random));
    const woke = await Promise.race([pause.then(() => false), ...(wakeUnused && wake ? [wake.then(() => true)] : [])]);
    if (woke) wakeUnused = false;
  }
}
