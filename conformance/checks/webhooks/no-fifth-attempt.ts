// spec 6 rule 3: "Up to 4 attempts: initial, then retries after 30 seconds, 2 minutes and 10 minutes. After the
// fourth failure the delivery is marked failed; no manual retry exists". A delivery whose four attempts all
// fail (the receiver answers 503) gets no fifth attempt, however long the clock runs afterwards: half an hour
// of virtual time, three times the longest retry gap. The sandbox's delivery record (control API,
// sandbox-defined) must then read failed after 4 attempts. Simulator profile: it needs the virtual clock.
// That the four attempts come at all is what webhooks.retry-schedule times; here they are only awaited.
import { defineCheck, type ReceivedDelivery } from '../../harness/check.js';
import { sleep } from '../jobs-support.js';
import { awaitDelivery, deliveryExchange, enqueue, HEADER, ofJob, QUIET_WAIT_SIMULATOR_MS, receiverOf, RETRY_GAPS_SECONDS, seededTarget } from './probe.js';

/** How long after the fourth failure a fifth attempt is watched for (virtual seconds): 3 x the longest gap. */
const WATCH_AFTER_SECONDS = 30 * 60;
/** Real time given to an attempt the clock move has made due. */
const ARRIVAL_WAIT_MS = 5_000;

export const webhookNoFifthAttempt = defineCheck({
  id: 'webhooks.no-fifth-attempt',
  title: 'A delivery whose four attempts all failed is marked failed: no fifth attempt comes',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver', 'admin'],
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const admin = ctx.admin!;
    const { hook } = seededTarget(ctx, 'webhooks.no-fifth-attempt', 'failing');
    let jobId = '';
    const mine = (d: ReceivedDelivery) => hook.matches(d) && ofJob(d, jobId);
    const received = () => receiver.deliveries().filter(mine);
    const nth = (n: number) => (d: ReceivedDelivery) => mine(d) && received().length >= n;

    // Every attempt this check provokes fails, a fifth one included.
    receiver.failNext(5, 503);
    try {
      const enqueued = await enqueue(ctx, { webhookUrl: hook.url, webhookEvents: ['job.completed', 'job.failed'] });
      if (!enqueued) return;
      jobId = enqueued.jobId;
      if (!(await awaitDelivery(ctx, nth(1)))) {
        ctx.fail('webhook-delivered', `no delivery for job ${jobId} reached ${hook.url}`, enqueued.exchange);
        return;
      }
      for (const [index, gap] of RETRY_GAPS_SECONDS.entries()) {
        const n = index + 2;
        // Past the gap, with a margin for the real time the probe takes.
        await admin.advanceClock(gap + 2);
        const next = await receiver.waitFor(nth(n), ARRIVAL_WAIT_MS).catch(() => undefined);
        if (!next) {
          ctx.fail('webhook-retry-attempted', `attempt ${n} did not arrive ${gap + 2} s after attempt ${n - 1} failed with 503 (spec 6 rule 3: up to 4 attempts, retries after 30 s, 2 min and 10 min)`, deliveryExchange(received()[n - 2], 503));
          return;
        }
      }
      await admin.advanceClock(WATCH_AFTER_SECONDS);
      const fifth = await receiver.waitFor(nth(5), ARRIVAL_WAIT_MS).catch(() => undefined);
      await sleep(QUIET_WAIT_SIMULATOR_MS);
      const extra = received().slice(4);
      if (fifth || extra.length) {
        const first = extra[0] ?? fifth!;
        ctx.fail('webhook-no-fifth-attempt', `${extra.length || 1} more attempt(s) (X-SVC-Attempt ${JSON.stringify(first.headers[HEADER.attempt] ?? null)}) arrived within ${WATCH_AFTER_SECONDS / 60} min after the fourth attempt failed with 503 (spec 6 rule 3: after the fourth failure the delivery is marked failed)`, deliveryExchange(first, 503));
        return;
      }
    } finally {
      receiver.failNext(0);
    }

    // The sandbox shows the delivery it gave up on (control API; its record's shape is sandbox-defined).
    const { deliveries } = await admin.deliveries({ jobId });
    const stored = deliveries.filter((d) => d.event === 'job.completed' || d.event === 'job.failed');
    const summary = JSON.stringify(stored.map((d) => ({ id: d.id, status: d.status, attempts: (d.attempts ?? []).length })));
    if (ctx.expect(stored.length === 1, 'webhook-delivery-record', `the sandbox lists ${stored.length} deliveries for job ${jobId}, not 1: ${summary}`)) {
      const [record] = stored;
      ctx.expect(record.status === 'failed' && Array.isArray(record.attempts) && record.attempts.length === 4, 'webhook-marked-failed', `the sandbox's delivery record after four failed attempts is not failed with 4 attempts (spec 6 rule 3: marked failed): ${summary}`);
    }
  },
});
