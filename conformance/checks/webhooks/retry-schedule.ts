// spec 6 rule 3, decision 9: up to 4 attempts; retries 30 s, 2 min and 10 min after each failure; the same
// delivery id and body on every attempt, each attempt signed for its own timestamp.
import { defineCheck, type ReceivedDelivery } from '../../harness/check.js';
import { sleep } from '../jobs-support.js';
import { awaitDelivery, bodyOf, deliveryExchange, enqueue, HEADER, ofJob, QUIET_WAIT_SIMULATOR_MS, receiverOf, RETRY_GAPS_SECONDS, seededTarget, serverNow, type ServerNow } from './probe.js';
import { expectSigned, secretExtra } from './signature.js';


export const webhookRetrySchedule = defineCheck({
  id: 'webhooks.retry-schedule',
  title: 'A failed delivery is retried 30 s, 2 min and 10 min after each failure with the same id and body',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver', 'admin'],
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const admin = ctx.admin!;
    const { secret, hook } = seededTarget(ctx, 'webhooks.retry-schedule', 'retried');
    const extra = secretExtra(ctx, 'webhooks.retry-schedule', secret);
    const answers = [503, 503, 503, 204];
    let jobId = '';
    const mine = (d: ReceivedDelivery) => hook.matches(d) && ofJob(d, jobId);
    const received = () => receiver.deliveries().filter(mine);
    const nth = (n: number) => (d: ReceivedDelivery) => mine(d) && received().length >= n;
    const attempts: Array<{ delivery: ReceivedDelivery; now: ServerNow }> = [];
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
