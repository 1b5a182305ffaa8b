// The budget of a run: how many requests the selected checks send per rate bucket (spec 8.1 rule 1: read,
// write, upload), what the target's limits allow, and so how long the run should take: the run plan the CLI
// prints before the first request. The request counts are measured, not guessed: `conformance/budget/
// baseline.json` holds what every check sent in a real run of the whole suite at two `--runs` values
// (`npm run conform:baseline` records it again; budget.test.ts fails when a check of the suite has no
// entry). A count between or beyond the two runs values is read off the line through them: property checks
// send a number of requests proportional to their runs, the rest a fixed number.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BucketCounts, Need, Profile, RateBucket, RateLimits, TargetOptions } from './types.js';
import { RATE_BUCKETS } from './types.js';

/** conformance/budget/baseline.json beside this module in the sources, or, from a bundle built elsewhere in the
 *  package (build/cli/conform.mjs, which `tfas conform` runs), the nearest ancestor's. */
export const BASELINE_FILE = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    for (const file of [path.join(dir, 'budget', 'baseline.json'), path.join(dir, 'conformance', 'budget', 'baseline.json')]) if (existsSync(file)) return file;
  }
  return path.join(here, '..', 'budget', 'baseline.json');
})();

/** What one check sent in the baseline run at one `--runs` value, and how long it took. */
export interface BaselinePoint extends BucketCounts {
  ms: number;
}

export interface Baseline {
  contract: string;
  /** The profile the baseline run used; its checks ran with the control API (clocks moved, nothing skipped). */
  profile: Profile;
  seed: number;
  recordedAt: string;
  /** The two `--runs` values measured. */
  runs: [number, number];
  /** Check id → what it sent at each runs value (keyed by the value). */
  checks: Record<string, Record<string, BaselinePoint>>;
}

export const emptyCounts = (): BucketCounts => ({ read: 0, write: 0, upload: 0 });

/** Spec 8.1 rule 1: GET/HEAD/OPTIONS read; a multipart form (the upload paths) upload; any other mutation write. */
export function bucketOfRequest(method: string, body: unknown): RateBucket {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return 'read';
  return typeof FormData !== 'undefined' && body instanceof FormData ? 'upload' : 'write';
}

let loaded: Baseline | undefined;
export function loadBaseline(file = BASELINE_FILE): Baseline {
  if (file !== BASELINE_FILE) return JSON.parse(readFileSync(file, 'utf8')) as Baseline;
  loaded ??= JSON.parse(readFileSync(file, 'utf8')) as Baseline;
  return loaded;
}

/** The requests (and milliseconds) of one check at `runs`, on the line through the baseline's two points. */
export function estimateOf(baseline: Baseline, checkId: string, runs: number): BaselinePoint | undefined {
  const points = baseline.checks[checkId];
  if (!points) return undefined;
  const [lowRuns, highRuns] = baseline.runs;
  const low = points[String(lowRuns)];
  const high = points[String(highRuns)];
  if (!low || !high) return low ?? high;
  const at = (key: keyof BaselinePoint) => Math.max(0, Math.round(low[key] + ((high[key] - low[key]) * (runs - lowRuns)) / (highRuns - lowRuns)));
  return { read: at('read'), write: at('write'), upload: at('upload'), ms: at('ms') };
}

export interface RunPlan {
  checks: number;
  /** Checks with no baseline entry: their requests are not in the totals. */
  unestimated: string[];
  requests: BucketCounts;
  /** The limits given with --rate-limits; undefined: learned from the server's 429s while the run goes. */
  limits?: RateLimits;
  /** How long the checks took in the baseline run (the simulator profile moves its clocks: other profiles wait for real jobs). */
  checksMs: number;
  /** The least time the given limits allow for these requests (0 without limits). */
  limitsMs: number;
  /** The bucket that sets `limitsMs`. */
  limitingBucket?: RateBucket;
  /** Integration keys the requests go out as: a second tenant's key (--second-api-key) doubles what a window serves. */
  keys: number;
  /** The larger of the two: what the run should take at least. */
  expectedMs: number;
  /** Per check id, its share of the expected time (the progress bar's weights). */
  weights: Record<string, number>;
  baseline: Pick<Baseline, 'profile' | 'runs' | 'contract'>;
}

/**
 * The plan of a run of `checkIds` at `runs`. With limits, a bucket of `limit` per `windowMs` serves at most
 * `limit` requests per window and key: n requests over k keys need ceil(n / (k × limit)) windows, the last one
 * begun, so at least (ceil(n / (k × limit)) - 1) × windowMs. The second key's tenant takes the checks of its
 * lane and whichever spread requests it serves sooner (runner.ts, client.ts), so k = 2 is the best case.
 */
