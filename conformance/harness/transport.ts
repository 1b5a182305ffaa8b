// What the suite's client does about the spec's limits, for every request it sends (spec 5.2, 7, 8.1, 8.2):
// the bucket a request falls in (from the contract, as spec 8.1 defines the buckets), pacing per integration
// key and bucket so a run stays under the limits it learned from a 429 or was given, waiting out a 429 as its
// retry metadata asks, the token exchange's backoff, and the token's lifetime. One `Transport` is shared by
// every client of a run, so every check and every tenant's client paces against the same windows.
import { isObject } from '../../contracts/lib/bundle.js';
import type { ContractOperation } from '../../contracts/lib/operations.js';
import type { Exchange } from './types.js';

/** Spec 8.1's rate buckets. */
export type RateBucket = 'read' | 'write' | 'upload';
export const RATE_BUCKETS: readonly RateBucket[] = ['read', 'write', 'upload'];
export interface BucketLimit {
  limit: number;
  windowMs: number;
}
export type RateLimitsOption = Partial<Record<RateBucket, BucketLimit>>;

/** Time, injectable so tests of the transport do not really wait. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1): the jitter of the token exchange's backoff. */
  random(): number;
}
export const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  random: () => Math.random(),
};

/**
 * The simulator profile's time: a wait is a move of the run's virtual clock (`advance`, the control API),
 * as the server counts its windows on that clock; `now` is real time plus what was moved, so holds and
 * windows learned in that time pass as the server's do (other moves of the clock only make them pass sooner).
 */
export function virtualClock(advance: (seconds: number) => Promise<unknown>): Clock {
  let movedMs = 0;
  return {
    now: () => Date.now() + movedMs,
    async sleep(ms) {
      if (ms <= 0) return;
      const seconds = Math.ceil(ms / 1000);
      await advance(seconds);
      movedMs += seconds * 1000;
    },
    random: () => Math.random(),
  };
}

/**
 * Spec 8.1: `read` is GET/HEAD/OPTIONS, `upload` the upload paths (the operations whose request is
 * multipart/form-data, spec 4.3 and 4.4), `write` every other mutation, the token exchange among them.
 * Without a contract operation (a route the contract does not have) the method and the body decide.
 */
export function bucketOf(method: string, operation: ContractOperation | undefined, multipart = false): RateBucket {
  if (['get', 'head', 'options'].includes(method.toLowerCase())) return 'read';
  if (operation) {
    const body = operation.operation.requestBody;
    const content = isObject(body) && isObject(body.content) ? body.content : {};
    return 'multipart/form-data' in content ? 'upload' : 'write';
  }
  return multipart ? 'upload' : 'write';
}

/** The retry metadata of a 429 (spec 7): `details` and the Retry-After header, as far as they are usable. */
export interface RetryMetadata {
  /** Seconds to wait: `details.retryAfterSeconds`, else Retry-After; undefined when the 429 gives neither. */
  retryAfterSeconds?: number;
  bucket?: string;
  limit?: number;
  windowMs?: number;
  /** `details.keyId` (spec 7): the integration key the refused bucket was counted for, if named. */
  keyId?: string;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

export function retryMetadataOf(exchange: Exchange): RetryMetadata {
  const details = (exchange.response.body as { details?: Record<string, unknown> } | null)?.details;
  const fromDetails = isObject(details) ? count(details.retryAfterSeconds) : undefined;
  const header = exchange.response.headers['retry-after'];
  const fromHeader = header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined;
  return {
    retryAfterSeconds: fromDetails ?? fromHeader,
    bucket: isObject(details) && typeof details.bucket === 'string' ? details.bucket : undefined,
    limit: isObject(details) ? count(details.limit) : undefined,
    windowMs: isObject(details) ? count(details.windowMs) : undefined,
    keyId: isObject(details) && typeof details.keyId === 'string' && details.keyId !== '' ? details.keyId : undefined,
  };
}

/** Sends of one key to one bucket: the limit when known, the sends within the last window, a hold. */
interface BucketState {
  limit?: BucketLimit;
  /** Send times, oldest first, within the last window (all of them while the limit is unknown, capped). */
  sent: number[];
  /** No send before this time (a 429 asked to wait until then). */
  holdUntil: number;
  /** Sends of this bucket are admitted one at a time, in order. */
  queue: Promise<void>;
}

/** Per bucket and key: requests sent, 429s received, time spent waiting (for the run's figures). */
export interface TrafficFigures {
  sent: Record<string, number>;
  limited: Record<string, number>;
  waitedMs: number;
}

/**
 * Whose sends a bucket counts, as a run learns it from the server's 429s: `per-key` when a 429 names the key
 * (`details.keyId`, spec 7) and came once that key alone had sent the bucket's limit within its window;
 * `shared` when a 429 came before that (the server counts more than this key's sends: the tenant's, an
 * address's, everyone's). Unknown until a 429 of the bucket says; `shared` stays once seen.
 */
export type BucketScope = 'per-key' | 'shared';

/** The pacing state of a bucket learned to be shared: one for every key. */
const SHARED_KEY = '\u0000shared';

/** A margin on the client's side of a window: the server counts arrivals, the client departures. */
const WINDOW_MARGIN_MS = 500;
/** Remembered send times while a bucket's limit is unknown (more than any limit the suite could meet unseen). */
const UNKNOWN_LIMIT_HISTORY = 2_000;

export class Transport {
  private readonly buckets = new Map<string, BucketState>();
  private readonly scopes = new Map<RateBucket, BucketScope>();
  /** The last limit a 429 taught per bucket: a key of a per-key bucket is paced within it until its own 429. */
  private readonly learnedLimits = new Map<RateBucket, BucketLimit>();
  readonly figures: TrafficFigures = { sent: {}, limited: {}, waitedMs: 0 };

