// The scenarios: what the sandbox does to a tenant while the client works on it. Each sets the tenant's
// faults and settings through the control API before the client starts, and may act during the run
// (`drive`), watching the evidence as it accrues. Every action is recorded for the report's timeline.
import { isExchange, isWrite } from './evidence.js';
import type { SandboxControl } from './sandbox.js';
import type { LoggedRequest } from './types.js';

export interface ScenarioContext {
  control: SandboxControl;
  tenantId: string;
  /** Records an action at the current wall time (and how far the tenant clock was moved in all). */
  record(what: string, clockAdvanceSeconds?: number): void;
  /** True once the client has exited: drive() returns. */
  finished(): boolean;
  sleep(ms: number): Promise<void>;
}

export interface Scenario {
  name: string;
  /** What it provokes, for the report and --help. */
  description: string;
  setup(ctx: ScenarioContext): Promise<void>;
  drive?(ctx: ScenarioContext): Promise<void>;
}

/** How often a driving scenario looks at the evidence (ms). */
const WATCH_MS = 150;

export const steady: Scenario = {
  name: 'steady',
  description: 'no faults: the client\'s own pace, token reuse, idempotency keys and polling are watched',
  async setup() {},
};

/** Every bucket closed at first: the client's first requests are refused 429 with real retry metadata. */
export const CLOSED_LIMITS = { read: { limit: 0, windowMs: 2000 }, write: { limit: 0, windowMs: 2000 }, upload: { limit: 0, windowMs: 2000 } };
/** Then small windows, so that a 429 asks for seconds, not a minute (spec 8.1 leaves the write and upload limits open). */
export const THROTTLED_LIMITS = { read: { limit: 3, windowMs: 2000 }, write: { limit: 1, windowMs: 2000 }, upload: { limit: 1, windowMs: 2000 } };
/** 429s answered before the buckets open (or this long after the first request). */
const CLOSED_FOR = { refusals: 2, ms: 8000 };
/** The write and upload buckets closed again once the client has written: its next write is refused. */
const WRITES_CLOSED = { ...THROTTLED_LIMITS, write: { limit: 0, windowMs: 2000 }, upload: { limit: 0, windowMs: 2000 } };

const refusedWrites = (requests: LoggedRequest[], sinceMs: number) => requests.filter((r) => isWrite(r) && r.status === 429 && Date.parse(r.at) >= sinceMs).length;

export const throttled: Scenario = {
  name: 'throttled',
  description: `every rate bucket of the tenant closed until the client has been refused ${CLOSED_FOR.refusals} times (429 RATE_LIMITED with details.retryAfterSeconds and Retry-After; the token exchange included), then small (read ${THROTTLED_LIMITS.read.limit}, write ${THROTTLED_LIMITS.write.limit}, upload ${THROTTLED_LIMITS.upload.limit} per ${THROTTLED_LIMITS.read.windowMs / 1000} s); after the client's first accepted write, the write and upload buckets close again until a write is refused`,
  async setup(ctx) {
    await ctx.control.setSettings(ctx.tenantId, { rateLimits: CLOSED_LIMITS });
    ctx.record(`rate limits closed: ${JSON.stringify(CLOSED_LIMITS)}`);
  },
  async drive(ctx) {
    let phase: 'closed' | 'open' | 'writes-closed' = 'closed';
    let closedAt = 0;
    while (!ctx.finished()) {
      const requests = await ctx.control.requests(ctx.tenantId);
      const first = requests[0];
      if (phase === 'closed' && (requests.filter((r) => r.status === 429).length >= CLOSED_FOR.refusals || (first && Date.now() - Date.parse(first.at) > CLOSED_FOR.ms))) {
        await ctx.control.setSettings(ctx.tenantId, { rateLimits: THROTTLED_LIMITS });
        ctx.record(`rate limits opened: ${JSON.stringify(THROTTLED_LIMITS)}`);
        phase = 'open';
      } else if (phase === 'open' && requests.some((r) => isWrite(r) && r.status < 300)) {
        closedAt = Date.now();
        await ctx.control.setSettings(ctx.tenantId, { rateLimits: WRITES_CLOSED });
        ctx.record('write and upload buckets closed');
        phase = 'writes-closed';
      } else if (phase === 'writes-closed' && (refusedWrites(requests, closedAt) > 0 || Date.now() - closedAt > CLOSED_FOR.ms)) {
        await ctx.control.setSettings(ctx.tenantId, { rateLimits: THROTTLED_LIMITS });
        ctx.record(`rate limits opened: ${JSON.stringify(THROTTLED_LIMITS)}`);
        return;
      }
      await ctx.sleep(WATCH_MS);
    }
  },
};

/** The writes refused 500: the first write and its retry, then the next write (often an upload). */
export const FLAKY_SERVER_ERRORS = [1, 2, 3];

