// What the webhook checks share: the probe job (a SIMA batch of one probe SKU, spec 4.2, with a webhook
// configuration), a receiver target unique to each check, and the waits for a delivery, for the job's end
// and for the server's "now" (the virtual clock in the simulator profile, bounded real waits elsewhere).
import fc from 'fast-check';
import type { CheckContext, ReceivedDelivery } from '../../harness/check.js';
import type { ConformanceClient, RequestOptions } from '../../harness/client.js';
import { poll } from '../../harness/poller.js';
import { REAL_CLOCK } from '../../harness/transport.js';
import type { Exchange } from '../../harness/types.js';
import { ENQUEUE_PATH, sleep } from '../jobs-support.js';

/** A SKU the batch screens; an unknown SKU is counted, the job still runs (spec 4.2 names no refusal). */
const PROBE_SKU = 'CONFORMANCE-WEBHOOK-PROBE';

/** spec 6 delivery headers, as the receiver sees them (lower case). */
export const HEADER = {
  event: 'x-svc-event',
  timestamp: 'x-svc-timestamp',
  deliveryId: 'x-svc-delivery-id',
  attempt: 'x-svc-attempt',
  signature: 'x-svc-signature',
} as const;

/** Simulator profile: each step moves the virtual clock this far, then waits this long in real time. */
const CLOCK_STEP_SECONDS = 5;
const STEP_WAIT_MS = 250;
const MAX_STEPS = 40;
/** Other profiles: how long a job and its first delivery may take. */
const REMOTE_DELIVERY_TIMEOUT_MS = 60_000;
/** spec 6 rule 3 (decision 9): the waits after attempts 1, 2 and 3 failed, in seconds. */
export const RETRY_GAPS_SECONDS = [30, 120, 600] as const;
/** How long "nothing arrives" is watched: after a clock advance (simulator), or in real time. */
export const QUIET_WAIT_SIMULATOR_MS = 400;
export const QUIET_WAIT_REMOTE_MS = 5_000;

export interface DeliveryBody {
  id?: unknown;
  event?: unknown;
  createdAt?: unknown;
  job?: { id?: unknown; type?: unknown; status?: unknown; progress?: unknown; updatedAt?: unknown };
}

/** The server's "now" in Unix seconds, and where it was read (for messages). */
export interface ServerNow {
  seconds: number;
  source: string;
}

/** A webhook target of one check: its URL, the path suffix that tells its deliveries apart, and the test. */
export interface WebhookTarget {
  url: string;
  suffix: string;
  matches: (delivery: ReceivedDelivery) => boolean;
}

/** An enqueued probe job: its id and the 202 receipt. */
export interface Enqueued {
  jobId: string;
  exchange: Exchange;
}

export const bodyOf = (delivery: ReceivedDelivery) => (typeof delivery.body === 'object' && delivery.body !== null ? (delivery.body as DeliveryBody) : {});

export function receiverOf(ctx: CheckContext) {
  if (!ctx.receiver) ctx.skip('no webhook receiver');
  return ctx.receiver;
}

/** Seeded values for one check: the secret and the path nonce come from fast-check with the run's seed. */
export function seeded(ctx: CheckContext, checkId: string) {
  const salt = [...checkId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
  const [secret, nonce] = fc.sample(
    fc.tuple(fc.stringMatching(/^whsec_[A-Za-z0-9]{24,48}$/), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 })),
    { seed: (ctx.seed ^ salt) | 0, numRuns: 1 },
  )[0];
  return { secret, nonce };
}

/** A webhook target unique to this check and label: the receiver URL plus `/<check>/<nonce>-<label>`. */
export function target(ctx: CheckContext, checkId: string, nonce: string, label: string): WebhookTarget {
  const suffix = `/${checkId}/${nonce}-${label}`;
  const url = receiverOf(ctx).url.replace(/\/+$/, '') + suffix;
  return { url, suffix, matches: (delivery: ReceivedDelivery) => delivery.path.split('?')[0].endsWith(suffix) };
}

/** A check's seeded secret and its receiver target labelled `label` (`seeded`, then `target`). */
export function seededTarget(ctx: CheckContext, checkId: string, label: string): { secret: string; hook: WebhookTarget } {
  const { secret, nonce } = seeded(ctx, checkId);
  return { secret, hook: target(ctx, checkId, nonce, label) };
}

/** The delivery as an exchange for reports: what the service sent, and what the receiver answered. */
export function deliveryExchange(delivery: ReceivedDelivery, answered = 204): Exchange {
  return {
    request: { method: 'POST', url: delivery.path, headers: delivery.headers, body: delivery.rawBody },
    response: { status: answered, headers: {}, body: null, text: `(the conformance receiver answered ${answered})` },
    durationMs: 0,
  };
}

/** Sends a tenant request (429s are waited out by the client, harness/transport.ts). */
export function send(_ctx: CheckContext, method: string, path: string, options: RequestOptions = {}, client: ConformanceClient = _ctx.client): Promise<Exchange> {
  return client.call(method, path, options);
}

