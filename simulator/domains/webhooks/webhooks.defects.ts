// The webhooks domain's injectable defects (README "Defect injection"): each is one `defects.has('<id>')`
// line where the behaviour lives (dispatcher.ts, deliveries.ts). None only changes an HTTP response.
import type { DefectEntry } from '../../kernel/defects.js';

export const WEBHOOKS_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'webhooks.bad-signature', area: 'webhooks', description: 'the signature is HMAC over the body only (no timestamp)' },
  { kind: 'defect', id: 'webhooks.missing-signature', area: 'webhooks', description: 'no X-SVC-Signature header although a secret is set' },
  { kind: 'defect', id: 'webhooks.delivery-id-changes', area: 'webhooks', description: 'every attempt gets a new delivery id (header and body)' },
  { kind: 'defect', id: 'webhooks.wrong-event-header', area: 'webhooks', description: 'X-SVC-Event says `job.finished`' },
  { kind: 'defect', id: 'webhooks.retry-too-early', area: 'webhooks', description: 'retries come 10 s after a failure instead of 30 s / 2 min / 10 min' },
  { kind: 'defect', id: 'webhooks.event-filter-ignored', area: 'webhooks', description: '`webhookEvents` is ignored (every event is sent)' },
];
