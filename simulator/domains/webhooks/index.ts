// What the webhooks domain offers (spec 6): parsing webhook configuration off enqueue bodies, remembering
// it per job, and delivering job.completed / job.failed with signatures, retries and SSRF protection.
import type { KernelDeps } from '../../kernel/deps.js';
import type { WebhooksDomain } from './webhook.types.js';
import { buildWebhooks } from './webhooks.domain.js';

export type { DeliveryAttempt, DeliveryStatus, DeliveryView, FinishedJob, WebhookConfig, WebhookEvent, WebhooksDomain } from './webhook.types.js';

export function createWebhooks(deps: KernelDeps): WebhooksDomain {
  return buildWebhooks(deps);
}
