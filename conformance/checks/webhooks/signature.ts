// spec 6, "Signature": v1= + hex HMAC-SHA256 of "<timestamp>.<raw body>" with a current timestamp when a
// secret is configured, and no X-SVC-Signature without one.
import { createHmac } from 'node:crypto';
import { defineCheck, type CheckContext, type ReceivedDelivery } from '../../harness/check.js';
import { TIMESTAMP_TOLERANCE_SECONDS, verifySignature, type SignatureProblem } from '../../harness/signature.js';
import type { Failure } from '../../harness/types.js';
import { replayOf } from '../../harness/runner.js';
import { deliveryExchange, enqueue, expectDelivery, HEADER, seededTarget, serverNow, type ServerNow } from './probe.js';

/** The contract's pattern for X-SVC-Signature (components/parameters/webhooks.yaml). */
const SIGNATURE_FORMAT = /^v1=[0-9a-f]{64}$/;

const SIGNATURE_RULES: Record<SignatureProblem, string> = {
  'missing-signature': 'webhook-signature-present',
  'missing-prefix': 'webhook-signature-format',
  'invalid-timestamp': 'webhook-timestamp',
  mismatch: 'webhook-signature-valid',
  'stale-timestamp': 'webhook-timestamp-window',
};

/** Checks one delivery's signature against the secret; the timestamp window is around `nowSeconds`. */
export function expectSigned(ctx: CheckContext, delivery: ReceivedDelivery, secret: string, now: ServerNow | undefined, extra: Partial<Failure>, answered = 204, what = 'the delivery'): void {
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

/** What a failure of a signed delivery carries: the seed, the secret (the counterexample) and the replay. */
export function secretExtra(ctx: CheckContext, checkId: string, secret: string): Partial<Failure> {
  return { seed: ctx.seed, counterexample: JSON.stringify({ webhookSecret: secret }), replay: replayOf(ctx, checkId) };
}

// spec 6, "Signature": v1= + hex HMAC-SHA256 of "<timestamp>.<raw body>", and a current timestamp.
export const webhookSignature = defineCheck({
  id: 'webhooks.signature',
  title: 'A delivery configured with a secret carries a v1 signature over the timestamp and the raw body',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver'],
  async run(ctx) {
    const { secret, hook } = seededTarget(ctx, 'webhooks.signature', 'top-level');
    const extra = secretExtra(ctx, 'webhooks.signature', secret);
    // The top-level form (spec 6: webhookUrl, webhookSecret).
    const enqueued = await enqueue(ctx, { webhookUrl: hook.url, webhookSecret: secret });
    if (!enqueued) return;
    const delivery = await expectDelivery(ctx, hook, enqueued);
    if (!delivery) return;
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
    const { hook } = seededTarget(ctx, 'webhooks.no-signature-without-secret', 'nested');
    const enqueued = await enqueue(ctx, { webhook: { url: hook.url } });
    if (!enqueued) return;
    const delivery = await expectDelivery(ctx, hook, enqueued);
    if (!delivery) return;
    const signature = delivery.headers[HEADER.signature];
    ctx.expect(signature === undefined, 'webhook-unsigned-without-secret', `the delivery carries X-SVC-Signature ${JSON.stringify(signature)} although no secret was configured (spec 6)`, deliveryExchange(delivery));
  },
});
