// The vocabulary of the conformance suite: targets, profiles, checks, exchanges, failures, results.
import type { ContractOperation } from '../../contracts/lib/operations.js';

/** readonly: token exchange and GETs only (safe on production). sandbox: full workflows with writes.
 *  simulator: adds checks that need the sandbox control API (virtual clock, settings, tenants). */
export type Profile = 'readonly' | 'sandbox' | 'simulator';
export const PROFILES: Profile[] = ['readonly', 'sandbox', 'simulator'];

/** What a check needs from the target; a check whose needs are not met is skipped with the reason. */
export type Need =
  | 'writes' // creates data (sandbox and simulator profiles)
  | 'admin' // the simulator's /_sim control API (simulator profile with --admin-token)
  | 'secondTenant' // a second tenant's key (--second-api-key, or created through the control API)
  | 'webhookReceiver'; // a receiver the target can reach (--webhook-url, or a local one the simulator allows)

export interface TargetOptions {
  baseUrl: string;
  apiKey: string;
  contract: string;
  profile: Profile;
  seed: number;
  /** Property runs: command sequences per state machine, generated inputs per operation. */
  runs: number;
  secondApiKey?: string;
  adminToken?: string;
  /** Where the control API is, when not at the base URL's root (e.g. the suite runs through a proxy). */
  adminUrl?: string;
  /** A public URL that forwards to the built-in receiver (remote targets). */
  webhookUrl?: string;
  /** Only checks whose id starts with one of these. */
  only?: string[];
  /** Per-request timeout. */
  timeoutMs?: number;
  /** The target's rate limits per bucket (spec 8.1 rule 1), when given (`--rate-limits`): the client paces
   *  each bucket under them from the first request. Absent: learned from the server's 429 details. */
  rateLimits?: RateLimits;
  /** `--max-duration`: no check starts after this long; the checks left are reported "not run". */
  maxDurationMs?: number;
}

/** Spec 8.1 rule 1: the rate buckets of integration-key traffic. */
export type RateBucket = 'read' | 'write' | 'upload';
export const RATE_BUCKETS: RateBucket[] = ['read', 'write', 'upload'];
export type RateLimits = Partial<Record<RateBucket, { limit: number; windowMs: number }>>;
export type BucketCounts = Record<RateBucket, number>;

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Body as sent (JSON text, or a description of a multipart form). */
  body?: string;
}

interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, else the text. */
  body: unknown;
  text: string;
}

export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
  operation?: ContractOperation;
  durationMs: number;
}

export interface Failure {
  /** The rule broken, named for reports (`response-conformance`, `error-code`, `illegal-transition-rejected`...). */
  rule: string;
  message: string;
  exchange?: Exchange;
  /** Property failures: the seed, the shrunk counterexample and the command that replays it. */
  seed?: number;
  counterexample?: string;
  replay?: string;
}

/** `not run`: the run ended (`--max-duration`) before the check started; never certified. */
export type Verdict = 'passed' | 'failed' | 'skipped' | 'not run';
export const VERDICTS: Verdict[] = ['passed', 'failed', 'skipped', 'not run'];

/** Checks per verdict; `notRun` only when a run ended early (absent in reports written before it existed). */
export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  notRun?: number;
}

/** The totals of `results`, with `notRun` only when a check was not run. */
export function totalsOf(results: Array<{ verdict: Verdict }>): Totals {
  const totals = { passed: 0, failed: 0, skipped: 0, notRun: 0 };
  for (const { verdict } of results) totals[verdict === 'not run' ? 'notRun' : verdict]++;
  const { notRun, ...rest } = totals;
  return notRun ? totals : rest;
}

export interface CheckResult {
  id: string;
  title: string;
  area: string;
  verdict: Verdict;
  /** Why a check was skipped or not run. */
  reason?: string;
  failures: Failure[];
  durationMs: number;
  /** Requests the check sent. */
  requests: number;
  /** The same requests per rate bucket, as they went on the wire (harness/request-meter.ts). */
  requestsByBucket?: BucketCounts;
}

export interface RunReport {
  target: { baseUrl: string; contract: string; profile: Profile; seed: number; runs: number };
  server?: string;
  startedAt: string;
  finishedAt: string;
  results: CheckResult[];
  totals: Totals;
  replay: string;
  /** Set when `--max-duration` ended the run before every check had run. */
  stopped?: { maxDurationMs: number; notRun: number };
  /** What the run could not give back to a shared sandbox (simulator profile, harness/run-scope.ts). */
  notes?: string[];
  /** The run's traffic (harness/transport.ts): requests sent per bucket, 429s received per bucket named,
   *  milliseconds spent pacing or waiting as 429s asked. */
  traffic?: { sent: Record<string, number>; limited: Record<string, number>; waitedMs: number };
}
