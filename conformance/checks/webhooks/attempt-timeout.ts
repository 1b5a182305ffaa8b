// webhooks.attempt-timeout (spec 6 rule 2, 8.8): "Each attempt times out after 10 seconds (counts as failure)".
// The receiver holds its 204 to one job's first attempt:
//   - 7 s, within the timeout: the attempt succeeds, so no second attempt comes once the first retry would
//     be due (the virtual clock moved 31 s, spec 6 rule 3: the first retry is 30 s after a failure);
//   - 11.5 s, past it: the attempt has failed at 10 s whatever the receiver answers later, so the second
//     attempt comes 30 s (virtual) after it.
// The hold is real time (an attempt's timeout is the service's wall clock, not the sandbox's virtual one); the
// retry's wait is moved on the virtual clock, so this runs in the simulator profile. About 25 s of real time.
import { defineCheck, type CheckContext, type ReceivedDelivery } from '../../harness/check.js';
import { sleep } from '../jobs-support.js';
import { awaitDelivery, deliveryExchange, enqueue, ofJob, receiverOf, seededTarget } from './probe.js';

const CHECK_ID = 'webhooks.attempt-timeout';
/** spec 6 rule 2: the attempt timeout, in ms. */
const TIMEOUT_MS = 10_000;
const WITHIN_MS = 7_000;
const BEYOND_MS = 11_500;

/** One job whose first attempt is answered after `holdMs`; whether a second attempt followed the retry gap. */
async function secondAttemptAfterHold(ctx: CheckContext, label: string, holdMs: number): Promise<{ retried: boolean; first?: ReceivedDelivery } | undefined> {
  const receiver = receiverOf(ctx);
  const { hook } = seededTarget(ctx, CHECK_ID, label);
  let jobId = '';
  const mine = (d: ReceivedDelivery) => hook.matches(d) && ofJob(d, jobId);
  receiver.holdNext(1, holdMs);
  try {
    const enqueued = await enqueue(ctx, { webhookUrl: hook.url });
    if (!enqueued) return undefined;
    jobId = enqueued.jobId;
    const first = await awaitDelivery(ctx, mine);
    if (!first) {
      ctx.fail('webhook-delivered', `no delivery for job ${jobId} reached ${hook.url}`, enqueued.exchange);
      return undefined;
    }
    // The held answer has gone (or the attempt gave up on it), then the first retry's 30 s pass on the clock.
    await sleep(Math.max(0, first.receivedAt + holdMs + 500 - Date.now()));
    await ctx.admin!.advanceClock(31);
    const second = await receiver.waitFor((d) => mine(d) && receiver.deliveries().filter(mine).length >= 2, 4_000).catch(() => undefined);
    return { retried: second !== undefined, first };
  } finally {
    receiver.holdNext(0, 0);
  }
}

export const webhookAttemptTimeout = defineCheck({
  id: CHECK_ID,
  title: 'A delivery attempt answered within 10 s succeeds; one answered after 10 s has failed and is retried (spec 6 rule 2)',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver', 'admin'],
  async run(ctx) {
    const within = await secondAttemptAfterHold(ctx, 'within', WITHIN_MS);
    if (within?.retried) ctx.fail('webhook-answer-within-timeout', `the receiver answered the first attempt 204 after ${WITHIN_MS / 1000} s, within the ${TIMEOUT_MS / 1000} s timeout, yet a second attempt came 30 s later: the answer was taken as a failure (spec 6 rules 1 and 2)`, deliveryExchange(within.first!));
    const beyond = await secondAttemptAfterHold(ctx, 'beyond', BEYOND_MS);
    if (beyond && !beyond.retried) ctx.fail('webhook-attempt-timeout', `the receiver held its answer to the first attempt ${BEYOND_MS / 1000} s, past the ${TIMEOUT_MS / 1000} s timeout, and no second attempt came 30 s later: the late answer was taken as success (spec 6 rule 2: each attempt times out after 10 s and counts as failure)`, deliveryExchange(beyond.first!));
  },
});
