// spec 6: webhookEvents / webhook.events select the events delivered (default: both).
import { defineCheck } from '../../harness/check.js';
import { sleep } from '../jobs-support.js';
import { awaitDelivery, awaitTerminalJob, bodyOf, deliveryExchange, enqueue, ofJob, QUIET_WAIT_REMOTE_MS, QUIET_WAIT_SIMULATOR_MS, receiverOf, seeded, target } from './probe.js';

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
