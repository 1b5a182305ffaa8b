// Completion webhooks (spec 6; contracts/README.md decisions 9, 10, 10a), observed with the suite's built-in
// receiver: the delivery body and headers, the v1 signature over "<timestamp>.<raw body>", the retry
// schedule (30 s, 2 min, 10 min after each failure) with a stable delivery id, the event filter, and the
// refusals at enqueue (blocked targets, plain HTTP with a secret).
//
// Every job is a SIMA batch of one probe SKU (spec 4.2), configured with a webhook whose URL is the
// receiver's plus a path unique to the check, so deliveries are told apart by path (and job id). In the
// simulator profile the virtual clock is advanced through the control API so that jobs end and retries come
// at once; elsewhere the check waits, bounded.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { defineCheck, type CheckContext, type ReceivedDelivery } from '../harness/check.js';
import type { ConformanceClient, RequestOptions } from '../harness/client.js';
import { replayCommand } from '../harness/runner.js';
import { TIMESTAMP_TOLERANCE_SECONDS, verifySignature, type SignatureProblem } from '../harness/signature.js';
import type { Exchange, Failure } from '../harness/types.js';

const BATCH_PATH = '/api/sima/batch';
/** A SKU the batch screens; an unknown SKU is counted, the job still runs (spec 4.2 names no refusal). */
const PROBE_SKU = 'CONFORMANCE-WEBHOOK-PROBE';

/** spec 6 delivery headers, as the receiver sees them (lower case). */
const HEADER = {
  event: 'x-svc-event',
  timestamp: 'x-svc-timestamp',
  deliveryId: 'x-svc-delivery-id',
  attempt: 'x-svc-attempt',
  signature: 'x-svc-signature',
} as const;

/** spec 6 rule 3, decision 9: the waits after attempts 1, 2 and 3 failed, in seconds. */
const RETRY_GAPS_SECONDS = [30, 120, 600] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The contract's pattern for X-SVC-Signature (components/parameters/webhooks.yaml). */
const SIGNATURE_FORMAT = /^v1=[0-9a-f]{64}$/;

/** Simulator profile: each step moves the virtual clock this far, then waits this long in real time. */
const CLOCK_STEP_SECONDS = 5;
const STEP_WAIT_MS = 250;
const MAX_STEPS = 40;
/** Other profiles: how long a job and its first delivery may take. */
const REMOTE_DELIVERY_TIMEOUT_MS = 60_000;
/** How long "nothing arrives" is watched: after a clock advance (simulator), or in real time. */
const QUIET_WAIT_SIMULATOR_MS = 400;
const QUIET_WAIT_REMOTE_MS = 5_000;

interface DeliveryBody {
  id?: unknown;
  event?: unknown;
  createdAt?: unknown;
  job?: { id?: unknown; type?: unknown; status?: unknown; progress?: unknown; updatedAt?: unknown };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bodyOf = (delivery: ReceivedDelivery) => (typeof delivery.body === 'object' && delivery.body !== null ? (delivery.body as DeliveryBody) : {});
const replayOf = (ctx: CheckContext, id: string) => replayCommand(ctx.options, [id]);

function receiverOf(ctx: CheckContext) {
  if (!ctx.receiver) ctx.skip('no webhook receiver');
  return ctx.receiver;
}

/** Seeded values for one check: the secret and the path nonce come from fast-check with the run's seed. */
function seeded(ctx: CheckContext, checkId: string) {
  const salt = [...checkId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
  const [secret, nonce] = fc.sample(
    fc.tuple(fc.stringMatching(/^whsec_[A-Za-z0-9]{24,48}$/), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 })),
    { seed: (ctx.seed ^ salt) | 0, numRuns: 1 },
  )[0];
  return { secret, nonce };
}

/** A webhook target unique to this check and label: the receiver URL plus `/<check>/<nonce>-<label>`. */
function target(ctx: CheckContext, checkId: string, nonce: string, label: string) {
  const suffix = `/${checkId}/${nonce}-${label}`;
  const url = receiverOf(ctx).url.replace(/\/+$/, '') + suffix;
  return { url, suffix, matches: (delivery: ReceivedDelivery) => delivery.path.split('?')[0].endsWith(suffix) };
}

/** The delivery as an exchange for reports: what the service sent, and what the receiver answered. */
function deliveryExchange(delivery: ReceivedDelivery, answered = 204): Exchange {
  return {
    request: { method: 'POST', url: delivery.path, headers: delivery.headers, body: delivery.rawBody },
    response: { status: answered, headers: {}, body: null, text: `(the conformance receiver answered ${answered})` },
    durationMs: 0,
  };
}

