// `tfas trigger` and `tfas resend` (issue 29 item 7, second half): the sandbox's control API sends a sample
// event for a job with a webhook (POST /_sim/webhooks/trigger) or a past delivery again (POST
// /_sim/webhooks/deliveries/{id}/redeliver). Both are sandbox-defined: the public interface has no manual
// retry (spec 6 rule 3). The sandbox's webhooks domain makes and sends the delivery as it does a real one,
// so `tfas listen` (or the client's own receiver) gets it signed, with its attempts and retries; this
// module asks for it and then watches its first attempt in GET /_sim/webhooks/deliveries.
import { controlCall, type SandboxAccess } from './control-api.js';

/** spec 6: the two event kinds. */
export const EVENTS = ['job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof EVENTS)[number];

export interface Attempt {
  number: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A delivery as the control API lists it (sandbox-control contract `Delivery`). */
export interface SentDelivery {
  id: string;
  tenantId: string;
  jobId: string;
  event: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  origin: 'job' | 'trigger' | 'redelivery';
  redeliveryOf?: string;
}

export const triggerEvent = (sandbox: SandboxAccess, input: { event: WebhookEvent; jobId: string; tenantId?: string }) =>
  controlCall<SentDelivery>(sandbox, 'POST', '/_sim/webhooks/trigger', input);

export const resendDelivery = (sandbox: SandboxAccess, deliveryId: string) =>
  controlCall<SentDelivery>(sandbox, 'POST', `/_sim/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);

/** The delivery as listed now (its job's deliveries hold it). */
async function current(sandbox: SandboxAccess, delivery: SentDelivery): Promise<SentDelivery> {
  const { deliveries } = await controlCall<{ deliveries: SentDelivery[] }>(sandbox, 'GET', `/_sim/webhooks/deliveries?jobId=${encodeURIComponent(delivery.jobId)}`);
  return deliveries.find((d) => d.id === delivery.id) ?? delivery;
}

/** The delivery once its first attempt is recorded, or as it is after `waitMs` (real time) without one. */
export async function afterFirstAttempt(sandbox: SandboxAccess, delivery: SentDelivery, waitMs: number, pollMs = 200): Promise<SentDelivery> {
  const deadline = Date.now() + waitMs;
  let seen = delivery;
  while (seen.attempts.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    seen = await current(sandbox, delivery);
  }
  return seen;
}

/** What the CLIs print first: what was sent, where, under which delivery id. */
export function sentLine(d: SentDelivery): string {
  const what = d.origin === 'redelivery' ? `${d.event} of delivery ${d.redeliveryOf} sent again` : `${d.event} sample for job ${d.jobId}`;
  return `${what} to ${d.url}: delivery ${d.id}${d.origin === 'trigger' ? ' (the job itself is unchanged)' : ''}\n`;
}

/** The first attempt's outcome, or when it is due; `failed` when the receiver did not take it. */
export function attemptOutcome(d: SentDelivery, waitedSeconds: number): { line: string; failed: boolean } {
  const first = d.attempts[0];
  if (!first) return { line: `attempt 1 not made within ${waitedSeconds} s: due at ${d.nextAttemptAt ?? '?'} (tenant clock)\n`, failed: false };
  const answer = first.statusCode === null ? `no answer (${first.error ?? 'no reason given'})` : `answered ${first.statusCode}`;
  if (first.statusCode !== null && first.statusCode >= 200 && first.statusCode < 300) return { line: `attempt 1: ${answer}: delivered\n`, failed: false };
  const next = d.nextAttemptAt ? `attempt 2 at ${d.nextAttemptAt} (tenant clock), then as spec 6 rule 3 says (4 attempts at most)` : `the delivery is ${d.status}`;
  return { line: `attempt 1: ${answer}; ${next}\n`, failed: true };
}