export const flaky: Scenario = {
  name: 'flaky',
  description: `writes ${FLAKY_SERVER_ERRORS.join(', ')} of the tenant answer 500 INTERNAL_ERROR (a write and its retry, then the next one); once the client has used its token, the tenant clock passes its expiry so that the next request is 401 INVALID_TOKEN`,
  async setup(ctx) {
    await ctx.control.setFaults(ctx.tenantId, { requestChaos: { serverErrorAt: FLAKY_SERVER_ERRORS } });
    ctx.record(`request chaos: writes ${FLAKY_SERVER_ERRORS.join(', ')} answer 500`);
  },
  async drive(ctx) {
    // The token's expiry, once: after the first request made with it, so the client has one to reuse.
    while (!ctx.finished()) {
      const requests = await ctx.control.requests(ctx.tenantId);
      const exchange = requests.find((r) => isExchange(r) && r.status === 200);
      if (exchange && requests.some((r) => !isExchange(r) && Date.parse(r.at) > Date.parse(exchange.at))) {
        const expiresIn = (exchange.response.body as { expires_in?: unknown } | null)?.expires_in;
        const seconds = (typeof expiresIn === 'number' ? expiresIn : 3600) + 1;
        await ctx.control.advanceClock(ctx.tenantId, seconds);
        ctx.record(`tenant clock +${seconds} s: the token expires (next request 401 INVALID_TOKEN)`, seconds);
        return;
      }
      await ctx.sleep(WATCH_MS);
    }
  },
};

/** One kind of chaos per attempt, in this order (the fourth attempt is a delivery's last, spec 6 rule 3). */
export const WEBHOOK_PHASES = ['badSignature', 'wrongPrefix', 'oldTimestamp', 'duplicate'] as const;

export const webhooks: Scenario = {
  name: 'webhooks',
  description: `each webhook attempt altered in turn: ${WEBHOOK_PHASES.join(', ')} (a bad signature, the digest under v0=, a timestamp 600 s old, the same attempt twice); the tenant clock is moved to each retry (30 s, 2 min, 10 min) so they come at once`,
  async setup(ctx) {
    await ctx.control.setFaults(ctx.tenantId, { webhookChaos: { [WEBHOOK_PHASES[0]]: true } });
    ctx.record(`webhook chaos: ${WEBHOOK_PHASES[0]}`);
  },
  async drive(ctx) {
    let phase = 0;
    while (!ctx.finished() && phase < WEBHOOK_PHASES.length) {
      const deliveries = await ctx.control.deliveries(ctx.tenantId);
      const made = deliveries.reduce((n, d) => n + d.attempts.length, 0);
      if (made > phase) {
        // The attempt of this phase was made: the next one gets the next chaos (or none after the last).
        phase += 1;
        const next = WEBHOOK_PHASES[phase];
        await ctx.control.setFaults(ctx.tenantId, next ? { webhookChaos: { [next]: true } } : {});
        ctx.record(next ? `webhook chaos: ${next}` : 'webhook chaos off');
        // A delivery the receiver refused waits for its retry: move the tenant clock to it.
        const waiting = deliveries.find((d) => d.status === 'pending' && d.nextAttemptAt && d.attempts.length > 0);
        // Before the duplicate: the client done polling the job (its reaction to the delivery then stands
        // apart from its polls; a client that never stops polling is judged by polling.stops-when-terminal).
        if (next === 'duplicate' && waiting) await quietOn(ctx, waiting.jobId);
        if (next && waiting) {
          const last = waiting.attempts[waiting.attempts.length - 1]!;
          const seconds = Math.ceil((Date.parse(waiting.nextAttemptAt!) - Date.parse(last.at)) / 1000) + 1;
          await ctx.control.advanceClock(ctx.tenantId, seconds);
          ctx.record(`tenant clock +${seconds} s: retry ${waiting.attempts.length + 1} of delivery ${waiting.id}`, seconds);
        }
        continue;
      }
      await ctx.sleep(WATCH_MS);
    }
  },
};

/** How long the webhooks scenario waits, at most, for the client to read a job terminal before its duplicate. */
const QUIET_LIMIT_MS = 20_000;

/** Waits until the client read the job terminal and then a second more (at most QUIET_LIMIT_MS). */
async function quietOn(ctx: ScenarioContext, jobId: string): Promise<void> {
  const until = Date.now() + QUIET_LIMIT_MS;
  while (!ctx.finished() && Date.now() < until) {
    const requests = await ctx.control.requests(ctx.tenantId);
    const terminal = requests.some((r) => r.method === 'GET' && r.path.endsWith(`/jobs/${jobId}`) && ['COMPLETED', 'FAILED'].includes(String((r.response.body as { status?: unknown } | null)?.status)));
    if (terminal) return ctx.sleep(1000);
    await ctx.sleep(WATCH_MS);
  }
}

export const SCENARIOS: readonly Scenario[] = [steady, throttled, flaky, webhooks];
export const SCENARIO_NAMES = [...SCENARIOS.map((s) => s.name), 'all'] as const;

/** The scenarios a --scenario value runs (`all`: each, on a tenant of its own, at once). */
export function scenariosFor(name: string): Scenario[] {
  if (name === 'all') return [...SCENARIOS];
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown scenario ${name}: one of ${SCENARIO_NAMES.join(', ')}`);
  return [found];
}
