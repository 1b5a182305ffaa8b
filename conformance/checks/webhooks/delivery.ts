// spec 6: the delivery of a completed job, its body (WebhookDelivery) and its headers. The body's `job` is the
// job as it ended (spec 3.1: a terminal job moves no more), so its createdAt, updatedAt and progress are the
// instants and value GET /api/jobs/{id} reads once the job is terminal; the delivery is made when the job
// ends, so its createdAt is not before the job's updatedAt, and an attempt (X-SVC-Timestamp, "of the
// delivery") is not before the delivery was created (both to the second, as the header counts).
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { awaitTerminalJob, bodyOf, deliveryExchange, enqueue, expectDelivery, HEADER, seededTarget } from './probe.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const webhookDelivery = defineCheck({
  id: 'webhooks.delivery',
  title: 'A job with a webhook gets a job.completed delivery whose body and headers follow spec 6',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const { secret, hook } = seededTarget(ctx, 'webhooks.delivery', 'nested');
    // The nested form (spec 6, "webhook" object).
    const enqueued = await enqueue(ctx, { webhook: { url: hook.url, secret } });
    if (!enqueued) return;
    const { jobId } = enqueued;
    const delivery = await expectDelivery(ctx, hook, enqueued, ' (spec 3.1: job.completed or job.failed when the job ends)');
    if (!delivery) return;
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
    judgeTimestamps(ctx, body as DeliveryBody, jobExchange, delivery.headers[HEADER.timestamp], exchange);
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

interface DeliveryBody {
  createdAt?: unknown;
  job?: { createdAt?: unknown; updatedAt?: unknown; progress?: unknown };
}

/** Milliseconds of an ISO 8601 date-time, or undefined. */
const instant = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

/** The delivery's timestamps and progress against the terminal job's own record (spec 2.2, 3.1, 6). */
function judgeTimestamps(ctx: CheckContext, body: DeliveryBody, jobExchange: Exchange, timestampHeader: string | undefined, exchange: Exchange) {
  const job = (jobExchange.response.body ?? {}) as { status?: unknown; createdAt?: unknown; updatedAt?: unknown; progress?: unknown };
  if (jobExchange.response.status !== 200 || (job.status !== 'COMPLETED' && job.status !== 'FAILED')) return;
  const shown = (value: unknown) => JSON.stringify(value ?? null);
  for (const field of ['createdAt', 'updatedAt'] as const) {
    const sent = instant(body.job?.[field]);
    ctx.expect(sent !== undefined && sent === instant(job[field]), `webhook-job-${field === 'createdAt' ? 'created-at' : 'updated-at'}`, `the delivery's job.${field} ${shown(body.job?.[field])} is not the instant GET /api/jobs/{id} reads for the terminal job, ${shown(job[field])} (spec 6: the delivery's job is the job as it ended; spec 3.1: terminal)`, exchange);
  }
  ctx.expect(body.job?.progress === job.progress, 'webhook-job-progress-matches', `the delivery's job.progress ${shown(body.job?.progress)} is not the progress the terminal job reads, ${shown(job.progress)} (spec 2.2, 6)`, exchange);
  const created = instant(body.createdAt);
  const ended = instant(job.updatedAt);
  // A second of slack: a server may stamp the delivery and the job's last update in either order within one.
  if (created !== undefined && ended !== undefined) ctx.expect(created >= ended - 1_000, 'webhook-created-at-after-end', `the delivery's createdAt ${shown(body.createdAt)} is more than a second before the job ended (updatedAt ${shown(job.updatedAt)}): the delivery is made when the job ends (spec 3.1, 6)`, exchange);
  const timestamp = /^[0-9]+$/.test(timestampHeader ?? '') ? Number(timestampHeader) : undefined;
  if (timestamp !== undefined && created !== undefined) ctx.expect(timestamp >= Math.floor(created / 1000) - 1, 'webhook-timestamp-after-creation', `X-SVC-Timestamp ${timestamp} is before the delivery's createdAt ${shown(body.createdAt)} (spec 6: the Unix timestamp of the delivery)`, exchange);
}
