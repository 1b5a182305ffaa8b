// The webhooks domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in webhooks.defects.ts) may change what a delivery
// sends or when. The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { FinishedJob, WebhookEvent } from './webhooks.types.js';

/** How an attempt is signed (spec 6): over "<timestamp>.<raw body>", over the body alone, or not at all. */
export type SignatureScheme = 'timestamped' | 'body-only' | 'none';

export const WEBHOOKS_HOOKS = {
  /** spec 6 (rule 3 fixes the retries' gaps, not when the first attempt goes): ms between a job's end and its first attempt. */
  firstAttemptDelayMs: hookPoint<number>('delivery', 'webhooks.first-attempt-delay'),
  /** spec 6 "Events": whether a finished job's event is sent to its webhook (subscribed: `webhookEvents`). */
  eventSent: hookPoint<boolean, { event: WebhookEvent }>('delivery', 'webhooks.event-sent'),
  /** spec 6 "Two event kinds exist": the `event` a delivery's body names for the job that ended (job.completed or job.failed). */
  payloadEvent: hookPoint<string, { job: FinishedJob['job'] }>('delivery', 'webhooks.payload-event'),
  /** spec 6: the X-SVC-Event header of an attempt (the delivery's event). */
  eventHeader: hookPoint<string>('delivery', 'webhooks.event-header'),
  /** spec 6: how an attempt of a webhook with a secret is signed. */
  signatureScheme: hookPoint<SignatureScheme>('delivery', 'webhooks.signature-scheme'),
  /** spec 6: the delivery id an attempt is sent under (every attempt of a delivery shares it); `newId` makes another. */
  attemptDeliveryId: hookPoint<string, { newId: () => string }>('delivery', 'webhooks.attempt-delivery-id'),
  /** spec 6 delivery body: the `job` a delivery describes (the job as it ended: its progress, timestamps, result, error). */
  deliveryJob: hookPoint<FinishedJob['job']>('delivery', 'webhooks.delivery-job'),
  /** spec 6 rule 2, 8.8: how long an attempt waits for the receiver's answer before it counts as failed (10 s). */
  attemptTimeoutMs: hookPoint<number>('delivery', 'webhooks.attempt-timeout'),
  /** spec 6 rule 3, decision 9: the wait after failed attempt `attempt` before the next one. */
  retryGapMs: hookPoint<number, { attempt: number }>('delivery', 'webhooks.retry-gap'),
  /** spec 6 rule 4: whether an attempt checks the addresses its host resolved to against the blocklist (the literal host is checked either way). */
  resolvedAddressesChecked: hookPoint<boolean>('delivery', 'webhooks.resolved-addresses-checked'),
} as const;
