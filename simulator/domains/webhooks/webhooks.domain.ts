// The webhooks domain (spec 6): configuration on enqueue bodies, one delivery per subscribed job ending,
// attempts run by the dispatcher. Built by createWebhooks (index.ts); tests pass the internal options.
import type { KernelDeps } from '../../kernel/deps.js';
import { ATTEMPT_TIMEOUT_MS } from './delivery.machine.js';
import { createDispatcher } from './dispatcher.js';
import { secretBox } from './secret-box.js';
import { systemResolve, type Resolve } from './transport.js';
import { parseWebhookConfig } from './webhook-config.js';
import { webhookStore, type StoredDelivery } from './webhook.store.js';
import type { DeliveryView, FinishedJob, WebhookConfig, WebhookEvent, WebhooksDomain } from './webhook.types.js';

export interface WebhooksOptions {
  /** DNS resolution of delivery hosts (default: node:dns lookup, every address). */
  resolve?: Resolve;
  /** Real-time limit of one attempt (default spec 6 rule 2: 10 s). */
  timeoutMs?: number;
}

const view = ({ body: _body, ...delivery }: StoredDelivery): DeliveryView => ({ ...delivery, attempts: delivery.attempts.map((a) => ({ ...a })) });

export function buildWebhooks(deps: KernelDeps, options: WebhooksOptions = {}): WebhooksDomain {
  const store = webhookStore(deps);
  const secrets = secretBox(deps);
  const dispatcher = createDispatcher(deps, store, secrets, {
    resolve: options.resolve ?? systemResolve,
    timeoutMs: options.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
  });

  const flushSoon = () => deps.store.flush().catch((error) => deps.log.error({ err: error }, 'webhook store flush failed'));

  return {
    name: 'webhooks',
    handlers: {}, // webhooks have no public operation: they are calls the service makes
    parseConfig: (body) => parseWebhookConfig(body, deps.config.webhookAllowTargets),
    attach(jobId: string, tenantId: string, config: WebhookConfig) {
      store.putConfig({
        id: jobId,
        tenantId,
        url: config.url,
        events: [...config.events],
        secret: config.secret === null ? null : secrets.seal(config.secret, jobId),
        createdAt: deps.clock.nowIso(),
      });
    },
    jobFinished({ tenantId, job }: FinishedJob) {
      const config = store.config(job.id);
      if (!config || config.tenantId !== tenantId) return;
      const event: WebhookEvent = job.status === 'COMPLETED' ? 'job.completed' : 'job.failed';
      // defect injection (SIM_DEFECTS): webhooks.event-filter-ignored sends every event, subscribed or not.
      if (!config.events.includes(event) && !deps.defects.has('webhooks.event-filter-ignored')) return;
      // A job ends once; a repeated notice must not send a second delivery.
      if (store.deliveriesOfJob(job.id).some((d) => d.event === event)) return;
      const id = deps.ids.uuid();
      const createdAt = deps.clock.nowIso();
      const payload = {
        id,
        event,
        createdAt,
        job: {
          id: job.id,
          type: job.type,
          status: job.status,
          progress: job.progress,
          createdAt: job.createdAt,
          updatedAt: job.updatedAt,
          result: job.result,
          error: job.error,
        },
      };
      const delivery = store.putDelivery({
        id,
        tenantId,
        jobId: job.id,
        event,
        url: config.url,
        status: 'pending',
        attempts: [],
        nextAttemptAt: createdAt,
        createdAt,
        // Serialized once: every retry sends (and signs) the same bytes.
        body: JSON.stringify(payload),
      });
      void flushSoon();
      dispatcher.schedule(delivery);
    },
    deliveries: (filter = {}) => store.list(filter).map(view),
    start: () => dispatcher.start(),
    stop: () => dispatcher.stop(),
  };
}