/**
 * Sends a tenant request; on 429 waits as spec 7 tells clients to (details.retryAfterSeconds, else
 * Retry-After) and tries again, twice at most, so that buckets filled by other checks do not fail this one.
 * In the simulator profile the wait is a move of the virtual clock.
 */
async function send(ctx: CheckContext, method: string, path: string, options: RequestOptions = {}, client: ConformanceClient = ctx.client): Promise<Exchange> {
  for (let attempt = 0; ; attempt++) {
    const exchange = await client.call(method, path, options);
    if (exchange.response.status !== 429 || attempt >= 2) return exchange;
    const retryAfter = (exchange.response.body as { details?: { retryAfterSeconds?: unknown } })?.details?.retryAfterSeconds;
    const header = Number(exchange.response.headers['retry-after']);
    const wait = Math.max(1, typeof retryAfter === 'number' ? retryAfter : Number.isFinite(header) ? header : 1);
    if (ctx.admin) await ctx.admin.advanceClock(wait);
    else await sleep(Math.min(wait, 30) * 1000);
  }
}

/** Enqueues a SIMA batch (spec 4.2) with a webhook configuration; the job id, or undefined after a failure. */
async function enqueue(ctx: CheckContext, webhook: Record<string, unknown>): Promise<{ jobId: string; exchange: Exchange } | undefined> {
  const exchange = await send(ctx, 'POST', BATCH_PATH, { json: { skus: [PROBE_SKU], ...webhook } });
  const jobId = (exchange.response.body as { jobId?: unknown })?.jobId;
  if (exchange.response.status !== 202 || typeof jobId !== 'string') {
    ctx.fail('enqueue-accepted', `a SIMA batch with a webhook configuration (spec 6) answered ${exchange.response.status}, not 202 with a jobId: ${exchange.response.text.slice(0, 300)}`, exchange);
    return undefined;
  }
  return { jobId, exchange };
}

/** Does this delivery belong to the job? (A body without a job id is kept, so that its problems are reported.) */
const ofJob = (delivery: ReceivedDelivery, jobId: string) => {
  const id = bodyOf(delivery).job?.id;
  return typeof id !== 'string' || id === jobId;
};

/**
 * Waits for the first delivery matching `predicate`. Simulator profile: moves the virtual clock in steps so
 * that the job starts, ends and its delivery is sent; stops moving it as soon as the delivery is seen.
 */
