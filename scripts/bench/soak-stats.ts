// What the soak (scripts/bench/soak.ts) counts and how it judges it, kept free of I/O so it can be tested:
// a seeded generator for the traffic mix, the tally of requests by kind and status, the memory samples
// and their growth, and the Markdown report that goes into the issue note.

/** The simulator's mulberry32, so a run's mix of kinds and payloads replays from its seed. */
export { seededRandom } from '../../simulator/kernel/ids.js';

/** The key whose weight range `r` (in [0, 1)) falls into; weights need not sum to 1. */
export function pickWeighted<K extends string>(weights: Record<K, number>, r: number): K {
  const entries = Object.entries(weights) as Array<[K, number]>;
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let at = r * total;
  for (const [key, w] of entries) {
    if (at < w) return key;
    at -= w;
  }
  return entries[entries.length - 1][0];
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);

export const median = (xs: number[]) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Growth of `end` over `start` in percent. */
export const growthPercent = (start: number, end: number) => ((end - start) / start) * 100;

export interface MemorySample {
  /** ms since the traffic started */
  at: number;
  rssMb: number;
  heapUsedMb?: number;
}

/**
 * The median of the samples within `windowMs` before `at` (the last sample at least): one sample of RSS
 * jumps with each GC and allocation burst, a window of them says where the process sits.
 */
export function settledAt(samples: MemorySample[], at: number, windowMs: number, field: 'rssMb' | 'heapUsedMb'): number {
  const values = samples.filter((s) => s.at <= at && s.at > at - windowMs).map((s) => s[field]).filter((v): v is number => v !== undefined);
  if (values.length) return median(values);
  const before = samples.filter((s) => s.at <= at && s[field] !== undefined);
  return before.length ? before[before.length - 1][field]! : Number.NaN;
}

/** Requests of one kind: how many, by status (or failure), their latencies, and what went wrong. */
export class Tally {
  readonly byKind = new Map<string, { statuses: Map<string, number>; latencies: number[] }>();
  /** Every unexpected outcome, by a short description; the first example of each is kept. */
  readonly errors = new Map<string, { count: number; example: string }>();

  record(kind: string, status: string, latencyMs: number) {
    let k = this.byKind.get(kind);
    if (!k) this.byKind.set(kind, (k = { statuses: new Map(), latencies: [] }));
    k.statuses.set(status, (k.statuses.get(status) ?? 0) + 1);
    k.latencies.push(latencyMs);
  }

  error(what: string, example: string) {
    const e = this.errors.get(what);
    if (e) e.count++;
    else this.errors.set(what, { count: 1, example: example.slice(0, 400) });
  }

  get errorCount() {
    let n = 0;
    for (const e of this.errors.values()) n += e.count;
    return n;
  }

  get requestCount() {
    let n = 0;
    for (const k of this.byKind.values()) n += k.latencies.length;
    return n;
  }

  /** One Markdown row per kind: requests, statuses, p50 and p99 latency. */
  table(): string {
    const rows = [...this.byKind.entries()].sort(([a], [b]) => a.localeCompare(b));
    const lines = ['| kind | requests | by status | p50 ms | p99 ms |', '|---|--:|---|--:|--:|'];
    for (const [kind, k] of rows) {
      const sorted = [...k.latencies].sort((a, b) => a - b);
      const statuses = [...k.statuses.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join(', ');
      lines.push(`| ${kind} | ${k.latencies.length} | ${statuses} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} |`);
    }
    return lines.join('\n');
  }
}