  constructor(
    /** Limits given up front (`--rate-limits`), for every key; a 429's details replace them for its key. */
    private readonly given: RateLimitsOption = {},
    readonly clock: Clock = REAL_CLOCK,
  ) {}

  private state(key: string, bucket: RateBucket): BucketState {
    const id = `${this.scopes.get(bucket) === 'shared' ? SHARED_KEY : key}\u0000${bucket}`;
    let state = this.buckets.get(id);
    if (!state) {
      state = { limit: this.given[bucket] ?? this.learnedLimits.get(bucket), sent: [], holdUntil: 0, queue: Promise.resolve() };
      this.buckets.set(id, state);
    }
    return state;
  }

  /**
   * Forgets `key`'s windows and holds (not its limits): the control API moved the tenant's clock past them
   * (simulator profile), so what was sent and asked in real time no longer counts.
   */
  windowsMoved(key: string) {
    for (const bucket of RATE_BUCKETS) {
      const state = this.state(key, bucket);
      state.sent = [];
      state.holdUntil = 0;
    }
  }

  /** Whose sends `bucket` counts, as learned from the 429s so far (undefined: no 429 has said). */
  scopeOf(bucket: RateBucket): BucketScope | undefined {
    return this.scopes.get(bucket);
  }

  /** How long a send of `key` in `bucket` would wait now (its window and any hold), without sending. */
  waitOf(key: string, bucket: RateBucket): number {
    const state = this.state(key, bucket);
    const now = this.clock.now();
    return Math.max(0, state.holdUntil - now, this.windowWait(state, now));
  }

  /** The limit paced against for `key`'s `bucket`, if known. */
  limitOf(key: string, bucket: RateBucket): BucketLimit | undefined {
    return this.state(key, bucket).limit;
  }

  /**
   * Waits until one more request of `key` in `bucket` stays within the bucket's limit (a sliding window of
   * `windowMs`: at most `limit` sends in any window, so in every fixed window too) and past any hold a 429
   * asked for, then counts the send. `paced: false` counts without waiting (a check provoking the limit).
   */
  async admit(key: string, bucket: RateBucket, paced = true): Promise<void> {
    const state = this.state(key, bucket);
    const turn = state.queue.then(async () => {
      if (paced) {
        for (;;) {
          const now = this.clock.now();
          const wait = Math.max(state.holdUntil - now, this.windowWait(state, now));
          if (wait <= 0) break;
          this.figures.waitedMs += wait;
          await this.clock.sleep(wait);
        }
      }
      state.sent.push(this.clock.now());
      this.figures.sent[bucket] = (this.figures.sent[bucket] ?? 0) + 1;
      this.trim(state, this.clock.now());
    });
    state.queue = turn.catch(() => {});
    return turn;
  }

  /**
   * What a rate-bucket 429 of `key` says about whose sends the bucket counts (BucketScope). The server counts
   * arrivals in its window and this client counted the key's departures over the same window (plus a margin),
   * so a bucket counted per key cannot refuse a key that sent fewer than the limit within the last window.
   */
  private learnScope(key: string, bucket: RateBucket, metadata: RetryMetadata) {
    if (this.scopes.get(bucket) === 'shared') return;
    const limit = metadata.limit !== undefined && metadata.limit > 0 ? metadata.limit : this.state(key, bucket).limit?.limit;
    const windowMs = metadata.windowMs !== undefined && metadata.windowMs > 0 ? metadata.windowMs : this.state(key, bucket).limit?.windowMs;
    if (limit === undefined || windowMs === undefined) return;
    const now = this.clock.now();
    const sentInWindow = this.state(key, bucket).sent.filter((at) => now - at <= windowMs + WINDOW_MARGIN_MS).length;
    if (sentInWindow < limit) {
      // From now on one pacing state serves every key in this bucket, holding what the 429 asks.
      this.scopes.set(bucket, 'shared');
      return;
    }
    if (metadata.keyId !== undefined) this.scopes.set(bucket, 'per-key');
  }