async function awaitDelivery(ctx: CheckContext, predicate: (d: ReceivedDelivery) => boolean): Promise<ReceivedDelivery | undefined> {
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
async function awaitTerminalJob(ctx: CheckContext, jobId: string): Promise<{ status?: string; exchange: Exchange }> {
  const deadline = Date.now() + (ctx.admin ? MAX_STEPS * STEP_WAIT_MS : REMOTE_DELIVERY_TIMEOUT_MS);
  for (;;) {
    const exchange = await send(ctx, 'GET', `/api/jobs/${jobId}`);
    const status = (exchange.response.body as { status?: string })?.status;
    if (exchange.response.status !== 200 || status === 'COMPLETED' || status === 'FAILED' || Date.now() > deadline) return { status, exchange };
    if (ctx.admin) await ctx.admin.advanceClock(CLOCK_STEP_SECONDS);
    // spec 8.7: poll every 2-3 s; the simulator's clock is moved instead.
    await sleep(ctx.admin ? 100 : 2_000);
  }
}

/** The server's "now" in Unix seconds: its clock in the simulator profile (virtual), else the job's updatedAt. */
async function serverNow(ctx: CheckContext, jobId: string): Promise<{ seconds: number; source: string } | undefined> {
  if (ctx.admin) {
    const clock = await ctx.admin.clock();
    return { seconds: Date.parse(clock.now) / 1000, source: 'the sandbox clock (GET /_sim/clock)' };
  }
  const exchange = await send(ctx, 'GET', `/api/jobs/${jobId}`);
  const updatedAt = (exchange.response.body as { updatedAt?: unknown })?.updatedAt;
  if (exchange.response.status !== 200 || typeof updatedAt !== 'string' || Number.isNaN(Date.parse(updatedAt))) return undefined;
  return { seconds: Date.parse(updatedAt) / 1000, source: `the job's updatedAt (${updatedAt})` };
}

const SIGNATURE_RULES: Record<SignatureProblem, string> = {
  'missing-signature': 'webhook-signature-present',
  'missing-prefix': 'webhook-signature-format',
  'invalid-timestamp': 'webhook-timestamp',
  mismatch: 'webhook-signature-valid',
  'stale-timestamp': 'webhook-timestamp-window',
};

/** Checks one delivery's signature against the secret; the timestamp window is around `nowSeconds`. */
function expectSigned(ctx: CheckContext, delivery: ReceivedDelivery, secret: string, now: { seconds: number; source: string } | undefined, extra: Partial<Failure>, answered = 204, what = 'the delivery'): void {
  const exchange = deliveryExchange(delivery, answered);
  const signature = delivery.headers[HEADER.signature];
  const timestamp = delivery.headers[HEADER.timestamp];
  // A missing `v1=` is the verdict's to report; here the digest's form (the contract's pattern).
  if (signature?.startsWith('v1=') && !SIGNATURE_FORMAT.test(signature)) {
    ctx.fail('webhook-signature-format', `${what}: X-SVC-Signature ${JSON.stringify(signature.slice(0, 90))} is not v1= followed by 64 lower-case hex digits (spec 6)`, exchange, extra);
  }
  const verdict = verifySignature(secret, timestamp, delivery.rawBody, signature, {
    nowSeconds: now?.seconds,
    toleranceSeconds: now ? TIMESTAMP_TOLERANCE_SECONDS : Infinity,
  });
  if (verdict.valid) return;
  let message = `${what}: ${verdict.detail} (spec 6)`;
  // The most common mistake, named in the report: a digest of the body alone, without "<timestamp>.".
  if (verdict.problem === 'mismatch' && signature === `v1=${createHmac('sha256', secret).update(delivery.rawBody).digest('hex')}`) {
    message += '; it is the HMAC of the raw body alone, without "<timestamp>."';
  }
  if (verdict.problem === 'stale-timestamp' && now) message += `; now taken from ${now.source}`;
  ctx.fail(SIGNATURE_RULES[verdict.problem!], message, exchange, extra);
}

// ---------------------------------------------------------------------------------------------------------
// spec 6: the delivery of a completed job, its body (WebhookDelivery) and its headers.
export const webhookDelivery = defineCheck({
  id: 'webhooks.delivery',
  title: 'A job with a webhook gets a job.completed delivery whose body and headers follow spec 6',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const { secret, nonce } = seeded(ctx, 'webhooks.delivery');
    const hook = target(ctx, 'webhooks.delivery', nonce, 'nested');
    // The nested form (spec 6, "webhook" object).
    const enqueued = await enqueue(ctx, { webhook: { url: hook.url, secret } });
    if (!enqueued) return;
    const { jobId } = enqueued;
    const delivery = await awaitDelivery(ctx, (d) => hook.matches(d) && ofJob(d, jobId));
    if (!delivery) {
      ctx.fail('webhook-delivered', `no delivery for job ${jobId} reached ${hook.url} (spec 3.1: job.completed or job.failed when the job ends)`, enqueued.exchange);
      return;
    }
    const exchange = deliveryExchange(delivery);
    const body = bodyOf(delivery);
    const validate = ctx.contract.schemas.component('WebhookDelivery');
    if (!validate(delivery.body)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ');
      ctx.fail('webhook-body-schema', `the delivery body does not match the contract's WebhookDelivery schema: ${problems || delivery.rawBody.slice(0, 200)}`, exchange);
    }
    ctx.expect(body.job?.id === jobId, 'webhook-job-id', `the delivery's job.id is ${JSON.stringify(body.job?.id)}, not the enqueued job ${jobId}`, exchange);
    // The job's own record says how it ended; the delivery must tell the same story (spec 3.1, 6).
    const { status: jobStatus, exchange: jobExchange } = await awaitTerminalJob(ctx, jobId);
    if (jobStatus === 'FAILED') {
      ctx.expect(body.event === 'job.failed' && body.job?.status === 'FAILED', 'webhook-event', `the job FAILED but the delivery reads event ${JSON.stringify(body.event)}, job.status ${JSON.stringify(body.job?.status)}`, exchange);
    } else {
      ctx.expect(body.event === 'job.completed', 'webhook-event', `the event of a completed job is ${JSON.stringify(body.event)}, not job.completed (spec 6)`, exchange);
      ctx.expect(body.job?.status === 'COMPLETED', 'webhook-job-status', `job.status in a job.completed delivery is ${JSON.stringify(body.job?.status)}, not COMPLETED`, exchange);
      ctx.expect(body.job?.progress === 100, 'webhook-job-progress', `job.progress of a completed job is ${JSON.stringify(body.job?.progress)}, not 100 (spec 6)`, exchange);
      ctx.expect(jobStatus === 'COMPLETED', 'webhook-job-matches', `GET /api/jobs/${jobId} reads status ${JSON.stringify(jobStatus)} after its job.completed delivery`, jobExchange);
    }
    // spec 6, delivery headers.
    const h = delivery.headers;
    ctx.expect(/^application\/json\s*(;|$)/i.test(h['content-type'] ?? ''), 'webhook-content-type', `Content-Type is ${JSON.stringify(h['content-type'] ?? null)}, not application/json`, exchange);
    ctx.expect(h[HEADER.event] !== undefined && h[HEADER.event] === body.event, 'webhook-event-header', `X-SVC-Event is ${JSON.stringify(h[HEADER.event] ?? null)} but the body's event is ${JSON.stringify(body.event)} (spec 6: the event name)`, exchange);
    const timestamp = h[HEADER.timestamp] ?? '';
    // Seconds, not milliseconds: below 10^11 (the year 5138).
    ctx.expect(/^[0-9]+$/.test(timestamp) && Number(timestamp) < 1e11, 'webhook-timestamp', `X-SVC-Timestamp ${JSON.stringify(h[HEADER.timestamp] ?? null)} is not a Unix timestamp in seconds`, exchange);
    const deliveryId = h[HEADER.deliveryId];
    ctx.expect(deliveryId !== undefined && UUID.test(deliveryId), 'webhook-delivery-id', `X-SVC-Delivery-ID ${JSON.stringify(deliveryId ?? null)} is not a uuid`, exchange);
    ctx.expect(deliveryId !== undefined && deliveryId === body.id, 'webhook-delivery-id', `X-SVC-Delivery-ID ${JSON.stringify(deliveryId ?? null)} differs from the body's id ${JSON.stringify(body.id)} (spec 6: equal)`, exchange);
    ctx.expect(h[HEADER.attempt] === '1', 'webhook-attempt', `X-SVC-Attempt of the first delivery is ${JSON.stringify(h[HEADER.attempt] ?? null)}, not "1"`, exchange);
  },
});

