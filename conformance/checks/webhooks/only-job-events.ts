// webhooks.only-job-events (spec 6: "Two event kinds exist: job.completed, job.failed"; "No events are
// emitted for feed sessions, findings or claim submissions"): a trade feed uploaded with a webhook (its
// upload is an enqueue, spec 4.3 "any enqueue endpoint also accepts optional webhook fields") is taken to
// READY and applied, so a session event would have every chance to go out; every delivery to that webhook
// names job.completed or job.failed, in its body and in X-SVC-Event.
import { defineCheck } from '../../harness/check.js';
import { directRows, feedCsv, feedForm, feedRows, feedTenant, readPages, sessionPath, settleFeed, UPLOAD_PATH } from '../trade/support.js';
import { sleep } from '../jobs-support.js';
import { awaitDelivery, bodyOf, deliveryExchange, HEADER, ofJob, QUIET_WAIT_REMOTE_MS, QUIET_WAIT_SIMULATOR_MS, receiverOf, seeded, target } from './probe.js';

const JOB_EVENTS = ['job.completed', 'job.failed'];
const ID = 'webhooks.only-job-events';

export const webhookOnlyJobEvents = defineCheck({
  id: ID,
  title: 'Only job.completed and job.failed are delivered: a feed session taken to READY and applied emits no event of its own',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const hook = target(ctx, ID, seeded(ctx, ID).nonce, 'feed');
    const { client } = await feedTenant(ctx, 'Conformance webhooks: only job events');
    const csv = feedCsv(feedRows('direct'));
    const uploaded = await client.call('POST', UPLOAD_PATH, { form: (() => { const form = feedForm(csv); form.append('webhookUrl', hook.url); return form; })() });
    const receipt = (uploaded.response.body ?? {}) as { sessionId?: unknown; jobId?: unknown };
    if (uploaded.response.status !== 202 || typeof receipt.sessionId !== 'string' || typeof receipt.jobId !== 'string') {
      return ctx.fail('feed-upload-accepted', `POST ${UPLOAD_PATH} with webhookUrl answered ${uploaded.response.status}, not 202 with sessionId and jobId (spec 4.4, 6)`, uploaded);
    }
    const session = { sessionId: receipt.sessionId, jobId: receipt.jobId };
    const settled = await settleFeed(ctx, client, session);
    if (settled.status === 'READY') {
      const { items } = await readPages(client, `${sessionPath(session.sessionId)}/skus`, 'skus');
      const rows = directRows(items);
      if (rows.length) await client.call('POST', `${sessionPath(session.sessionId)}/apply`, { json: { rows, originCountry: 'CN', screeningAuthority: 'CA' } });
    }
    const delivered = await awaitDelivery(ctx, (d) => hook.matches(d) && ofJob(d, session.jobId));
    if (!delivered) ctx.skip(`no delivery of the feed's job ${session.jobId} reached the receiver: nothing to judge`);
    // Well past the session's last move: in the simulator, a minute of virtual time; elsewhere a few seconds.
    if (ctx.admin) {
      await ctx.admin.advanceClock(60);
      await sleep(QUIET_WAIT_SIMULATOR_MS);
    } else {
      await sleep(QUIET_WAIT_REMOTE_MS);
    }
    for (const delivery of receiver.deliveries().filter((d) => hook.matches(d))) {
      const event = bodyOf(delivery).event;
      const header = delivery.headers[HEADER.event];
      ctx.expect(
        JOB_EVENTS.includes(String(event)) && JOB_EVENTS.includes(String(header)),
        'webhook-only-job-events',
        `a delivery to the feed's webhook (session ${session.sessionId}, ${settled.status ?? 'unread'}) names event ${JSON.stringify(event)} (X-SVC-Event ${JSON.stringify(header)}): spec 6 has two event kinds, job.completed and job.failed, and emits none for feed sessions`,
        deliveryExchange(delivery),
      );
    }
  },
});
