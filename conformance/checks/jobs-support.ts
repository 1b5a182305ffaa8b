// What the job, pagination and idempotency checks share: a tenant to write in (a fresh one through the
// control API when the profile has it, else the primary tenant), enqueueing a small SIMA batch (spec 4.2),
// and waiting for jobs to end (the virtual clock in the simulator profile, spec 8.7 polling otherwise).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { AdminClient } from '../harness/admin.js';
import type { CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import { poll } from '../harness/poller.js';
import { REAL_CLOCK } from '../harness/transport.js';
import type { Exchange } from '../harness/types.js';
import { isJobStatus, isTerminalStatus, type JobStatus } from '../models/job.model.js';

export const ENQUEUE_PATH = '/api/sima/batch';

/** SKUs for batch bodies. Unknown SKUs are fine: the job still runs (the spec does not require catalog SKUs). */
export const SKU_POOL = ['CONF-SKU-001', 'CONF-SKU-002', 'CONF-SKU-003', 'CONF-SKU-004', 'CONF-SKU-005'];

export interface WriteTenant {
  client: ConformanceClient;
  /** A tenant created for this check: nothing else writes in it, so counts are exact. */
  fresh: boolean;
  tenantId?: string;
}

/**
 * A tenant to write in. With the control API: a new tenant whose write and read buckets and queue caps are
 * raised (sandbox-defined limits, simulator profile only) so the check measures what it means to. Without it:
 * the primary tenant, shared with the rest of the run.
 */
export async function writeTenant({ client, admin }: Pick<CheckContext, 'client' | 'admin'>, name: string): Promise<WriteTenant> {
  if (!admin) return { client, fresh: false };
  const created = await admin.createTenant({ name });
  await admin.updateSettings(created.tenantId, {
    rateLimits: { read: { limit: 100_000, windowMs: 60_000 }, write: { limit: 100_000, windowMs: 60_000 } },
    queueCaps: { total: 100_000, sima: 100_000 },
  });
  return { client: client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}

/** A small batch body (spec 4.2): a few SKUs, the default run policy. */
export const batchBody = (skus: string[]) => ({ skus, runPolicy: 'always' });

export function enqueue(client: ConformanceClient, body: unknown, idempotencyKey?: string): Promise<Exchange> {
  return client.call('POST', ENQUEUE_PATH, { json: body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });
}

export const errorCode = (exchange: Exchange): unknown => (exchange.response.body as { code?: unknown } | null)?.code;
/** A 429 RATE_LIMITED: after the client (harness/transport.ts) waited it out, one it reported as a failure. */
export const isRateLimited = (exchange: Exchange) => exchange.response.status === 429 && errorCode(exchange) === 'RATE_LIMITED';
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The job id of a 202 receipt, else undefined. */
export function receiptJobId(exchange: Exchange): string | undefined {
  const id = (exchange.response.body as { jobId?: unknown } | null)?.jobId;
  return exchange.response.status === 202 && typeof id === 'string' ? id : undefined;
}

export interface SettleResult {
  /** Last status read per job. */
  statuses: Map<string, JobStatus | undefined>;
  /** Whether every job reached COMPLETED or FAILED. */
  settled: boolean;
  /** Virtual seconds the clock was moved (control API). */
  advancedSeconds: number;
}

/**
 * Waits for jobs to end, through the harness's poller (harness/poller.ts). With the control API: moves the
 * virtual clock between reads, the step doubling while nothing moves (job delays are sandbox-defined), and
 * gives up once nothing moved for an hour of virtual time or `stallMs` of real time, or after `realMs` in
 * all. Without it: reads at spec 8.7's pace (2-3 s apart in the first minute, 5-10 s after) on the run's
 * clock, up to `realMs`. Asserts nothing; `onRead` sees every read.
 */
export async function settleJobs(
  client: ConformanceClient,
  ids: string[],
  options: { admin?: AdminClient; realMs?: number; stallMs?: number; onRead?: (id: string, exchange: Exchange) => void } = {},
): Promise<SettleResult> {
  const statuses = new Map<string, JobStatus | undefined>(ids.map((id) => [id, undefined]));
  const admin = options.admin;
  const stallMs = options.stallMs ?? 1_500;
  const open = () => ids.filter((id) => !isTerminalStatus(statuses.get(id) ?? 'PENDING'));
  let lastChange = performance.now();
  let step = BASE_STEP_SECONDS;
  let advancedSeconds = 0;
  let stillSeconds = 0; // virtual seconds since a job last moved
  let moved = false;
  const outcome = await poll({
    maxMs: options.realMs ?? (admin ? 5_000 : 8_000),
    // The simulator profile's moves are virtual time: its bound is real time. Otherwise the run's clock.
    clock: admin ? REAL_CLOCK : client.transport.clock,
    async read() {
      moved = false;
      for (const id of open()) {
        const exchange = await client.call('GET', `/api/jobs/${id}`);
        options.onRead?.(id, exchange);
        const status = (exchange.response.body as { status?: unknown } | null)?.status;
        if (exchange.response.status === 200 && isJobStatus(status) && status !== statuses.get(id)) {
          moved = true;
          statuses.set(id, status);
        }
      }
      return open().length === 0;
    },
    ...(admin
      ? {
          async advance() {
            const now = performance.now();
            if (moved) {
              lastChange = now;
              step = BASE_STEP_SECONDS;
              stillSeconds = 0;
            } else step = Math.min(step * 2, MAX_STEP_SECONDS);
            if (now - lastChange >= stallMs || stillSeconds >= MAX_STILL_SECONDS) return false;
            await admin.advanceClock(step);
            advancedSeconds += step;
            stillSeconds += step;
            await sleep(20);
            return true;
          },
        }
      : {}),
  });
  return { statuses, settled: outcome.done, advancedSeconds };
}

/** Virtual seconds per clock step while settling: the first step, and the cap of the doubling. */
const BASE_STEP_SECONDS = 5;
const MAX_STEP_SECONDS = 600;
/** Virtual time without any job moving after which a job counts as stuck. */
const MAX_STILL_SECONDS = 3_600;

/** A value drawn from `arbitrary` with the run's seed (the same seed draws the same value). */
export function seeded<T>(arbitrary: fc.Arbitrary<T>, seed: number, index = 0): T {
  return fc.sample(arbitrary, { seed, numRuns: index + 1 })[index];
}

/**
 * A token that makes Idempotency-Keys of this process unique on a shared server (a replay of the same seed
 * must not meet the keys of the run it replays). Only key identity depends on it, never what is checked.
 */
export const RUN_NONCE = randomUUID().slice(0, 8);