// spec 6, "Signature": v1= + hex HMAC-SHA256 of "<timestamp>.<raw body>", and a current timestamp.
export const webhookSignature = defineCheck({
  id: 'webhooks.signature',
  title: 'A delivery configured with a secret carries a v1 signature over the timestamp and the raw body',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const { secret, nonce } = seeded(ctx, 'webhooks.signature');
    const hook = target(ctx, 'webhooks.signature', nonce, 'top-level');
    const extra: Partial<Failure> = { seed: ctx.seed, counterexample: JSON.stringify({ webhookSecret: secret }), replay: replayOf(ctx, 'webhooks.signature') };
    // The top-level form (spec 6: webhookUrl, webhookSecret).
    const enqueued = await enqueue(ctx, { webhookUrl: hook.url, webhookSecret: secret });
    if (!enqueued) return;
    const delivery = await awaitDelivery(ctx, (d) => hook.matches(d) && ofJob(d, enqueued.jobId));
    if (!delivery) {
      ctx.fail('webhook-delivered', `no delivery for job ${enqueued.jobId} reached ${hook.url}`, enqueued.exchange);
      return;
    }
    // The server's now, not the local clock: a sandbox's clock may run ahead (virtual time).
    const now = await serverNow(ctx, enqueued.jobId);
    if (!now) ctx.fail('webhook-timestamp-window', `could not read the server's time (job ${enqueued.jobId}) to compare X-SVC-Timestamp with`, enqueued.exchange);
    expectSigned(ctx, delivery, secret, now, extra);
  },
});

// spec 6: "X-SVC-Signature ... only when a secret is configured".
export const webhookNoSignatureWithoutSecret = defineCheck({
  id: 'webhooks.no-signature-without-secret',
  title: 'A delivery configured without a secret carries no X-SVC-Signature',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const { nonce } = seeded(ctx, 'webhooks.no-signature-without-secret');
    const hook = target(ctx, 'webhooks.no-signature-without-secret', nonce, 'nested');
    const enqueued = await enqueue(ctx, { webhook: { url: hook.url } });
    if (!enqueued) return;
    const delivery = await awaitDelivery(ctx, (d) => hook.matches(d) && ofJob(d, enqueued.jobId));
    if (!delivery) {
      ctx.fail('webhook-delivered', `no delivery for job ${enqueued.jobId} reached ${hook.url}`, enqueued.exchange);
      return;
    }
    const signature = delivery.headers[HEADER.signature];
    ctx.expect(signature === undefined, 'webhook-unsigned-without-secret', `the delivery carries X-SVC-Signature ${JSON.stringify(signature)} although no secret was configured (spec 6)`, deliveryExchange(delivery));
  },
});

