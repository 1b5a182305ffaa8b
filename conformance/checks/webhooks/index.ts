// Completion webhooks (spec 6; contracts/README.md decisions 9, 10, 10a), observed with the suite's built-in
// receiver: the delivery body and headers, the v1 signature over "<timestamp>.<raw body>", the retry
// schedule (30 s, 2 min, 10 min after each failure) with a stable delivery id, the event filter, and the
// refusals at enqueue (blocked targets, plain HTTP with a secret).
//
// Every job is a SIMA batch of one probe SKU (spec 4.2), configured with a webhook whose URL is the
// receiver's plus a path unique to the check, so deliveries are told apart by path (and job id). In the
// simulator profile the virtual clock is advanced through the control API so that jobs end and retries come
// at once; elsewhere the check waits, bounded.
//
//   probe.ts             the probe job, receiver targets, waits for deliveries, job ends and the server's now
//   delivery.ts          webhooks.delivery
//   signature.ts         webhooks.signature, webhooks.no-signature-without-secret
//   event-filter.ts      webhooks.event-filter
//   only-job-events.ts   webhooks.only-job-events (a feed session applied emits only job events)
//   retry-schedule.ts    webhooks.retry-schedule
//   no-fifth-attempt.ts  webhooks.no-fifth-attempt (four failed attempts: marked failed, no fifth)
//   enqueue-refusals.ts  webhooks.ssrf-refused-at-enqueue, webhooks.https-required-with-secret
//   ssrf-resolved.ts     webhooks.ssrf-resolved-address (simulator profile: the sandbox's resolver table)
import { webhookAttemptTimeout } from './attempt-timeout.js';
import { webhookDelivery } from './delivery.js';
import { webhookHttpsRequiredWithSecret, webhookSsrfRefusedAtEnqueue } from './enqueue-refusals.js';
import { webhookEventFilter } from './event-filter.js';
import { webhookNoFifthAttempt } from './no-fifth-attempt.js';
import { webhookOnlyJobEvents } from './only-job-events.js';
import { webhookRetrySchedule } from './retry-schedule.js';
import { webhookSsrfResolvedAddress } from './ssrf-resolved.js';
import { webhookNoSignatureWithoutSecret, webhookSignature } from './signature.js';

/** The webhook checks, in the order they run (the retry schedule moves the clock most, so it comes late). */
export const webhookChecks = [
  webhookDelivery,
  webhookSignature,
  webhookNoSignatureWithoutSecret,
  webhookEventFilter,
  webhookOnlyJobEvents,
  webhookRetrySchedule,
  webhookNoFifthAttempt,
  webhookAttemptTimeout,
  webhookSsrfRefusedAtEnqueue,
  webhookSsrfResolvedAddress,
  webhookHttpsRequiredWithSecret,
];