export function planRun(checkIds: string[], runs: number, limits?: RateLimits, baseline: Baseline = loadBaseline(), keys = 1): RunPlan {
  const requests = emptyCounts();
  const unestimated: string[] = [];
  const weights: Record<string, number> = {};
  let checksMs = 0;
  for (const id of checkIds) {
    const estimate = estimateOf(baseline, id, runs);
    if (!estimate) {
      unestimated.push(id);
      continue;
    }
    for (const bucket of RATE_BUCKETS) requests[bucket] += estimate[bucket];
    checksMs += estimate.ms;
  }
  let limitsMs = 0;
  let limitingBucket: RateBucket | undefined;
  for (const bucket of RATE_BUCKETS) {
    const limit = limits?.[bucket];
    if (!limit || requests[bucket] === 0) continue;
    const ms = (Math.ceil(requests[bucket] / (keys * limit.limit)) - 1) * limit.windowMs;
    if (ms > limitsMs) [limitsMs, limitingBucket] = [ms, bucket];
  }
  // Each check weighs its own time plus its requests' share of the time the limits impose on them.
  const perRequest = limitingBucket ? limitsMs / Math.max(1, requests[limitingBucket]) : 0;
  for (const id of checkIds) {
    const estimate = estimateOf(baseline, id, runs);
    weights[id] = Math.max(1, (estimate?.ms ?? 0) + (limitingBucket ? (estimate?.[limitingBucket] ?? 0) * perRequest : 0));
  }
  return {
    checks: checkIds.length,
    unestimated,
    requests,
    ...(limits ? { limits } : {}),
    checksMs,
    limitsMs,
    ...(limitingBucket ? { limitingBucket } : {}),
    keys,
    expectedMs: Math.max(checksMs, limitsMs),
    weights,
    baseline: { profile: baseline.profile, runs: baseline.runs, contract: baseline.contract },
  };
}

/** `read=240,write=120,upload=30` (per minute), or `read=240/60s`: each bucket's limit and window. */
export function parseRateLimits(text: string): RateLimits {
  const limits: RateLimits = {};
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const match = /^(read|write|upload)=(\d+)(?:\/(.+))?$/.exec(item);
    if (!match) throw new Error(`--rate-limits takes bucket=limit[/window] items (buckets read, write, upload; window e.g. 60s, default 1m), got "${item}"`);
    const bucket = match[1] as RateBucket;
    if (limits[bucket]) throw new Error(`--rate-limits gives the ${bucket} bucket twice`);
    const limit = Number(match[2]);
    if (limit < 1) throw new Error(`--rate-limits: the ${bucket} limit must be at least 1, got ${match[2]}`);
    limits[bucket] = { limit, windowMs: match[3] ? parseDuration(match[3], '--rate-limits window') : 60_000 };
  }
  if (!Object.keys(limits).length) throw new Error('--rate-limits needs at least one bucket, e.g. read=240,write=120,upload=30');
  return limits;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `10m`, `1h30m`, `500ms`: a duration with units, in milliseconds. */
export function parseDuration(text: string, name = '--max-duration'): number {
  const trimmed = text.trim();
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length || parts.map((part) => part[0]).join('') !== trimmed) throw new Error(`${name} takes a duration with units such as 90s, 10m or 1h30m, got "${text}"`);
  const ms = parts.reduce((sum, part) => sum + Number(part[1]) * UNIT_MS[part[2]!]!, 0);
  if (!(ms > 0)) throw new Error(`${name} must be more than 0, got "${text}"`);
  return Math.round(ms);
}

/** `read=240,write=120,upload=30` (windows other than a minute as `/90s`): the text --rate-limits reads. */
export function formatRateLimits(limits: RateLimits): string {
  return RATE_BUCKETS.filter((bucket) => limits[bucket])
    .map((bucket) => {
      const { limit, windowMs } = limits[bucket]!;
      return `${bucket}=${limit}${windowMs === 60_000 ? '' : `/${windowMs % 1000 === 0 ? `${windowMs / 1000}s` : `${windowMs}ms`}`}`;
    })
    .join(',');
}

/**
 * Whether a check will run rather than be skipped for a need the options cannot meet: the runner's rules
 * (runner.ts `unmet`) read without side effects, so that the plan counts only what will be sent. A second
 * tenant or a receiver the runner would create through the control API counts as met.
 */
export function expectedToRun(needs: Need[], options: Pick<TargetOptions, 'profile' | 'adminToken' | 'secondApiKey' | 'webhookUrl'>): boolean {
  const writes = options.profile !== 'readonly';
  const admin = options.profile === 'simulator' && Boolean(options.adminToken);
  return needs.every((need) => {
    switch (need) {
      case 'writes':
        return writes;
      case 'admin':
        return admin;
      case 'secondTenant':
        return Boolean(options.secondApiKey) || admin;
      case 'webhookReceiver':
        return writes && (Boolean(options.webhookUrl) || options.profile === 'simulator');
    }
  });
}