// spec 6: webhookEvents / webhook.events select the events delivered (default: both).
export const webhookEventFilter = defineCheck({
  id: 'webhooks.event-filter',
  title: 'Only the configured events are delivered: a completed job subscribed to job.failed sends nothing',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const { nonce } = seeded(ctx, 'webhooks.event-filter');
    const failedOnly = target(ctx, 'webhooks.event-filter', nonce, 'failed-only');
    const completedOnly = target(ctx, 'webhooks.event-filter', nonce, 'completed-only');
    // Both forms: top-level webhookEvents and nested webhook.events.
    const filtered = await enqueue(ctx, { webhookUrl: failedOnly.url, webhookEvents: ['job.failed'] });
    const subscribed = await enqueue(ctx, { webhook: { url: completedOnly.url, events: ['job.completed'] } });
    if (!filtered || !subscribed) return;

    const delivery = await awaitDelivery(ctx, (d) => completedOnly.matches(d) && ofJob(d, subscribed.jobId));
    if (!delivery) ctx.fail('webhook-delivered', `job ${subscribed.jobId}, subscribed to job.completed, sent no delivery to ${completedOnly.url}`, subscribed.exchange);
    else ctx.expect(bodyOf(delivery).event === 'job.completed', 'webhook-event', `the delivery of job ${subscribed.jobId} (events [job.completed]) reads event ${JSON.stringify(bodyOf(delivery).event)}`, deliveryExchange(delivery));

    const { status, exchange: jobExchange } = await awaitTerminalJob(ctx, filtered.jobId);
    if (status !== 'COMPLETED') {
      const unwanted = receiver.deliveries().find((d) => failedOnly.matches(d) && bodyOf(d).event !== 'job.failed');
      if (unwanted) ctx.fail('webhook-event-filter', `job ${filtered.jobId} (events [job.failed]) was sent a ${JSON.stringify(bodyOf(unwanted).event)} delivery`, deliveryExchange(unwanted));
      if (status === 'FAILED') ctx.skip(`the probe job ${filtered.jobId} FAILED, so a job.completed event could not be filtered out`);
      ctx.fail('job-terminal', `job ${filtered.jobId} did not end in time (status ${JSON.stringify(status)})`, jobExchange);
      return;
    }
    // Well past the end of the job: in the simulator, a minute of virtual time; elsewhere a few seconds.
    if (ctx.admin) {
      await ctx.admin.advanceClock(60);
      await sleep(QUIET_WAIT_SIMULATOR_MS);
    } else {
      await sleep(QUIET_WAIT_REMOTE_MS);
    }
    const unwanted = receiver.deliveries().find((d) => failedOnly.matches(d));
    if (unwanted) {
      ctx.fail('webhook-event-filter', `job ${filtered.jobId} was configured with events [job.failed] and COMPLETED, yet a ${JSON.stringify(bodyOf(unwanted).event)} delivery arrived (spec 6: webhookEvents)`, deliveryExchange(unwanted));
    }
    if (ctx.admin) {
      const { deliveries } = await ctx.admin.deliveries({ jobId: filtered.jobId });
      ctx.expect(deliveries.length === 0, 'webhook-event-filter', `the sandbox lists ${deliveries.length} delivery record(s) for job ${filtered.jobId} (events [job.failed], COMPLETED): ${JSON.stringify(deliveries.map((d) => ({ event: d.event, status: d.status })))}`, jobExchange);
    }
  },
});