  /** How long until the oldest send in the window leaves it, when the window is full. */
  private windowWait(state: BucketState, now: number): number {
    if (!state.limit || state.limit.limit <= 0) return 0;
    this.trim(state, now);
    if (state.sent.length < state.limit.limit) return 0;
    return state.sent[state.sent.length - state.limit.limit] + state.limit.windowMs + WINDOW_MARGIN_MS - now;
  }

  private trim(state: BucketState, now: number) {
    const keep = state.limit ? state.limit.windowMs + WINDOW_MARGIN_MS : Number.POSITIVE_INFINITY;
    let drop = 0;
    while (drop < state.sent.length && now - state.sent[drop] >= keep) drop++;
    if (!state.limit && state.sent.length - drop > UNKNOWN_LIMIT_HISTORY) drop = state.sent.length - UNKNOWN_LIMIT_HISTORY;
    if (drop) state.sent.splice(0, drop);
  }

  /**
   * Learns from a 429 of `key` (spec 7, 8.1): a rate bucket's `limit` and `windowMs` from its details, and a
   * hold on the bucket the request was counted in until `retryAfterSeconds` has passed. A queue-admission
   * 429 (spec 8.2: another bucket name, a cap on jobs in flight, not on requests) holds nothing: only the
   * refused request waits.
   */
  learn(key: string, requestBucket: RateBucket, metadata: RetryMetadata) {
    this.figures.limited[metadata.bucket ?? requestBucket] = (this.figures.limited[metadata.bucket ?? requestBucket] ?? 0) + 1;
    const named = metadata.bucket as RateBucket | undefined;
    const bucket = named === undefined ? requestBucket : RATE_BUCKETS.includes(named) ? named : undefined;
    if (!bucket) return;
    this.learnScope(key, bucket, metadata);
    const state = this.state(key, bucket);
    if (metadata.limit !== undefined && metadata.limit > 0 && metadata.windowMs !== undefined && metadata.windowMs > 0) {
      state.limit = { limit: metadata.limit, windowMs: metadata.windowMs };
      this.learnedLimits.set(bucket, state.limit);
      // Keys of the bucket not yet refused pace within it too (the same server, the same kind of key).
      for (const [id, other] of this.buckets) if (id.endsWith(`\u0000${bucket}`) && !other.limit) other.limit = state.limit;
    }
    if (metadata.retryAfterSeconds !== undefined) {
      state.holdUntil = Math.max(state.holdUntil, this.clock.now() + metadata.retryAfterSeconds * 1000 + WINDOW_MARGIN_MS);
      // The server says when the bucket serves again (spec 7): its window starts afresh then, so the sends
      // before it no longer count against the pace (a server that frees one slot at a time answers 429
      // again, which is waited out the same way).
      state.sent = [];
    }
  }
}

/** A bearer token and when it stops being used: shortly before `expires_in` runs out (spec 2.1, 5.2). */
interface CachedToken {
  token: string;
  renewAt: number;
}

/** Bearer tokens per integration key, shared by every check of a run. */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  constructor(private readonly clock: Pick<Clock, 'now'> = REAL_CLOCK) {}

  get(key: string): string | undefined {
    const cached = this.tokens.get(key);
    if (cached && this.clock.now() < cached.renewAt) return cached.token;
    return undefined;
  }

  /** Keeps `token` until a minute (at most a tenth of its lifetime) before `expiresInSeconds` runs out. */
  set(key: string, token: string, expiresInSeconds?: number) {
    const lifetimeMs = (expiresInSeconds !== undefined && Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds : 3600) * 1000;
    this.tokens.set(key, { token, renewAt: this.clock.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 10) });
  }

  drop(key: string) {
    this.tokens.delete(key);
  }
}

/** Spec 7: the token exchange retries up to 3 times on 429/5xx, backing off 1 s, 2 s, 4 s plus jitter. */
export const TOKEN_EXCHANGE_BACKOFF_MS = [1_000, 2_000, 4_000];
/** The jitter added to each backoff step: up to half of it. */
export const backoffWithJitter = (step: number, random: number) => TOKEN_EXCHANGE_BACKOFF_MS[step] * (1 + random / 2);

/**
 * How long a refused request keeps waiting, past what the first 429 asked: a rate bucket's window turns
 * within `windowMs`, and a queue-admission cap frees up as jobs end (spec 8.7: a job is polled for minutes).
 */
export const PERSISTENT_429_BOUND_MS = 70_000;
/** At most this many sends of one request while it is answered 429. */
export const MAX_429_RETRIES = 8;
