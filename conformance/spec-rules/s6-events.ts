// Spec 6: completion webhooks: events, configuration, the delivery body and headers, the signature and the
// delivery rules 1-4.
import { defineRules } from './rule.js';

export const section6Rules = defineRules([
  { id: '6.event.completed', section: '6', kind: 'state', sentence: 'job.completed fires when a job reaches COMPLETED.', checks: ['webhooks.delivery'] },
  { id: '6.event.failed', section: '6', kind: 'state', sentence: 'job.failed fires when a job reaches FAILED permanently.', checks: ['jobs.failed-job'] },
  { id: '6.config.two-forms', section: '6', kind: 'shape', sentence: 'Configuration is added to any enqueue body as top-level webhookUrl/webhookSecret/webhookEvents or the nested webhook { url, secret, events }, equivalent.', checks: ['webhooks.delivery', 'webhooks.signature', 'webhooks.https-required-with-secret'], note: 'webhooks.delivery uses the nested form, webhooks.signature the top-level one' },
  { id: '6.config.url-required', section: '6', kind: 'error', sentence: 'webhookUrl (webhook.url) is required for a configuration and is an HTTP or HTTPS URL.', checks: ['operations.enqueueSimaBatch.rejects-invalid-input', 'operations.uploadSimaScreeningFile.rejects-invalid-input'], note: 'webhook.url missing, not a URL, and secret or events without a URL are each 400' },
  { id: '6.config.https-with-secret', section: '6', kind: 'security', sentence: 'HTTPS is required when a secret is set.', checks: ['webhooks.https-required-with-secret'] },
  { id: '6.config.secret-max-512', section: '6', kind: 'error', sentence: 'webhookSecret is at most 512 characters.', checks: ['operations.enqueueSimaBatch.rejects-invalid-input', 'operations.uploadCatalogFile.rejects-invalid-input'] },
  { id: '6.config.secret-encrypted', section: '6', kind: 'security', sentence: 'The secret is stored encrypted at rest.', unheld: { reason: 'storage at rest is operator-side' } },
  { id: '6.config.events-filter', section: '6', kind: 'state', sentence: 'webhookEvents selects the events delivered; the default is both.', checks: ['webhooks.event-filter', 'jobs.failed-job'], note: 'jobs.failed-job gets job.failed with no events configured (the default)' },
  { id: '6.config.events-values', section: '6', kind: 'error', sentence: 'webhookEvents is an array of event names (job.completed, job.failed).', checks: ['operations.enqueueSimaBatch.rejects-invalid-input'] },

  { id: '6.body.fields', section: '6', kind: 'shape', sentence: 'The delivery body is { id (uuid), event, createdAt (ISO 8601), job { id, type, status COMPLETED or FAILED, progress, createdAt, updatedAt, result, error } }.', checks: ['webhooks.delivery'] },
  { id: '6.body.job-matches', section: '6', kind: 'state', sentence: "The delivery's job is the job that ended: its id, status and (completed) progress 100.", checks: ['webhooks.delivery', 'jobs.failed-job'] },
  { id: '6.body.error-for-failed', section: '6', kind: 'state', sentence: 'job.error is filled for failed jobs.', checks: ['jobs.failed-job'] },
  { id: '6.body.timestamps', section: '6', kind: 'timing', sentence: "createdAt is the delivery's time; job.createdAt and job.updatedAt are the job's.", checks: ['webhooks.delivery'] },
  { id: '6.body.id-stable', section: '6', kind: 'state', sentence: 'id is unique per delivery and the same on retries.', checks: ['webhooks.retry-schedule'] },

  { id: '6.header.content-type', section: '6', kind: 'header', sentence: 'Content-Type is application/json.', checks: ['webhooks.delivery'] },
  { id: '6.header.event', section: '6', kind: 'header', sentence: 'X-SVC-Event is the event name.', checks: ['webhooks.delivery'] },
  { id: '6.header.timestamp', section: '6', kind: 'header', sentence: 'X-SVC-Timestamp is the Unix timestamp of the delivery.', checks: ['webhooks.delivery', 'webhooks.signature'], note: 'seconds; webhooks.signature also asserts it is current' },
  { id: '6.header.delivery-id', section: '6', kind: 'header', sentence: 'X-SVC-Delivery-ID is the delivery id, equal to the body id.', checks: ['webhooks.delivery', 'webhooks.retry-schedule'] },
  { id: '6.header.attempt', section: '6', kind: 'header', sentence: 'X-SVC-Attempt is the attempt number, 1-based.', checks: ['webhooks.delivery', 'webhooks.retry-schedule'] },
  { id: '6.header.signature-only-with-secret', section: '6', kind: 'header', sentence: 'X-SVC-Signature (v1=<hex_digest>) is sent only when a secret is configured.', checks: ['webhooks.signature', 'webhooks.no-signature-without-secret'] },
  { id: '6.signature.hmac', section: '6', kind: 'security', sentence: 'The digest is the hex HMAC-SHA256, keyed with the secret, of the timestamp, a dot and the raw JSON body; the header is v1= and the digest.', checks: ['webhooks.signature', 'webhooks.retry-schedule'] },
  { id: '6.signature.receiver-checks', section: '6', kind: 'security', sentence: 'Receivers should check the v1= prefix, compare in constant time and may reject timestamps older than 300 seconds.', unheld: { reason: 'advice to receivers, not the server; what the server owes them (a current timestamp) is held by webhooks.signature' } },

  { id: '6.rule1.2xx-success', section: '6', kind: 'state', sentence: 'Rule 1: any 2xx response is success (no retry); the body is ignored.', checks: ['webhooks.retry-schedule'], note: 'a 204 ends the retries; other 2xx codes and bodies are not varied' },
  { id: '6.rule2.attempt-timeout', section: '6', kind: 'timing', sentence: 'Rule 2: each attempt times out after 10 seconds, which counts as a failure.', checks: ['webhooks.attempt-timeout'] },
  { id: '6.rule3.retry-schedule', section: '6', kind: 'timing', sentence: 'Rule 3: up to 4 attempts: initial, then retries after 30 seconds, 2 minutes and 10 minutes.', checks: ['webhooks.retry-schedule'] },
  { id: '6.rule3.marked-failed', section: '6', kind: 'state', sentence: 'Rule 3: after the fourth failure the delivery is marked failed; there is no fifth attempt and no manual retry.', checks: ['webhooks.no-fifth-attempt'], note: 'simulator profile: no fifth attempt within 30 min of virtual time, and the sandbox\'s delivery record reads failed; that no manual retry exists is the absence of an operation (no public route to call)' },
  { id: '6.rule4.ssrf-literal', section: '6', kind: 'security', sentence: 'Rule 4: targets in 127.0.0.0/8, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16 and hosts localhost and ::1 are blocked.', checks: ['webhooks.ssrf-refused-at-enqueue'] },
  { id: '6.rule4.ssrf-resolved', section: '6', kind: 'security', sentence: 'Rule 4: the hostname is resolved before the request, the address pinned for the delivery and checked against the same blocklist.', checks: ['webhooks.ssrf-resolved-address'], note: 'simulator profile: the sandbox\'s resolver table (control API) maps a .invalid name to the loopback receiver; a control name on the allow list must be delivered, the other never is. Pinning is seen only as its end: no connection to a blocked address' },
  { id: '6.no-other-events', section: '6', kind: 'state', sentence: 'No events are emitted for feed sessions, findings or claim submissions.', checks: ['webhooks.only-job-events'] },
]);