// spec 6 rule 3, decision 9: up to 4 attempts; retries 30 s, 2 min and 10 min after each failure; the same
// delivery id and body on every attempt, each attempt signed for its own timestamp.
export const webhookRetrySchedule = defineCheck({
  id: 'webhooks.retry-schedule',
  title: 'A failed delivery is retried 30 s, 2 min and 10 min after each failure with the same id and body',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver', 'admin'],
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const admin = ctx.admin!;
    const { secret, nonce } = seeded(ctx, 'webhooks.retry-schedule');
    const hook = target(ctx, 'webhooks.retry-schedule', nonce, 'retried');
    const extra: Partial<Failure> = { seed: ctx.seed, counterexample: JSON.stringify({ webhookSecret: secret }), replay: replayOf(ctx, 'webhooks.retry-schedule') };
    const answers = [503, 503, 503, 204];
    let jobId = '';
    const mine = (d: ReceivedDelivery) => hook.matches(d) && ofJob(d, jobId);
    const received = () => receiver.deliveries().filter(mine);
    const nth = (n: number) => (d: ReceivedDelivery) => mine(d) && received().length >= n;
    const attempts: Array<{ delivery: ReceivedDelivery; now: { seconds: number; source: string } }> = [];
    const record = async (delivery: ReceivedDelivery) => attempts.push({ delivery, now: await serverNow(ctx, jobId).then((n) => n!) });

    receiver.failNext(3, 503);
    try {
      const enqueued = await enqueue(ctx, { webhookUrl: hook.url, webhookSecret: secret, webhookEvents: ['job.completed', 'job.failed'] });
      if (!enqueued) return;
      jobId = enqueued.jobId;
      const first = await awaitDelivery(ctx, nth(1));
      if (!first) {
        ctx.fail('webhook-delivered', `no delivery for job ${jobId} reached ${hook.url}`, enqueued.exchange);
        return;
      }
      await record(first);
      for (const [index, gap] of RETRY_GAPS_SECONDS.entries()) {
        const n = index + 2;
        // Just short of the gap: nothing yet. The virtual clock also runs in real time, so the real time
        // since the failure (and the quiet wait to come) is taken off the move: the probe sees gap - 1 s.
        const previous = attempts[attempts.length - 1].delivery;
        const spent = (Date.now() - previous.receivedAt + QUIET_WAIT_SIMULATOR_MS) / 1000 + 0.1;
        const short = gap - 1 - spent;
        await admin.advanceClock(Math.max(0, short));
        await sleep(QUIET_WAIT_SIMULATOR_MS);
        const early = received()[n - 1];
        if (early) {
          ctx.fail('webhook-retry-gap', `attempt ${n} arrived less than ${gap} s (virtual) after attempt ${n - 1} failed: the clock stood about ${gap - 1} s after the failure (spec 6 rule 3, decision 9: retries 30 s, 2 min, 10 min after each failure)`, deliveryExchange(early, answers[n - 1]));
          await record(early);
          continue;
        }
        // Past the gap (with a margin for the real time the probe itself took).
        await admin.advanceClock(1.5);
        const next = await receiver.waitFor(nth(n), 5_000).catch(() => undefined);
        if (!next) {
          ctx.fail('webhook-retry-attempted', `attempt ${n} did not arrive ${gap} s after attempt ${n - 1} failed with ${answers[n - 2]} (spec 6 rule 3: retries after 30 s, 2 min and 10 min)`, deliveryExchange(attempts[attempts.length - 1].delivery, answers[n - 2]));
          return;
        }
        await record(received()[n - 1]);
      }
      // Attempt 4 succeeded: no fifth attempt, even much later.
      await admin.advanceClock(RETRY_GAPS_SECONDS[2] + 60);
      await sleep(QUIET_WAIT_SIMULATOR_MS);
      const extraAttempts = received().slice(4);
      if (extraAttempts.length) ctx.fail('webhook-no-retry-after-success', `${extraAttempts.length} more attempt(s) arrived after attempt 4 was answered 204 (spec 6 rules 1 and 3)`, deliveryExchange(extraAttempts[0]));
    } finally {
      receiver.failNext(0);
    }

    const firstBody = bodyOf(attempts[0].delivery);
    for (const [index, { delivery, now }] of attempts.entries()) {
      const n = index + 1;
      const exchange = deliveryExchange(delivery, answers[index]);
      const h = delivery.headers;
      ctx.expect(h[HEADER.attempt] === String(n), 'webhook-attempt', `attempt ${n} carries X-SVC-Attempt ${JSON.stringify(h[HEADER.attempt] ?? null)}`, exchange);
      ctx.expect(h[HEADER.deliveryId] === bodyOf(delivery).id, 'webhook-delivery-id', `attempt ${n}: X-SVC-Delivery-ID ${JSON.stringify(h[HEADER.deliveryId] ?? null)} differs from the body's id ${JSON.stringify(bodyOf(delivery).id)}`, exchange);
      if (n > 1) {
        ctx.expect(bodyOf(delivery).id === firstBody.id && h[HEADER.deliveryId] === attempts[0].delivery.headers[HEADER.deliveryId], 'webhook-delivery-id-stable', `attempt ${n} has delivery id ${JSON.stringify(h[HEADER.deliveryId] ?? null)} (body ${JSON.stringify(bodyOf(delivery).id)}), attempt 1 had ${JSON.stringify(firstBody.id)} (spec 6: the same on retries)`, exchange);
        ctx.expect(delivery.rawBody === attempts[0].delivery.rawBody, 'webhook-body-stable', `attempt ${n} sent another body than attempt 1 (a retry resends the same delivery)`, exchange);
      }
      expectSigned(ctx, delivery, secret, now, extra, answers[index], `attempt ${n}`);
    }
    if (attempts.length < 4) return;
    const { deliveries } = await admin.deliveries({ jobId });
    const stored = deliveries.filter((d) => d.event === 'job.completed' || d.event === 'job.failed');
    const summary = JSON.stringify(stored.map((d) => ({ id: d.id, status: d.status, attempts: (d.attempts ?? []).map((a: { statusCode?: unknown }) => a.statusCode) })));
    if (ctx.expect(stored.length === 1, 'webhook-delivery-record', `the sandbox lists ${stored.length} deliveries for job ${jobId}, not 1: ${summary}`)) {
      const [record] = stored;
      ctx.expect(record.status === 'delivered' && Array.isArray(record.attempts) && record.attempts.length === 4, 'webhook-delivery-record', `the sandbox's delivery record is not delivered after 4 attempts: ${summary}`);
      ctx.expect(record.id === firstBody.id, 'webhook-delivery-record', `the sandbox's delivery id ${JSON.stringify(record.id)} is not the id the receiver saw (${JSON.stringify(firstBody.id)})`);
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Refusals at enqueue (spec 6 rule 4, decision 10): a literal blocked target is 400 INVALID_REQUEST naming
// the URL field, and no job is created.

/** The webhook URL field of each configuration form, as details.field may name it. */
const URL_FIELDS = {
  webhookUrl: (field: unknown) => field === 'webhookUrl',
  'webhook.url': (field: unknown) => typeof field === 'string' && /^\/?webhook(\.|\/|\[)url\]?$/.test(field),
};
const SECRET_FIELDS = ['webhookSecret', 'webhook.secret', 'webhook/secret', 'webhook[secret]'];
type Form = keyof typeof URL_FIELDS;

const configure = (form: Form, url: string, secret?: string) =>
  form === 'webhookUrl' ? { webhookUrl: url, ...(secret ? { webhookSecret: secret } : {}) } : { webhook: { url, ...(secret ? { secret } : {}) } };

/** What is wrong with the answer to an enqueue that should be refused, or null. */
function refusalProblem(exchange: Exchange, form: Form, allowSecretField = false): string | null {
  const { status, body } = exchange.response;
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; details?: { field?: unknown } };
  if (status !== 400) return `answered ${status}${envelope.code ? ` ${envelope.code}` : ''}, not 400 INVALID_REQUEST`;
  if (envelope.code !== 'INVALID_REQUEST') return `answered 400 with code ${JSON.stringify(envelope.code ?? null)}, not INVALID_REQUEST`;
  const field = envelope.details?.field;
  if (URL_FIELDS[form](field) || (allowSecretField && SECRET_FIELDS.includes(field as string))) return null;
  return `answered 400 INVALID_REQUEST with details.field ${JSON.stringify(field ?? null)}, not the webhook URL field (${form})`;
}

/** Blocked literal targets of spec 6 rule 4, generated: a host in each blocked range, `localhost`, `::1`. */
function blockedTargets(receiverHost: string): fc.Arbitrary<string> {
  const octet = fc.integer({ min: 0, max: 255 });
  const host = fc.oneof(
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
    fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `169.254.${c}.${d}`),
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `127.${b}.${c}.${d}`),
    fc.constantFrom('localhost', 'LOCALHOST', '[::1]'),
  );
  const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
  const path = fc.constantFrom('/hook', '/x', '/latest/meta-data', '/');
  return fc
    .tuple(fc.constantFrom('http', 'https'), host, port, path)
    // A sandbox may list the receiver's own host for local testing; it is not a probe of the blocklist.
    .filter(([, h]) => h !== receiverHost && h !== '127.0.0.1')
    .map(([scheme, h, p, rest]) => `${scheme}://${h}${p === undefined ? '' : `:${p}`}${rest}`);
}