/** Posts a SIMA batch of the probe SKU (spec 4.2) with this webhook configuration, as `client`. */
export function postProbeBatch(ctx: CheckContext, webhook: Record<string, unknown>, client: ConformanceClient = ctx.client): Promise<Exchange> {
  return send(ctx, 'POST', ENQUEUE_PATH, { json: { skus: [PROBE_SKU], ...webhook } }, client);
}

/** Enqueues a SIMA batch (spec 4.2) with a webhook configuration; the job id, or undefined after a failure. */
export async function enqueue(ctx: CheckContext, webhook: Record<string, unknown>): Promise<Enqueued | undefined> {
  const exchange = await postProbeBatch(ctx, webhook);
  const jobId = (exchange.response.body as { jobId?: unknown })?.jobId;
  if (exchange.response.status !== 202 || typeof jobId !== 'string') {
    ctx.fail('enqueue-accepted', `a SIMA batch with a webhook configuration (spec 6) answered ${exchange.response.status}, not 202 with a jobId: ${exchange.response.text.slice(0, 300)}`, exchange);
    return undefined;
  }
  return { jobId, exchange };
}

/** Does this delivery belong to the job? (A body without a job id is kept, so that its problems are reported.) */
export const ofJob = (delivery: ReceivedDelivery, jobId: string) => {
  const id = bodyOf(delivery).job?.id;
  return typeof id !== 'string' || id === jobId;
};

/**
 * Waits for the first delivery matching `predicate`. Simulator profile: moves the virtual clock in steps so
 * that the job starts, ends and its delivery is sent; stops moving it as soon as the delivery is seen.
 */
export async function awaitDelivery(ctx: CheckContext, predicate: (d: ReceivedDelivery) => boolean): Promise<ReceivedDelivery | undefined> {
  const receiver = receiverOf(ctx);
  if (!ctx.admin) return receiver.waitFor(predicate, REMOTE_DELIVERY_TIMEOUT_MS).catch(() => undefined);
  for (let step = 0; step < MAX_STEPS; step++) {
    const seen = receiver.deliveries().find(predicate);
    if (seen) return seen;
    await ctx.admin.advanceClock(CLOCK_STEP_SECONDS);
    const delivery = await receiver.waitFor(predicate, STEP_WAIT_MS).catch(() => undefined);
    if (delivery) return delivery;
  }
  return undefined;
}

/** Polls the job until it is terminal (spec 3.1), moving the virtual clock in the simulator profile. */
export async function awaitTerminalJob(ctx: CheckContext, jobId: string): Promise<{ status?: string; exchange: Exchange }> {
  let last: { status?: string; exchange: Exchange } | undefined;
  const admin = ctx.admin;
  // The harness's poller: spec 8.7's pace, or the simulator's clock moved between reads.
  await poll({
    maxMs: admin ? MAX_STEPS * STEP_WAIT_MS : REMOTE_DELIVERY_TIMEOUT_MS,
    clock: admin ? REAL_CLOCK : ctx.client.transport.clock,
    async read() {
      const exchange = await send(ctx, 'GET', `/api/jobs/${jobId}`);
      const status = (exchange.response.body as { status?: string })?.status;
      last = { status, exchange };
      return exchange.response.status !== 200 || status === 'COMPLETED' || status === 'FAILED';
    },
    ...(admin ? { advance: async () => (await admin.advanceClock(CLOCK_STEP_SECONDS), await sleep(100), true) } : {}),
  });
  return last!;
}

/** The server's "now" in Unix seconds: its clock in the simulator profile (virtual), else the job's updatedAt. */
export async function serverNow(ctx: CheckContext, jobId: string): Promise<ServerNow | undefined> {
  if (ctx.admin) {
    const clock = await ctx.admin.clock();
    return { seconds: Date.parse(clock.now) / 1000, source: 'the sandbox clock (GET /_sim/clock)' };
  }
  const exchange = await send(ctx, 'GET', `/api/jobs/${jobId}`);
  const updatedAt = (exchange.response.body as { updatedAt?: unknown })?.updatedAt;
  if (exchange.response.status !== 200 || typeof updatedAt !== 'string' || Number.isNaN(Date.parse(updatedAt))) return undefined;
  return { seconds: Date.parse(updatedAt) / 1000, source: `the job's updatedAt (${updatedAt})` };
}

/** The first delivery of the enqueued job to `hook`; fails webhook-delivered (`why` appended) when none comes. */
export async function expectDelivery(ctx: CheckContext, hook: WebhookTarget, enqueued: Enqueued, why = ''): Promise<ReceivedDelivery | undefined> {
  const delivery = await awaitDelivery(ctx, (d) => hook.matches(d) && ofJob(d, enqueued.jobId));
  if (!delivery) ctx.fail('webhook-delivered', `no delivery for job ${enqueued.jobId} reached ${hook.url}${why}`, enqueued.exchange);
  return delivery;
}
