// The webhooks domain's deviations (README "Defect injection"), as data: rules at the hook points of
// webhooks.hooks.ts, where the dispatcher and the delivery maker decide what is sent and when. None changes
// the delivery table or an HTTP response.
import type { DefectEntry } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { deviateMachine } from '../../kernel/machine.js';
import { deliveryMachine, MAX_ATTEMPTS } from './delivery.machine.js';
import { WEBHOOKS_HOOKS, type SignatureScheme } from './webhooks.hooks.js';

export const WEBHOOKS_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'webhooks.bad-signature', area: 'webhooks', description: 'the signature is HMAC over the body only (no timestamp)', hooks: [at(WEBHOOKS_HOOKS.signatureScheme, (scheme) => (scheme === 'timestamped' ? 'body-only' : scheme))] },
  { kind: 'defect', id: 'webhooks.missing-signature', area: 'webhooks', description: 'no X-SVC-Signature header although a secret is set', hooks: [at(WEBHOOKS_HOOKS.signatureScheme, (): SignatureScheme => 'none')] },
  { kind: 'defect', id: 'webhooks.delivery-id-changes', area: 'webhooks', description: 'every attempt gets a new delivery id (header and body)', hooks: [at(WEBHOOKS_HOOKS.attemptDeliveryId, (_id, { newId }) => newId())] },
  { kind: 'defect', id: 'webhooks.payload-job-updated-at-created', area: 'webhooks', description: "the delivery's job.updatedAt is the job's createdAt (not the time it ended)", hooks: [at(WEBHOOKS_HOOKS.deliveryJob, (job) => ({ ...job, updatedAt: job.createdAt }))] },
  { kind: 'defect', id: 'webhooks.failed-payload-progress-100', area: 'webhooks', description: "a job.failed delivery's job.progress is 100 whatever progress the FAILED job reports", hooks: [at(WEBHOOKS_HOOKS.deliveryJob, (job) => (job.status === 'FAILED' ? { ...job, progress: 100 } : job))] },
  { kind: 'defect', id: 'webhooks.attempt-timeout-long', area: 'webhooks', description: 'an attempt waits 30 s for the receiver (spec 6: times out after 10 s): an answer after 11 s counts as success', hooks: [at(WEBHOOKS_HOOKS.attemptTimeoutMs, () => 30_000)] },
  { kind: 'defect', id: 'webhooks.attempt-timeout-short', area: 'webhooks', description: 'an attempt gives up after 5 s (spec 6: 10 s): an answer after 7 s counts as failure and is retried', hooks: [at(WEBHOOKS_HOOKS.attemptTimeoutMs, () => 5_000)] },
  { kind: 'defect', id: 'webhooks.feed-session-event', area: 'webhooks', description: "a trade feed's normalization job is announced as the session's event (`trade_feed.normalized` in the delivery body; spec 6: no events for feed sessions)", hooks: [at(WEBHOOKS_HOOKS.payloadEvent, (event, { job }) => (job.status === 'COMPLETED' && typeof job.result?.sessionId === 'string' ? 'trade_feed.normalized' : event))] },
  { kind: 'defect', id: 'webhooks.wrong-event-header', area: 'webhooks', description: 'X-SVC-Event says `job.finished`', hooks: [at(WEBHOOKS_HOOKS.eventHeader, () => 'job.finished')] },
  { kind: 'defect', id: 'webhooks.retry-too-early', area: 'webhooks', description: 'retries come 10 s after a failure instead of 30 s / 2 min / 10 min', hooks: [at(WEBHOOKS_HOOKS.retryGapMs, () => 10_000)] },
  {
    kind: 'defect',
    id: 'webhooks.fifth-attempt',
    area: 'webhooks',
    description: 'after the fourth failed attempt the delivery is not marked failed: a fifth attempt goes 10 min later',
    // The fourth failure retries (to pending) instead of giving up; the fifth gives up.
    machine: [deviateMachine(deliveryMachine, { add: [{ from: ['pending'], action: 'give_up', to: ({ attempt }) => (attempt <= MAX_ATTEMPTS ? 'pending' : 'failed') }] })],
    hooks: [at(WEBHOOKS_HOOKS.retryGapMs, (ms, { attempt }) => (attempt >= MAX_ATTEMPTS ? 600_000 : ms))],
  },
  { kind: 'defect', id: 'webhooks.resolved-address-unchecked', area: 'webhooks', description: 'a webhook host name is resolved but the addresses it resolves to are not checked against the SSRF blocklist (only literal hosts are refused): a name resolving to 127.0.0.1 is delivered to', hooks: [at(WEBHOOKS_HOOKS.resolvedAddressesChecked, () => false)] },
  { kind: 'defect', id: 'webhooks.event-filter-ignored', area: 'webhooks', description: '`webhookEvents` is ignored (every event is sent)', hooks: [at(WEBHOOKS_HOOKS.eventSent, () => true)] },
];

/** Legitimate variants of the webhooks domain (README "Variants"): choices the spec leaves open. */
export const WEBHOOKS_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'webhooks.first-attempt-delayed', area: 'webhooks', description: 'the first delivery attempt goes 3 s after the job ends (the retries keep their 30 s / 2 min / 10 min gaps)', spec: 'spec 6 delivery rule 3: "Up to 4 attempts: initial, then retries after 30 seconds, 2 minutes and 10 minutes": when the initial attempt goes is not given', hooks: [at(WEBHOOKS_HOOKS.firstAttemptDelayMs, (ms) => ms + 3000)] },
];