/** The jobs the tenant can see: count and ids of the first page (spec 4.1). */
async function jobSnapshot(ctx: CheckContext, client: CheckContext['client']) {
  const exchange = await send(ctx, 'GET', '/api/jobs?limit=100', {}, client);
  const body = exchange.response.body as { jobs?: Array<{ id?: string }>; count?: number };
  return { exchange, count: typeof body?.count === 'number' ? body.count : undefined, ids: new Set((body?.jobs ?? []).map((j) => j.id)) };
}

export const webhookSsrfRefusedAtEnqueue = defineCheck({
  id: 'webhooks.ssrf-refused-at-enqueue',
  title: 'An enqueue whose webhook targets a blocked address is refused with 400 INVALID_REQUEST and creates no job',
  area: 'webhooks',
  needs: ['writes'],
  async run(ctx) {
    // A fresh tenant when the control API is there: its job list starts empty and stays so.
    let client = ctx.client;
    let fresh = false;
    if (ctx.admin) {
      const tenant = await ctx.admin.createTenant({ name: 'Conformance webhooks SSRF' });
      client = ctx.client.withApiKey(tenant.integrationKey);
      fresh = true;
    }
    const before = await jobSnapshot(ctx, client);
    const receiverHost = ctx.receiver ? new URL(ctx.receiver.url).hostname : '';
    const problems = new Map<string, { message: string; exchange: Exchange }>();
    const keyOf = (input: [string, Form]) => JSON.stringify(input);
    const property = fc.asyncProperty(blockedTargets(receiverHost), fc.constantFrom<Form>('webhookUrl', 'webhook.url'), async (url, form) => {
      const exchange = await send(ctx, 'POST', BATCH_PATH, { json: { skus: [PROBE_SKU], ...configure(form, url) } }, client);
      const problem = refusalProblem(exchange, form);
      if (problem) problems.set(keyOf([url, form]), { message: `a webhook to ${url} (${form === 'webhookUrl' ? 'top-level' : 'nested'} form) ${problem}`, exchange });
      return problem === null;
    });
    // The spec's named cases first (spec 6 rule 4), then generated addresses of every blocked range.
    const examples: Array<[string, Form]> = [
      ['http://10.0.0.5/hook', 'webhookUrl'],
      ['http://169.254.169.254/latest/meta-data', 'webhookUrl'],
      ['http://localhost:8080/x', 'webhookUrl'],
      ['http://[::1]/x', 'webhookUrl'],
      ['http://10.0.0.5/hook', 'webhook.url'],
      ['http://169.254.169.254/latest/meta-data', 'webhook.url'],
    ];
    const result = await fc.check(property, { seed: ctx.seed, numRuns: Math.max(1, Math.min(ctx.runs, 10)), examples });
    if (result.failed) {
      const counterexample = result.counterexample as [string, Form] | null;
      const found = counterexample ? problems.get(keyOf(counterexample)) : undefined;
      const message = found?.message ?? `the property failed: ${String(result.errorInstance ?? 'unknown error')}`;
      ctx.fail('webhook-ssrf-refused', `${message} (spec 6 rule 4, decision 10)`, found?.exchange, {
        seed: ctx.seed,
        counterexample: JSON.stringify(counterexample),
        replay: replayOf(ctx, 'webhooks.ssrf-refused-at-enqueue'),
      });
    }
    // No job was created by any refused request.
    const after = await jobSnapshot(ctx, client);
    const created = [...after.ids].filter((id) => !before.ids.has(id));
    const grew = before.count !== undefined && after.count !== undefined && after.count > before.count;
    if (created.length || grew || (fresh && after.count !== undefined && after.count > 0)) {
      ctx.fail('webhook-ssrf-no-job', `refused enqueues created jobs: the job list count went from ${before.count} to ${after.count}${created.length ? `, new jobs ${created.slice(0, 5).join(', ')}` : ''}${fresh ? ' on a fresh tenant' : ''}`, after.exchange);
    }
  },
});

// spec 6 (HTTPS required when a secret is set), decision 10a: a server rule, 400 INVALID_REQUEST.
export const webhookHttpsRequiredWithSecret = defineCheck({
  id: 'webhooks.https-required-with-secret',
  title: 'A plain-HTTP webhook URL with a secret is refused with 400 INVALID_REQUEST',
  area: 'webhooks',
  needs: ['writes'],
  async run(ctx) {
    const { secret } = seeded(ctx, 'webhooks.https-required-with-secret');
    const url = 'http://hooks.example.com/x';
    for (const form of ['webhookUrl', 'webhook.url'] as const) {
      const exchange = await send(ctx, 'POST', BATCH_PATH, { json: { skus: [PROBE_SKU], ...configure(form, url, secret) } });
      const problem = refusalProblem(exchange, form, true);
      if (problem) ctx.fail('webhook-https-with-secret', `a webhook to ${url} with a secret (${form === 'webhookUrl' ? 'top-level' : 'nested'} form) ${problem} (spec 6: HTTPS required when a secret is set)`, exchange);
    }
  },
});

/** The webhook checks, in the order they run (the retry schedule moves the clock most, so it comes late). */
export const webhookChecks = [
  webhookDelivery,
  webhookSignature,
  webhookNoSignatureWithoutSecret,
  webhookEventFilter,
  webhookRetrySchedule,
  webhookSsrfRefusedAtEnqueue,
  webhookHttpsRequiredWithSecret,
];
