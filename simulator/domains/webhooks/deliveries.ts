// A job ended: one delivery per subscribed event (spec 6 "Events"), created durably with the exact bytes
// every attempt sends and signs, and handed to the dispatcher for attempt 1 at once.
import type { KernelDeps } from '../../kernel/deps.js';
import { nameUuid } from '../../kernel/ids.js';
import { deliveryPayload } from './delivery.response.js';
import type { Dispatcher } from './dispatcher.js';
import type { WebhookStore } from './webhook.store.js';
import type { FinishedJob, WebhookEvent } from './webhooks.types.js';

/** Namespace of delivery ids (a fixed random UUID of this sandbox's). */
const DELIVERY_NAMESPACE = '6f1d2c3b-8e4a-4f5b-9c6d-7e8f9a0b1c2d';

export function deliveriesOnJobEnd(deps: KernelDeps, store: WebhookStore, dispatcher: Dispatcher) {
  return async function jobFinished({ tenantId, job }: FinishedJob): Promise<void> {
    const config = await store.config(job.id);
    if (!config || config.tenantId !== tenantId) return;
    const event: WebhookEvent = job.status === 'COMPLETED' ? 'job.completed' : 'job.failed';
    // defect injection (SIM_DEFECTS): webhooks.event-filter-ignored sends every event, subscribed or not.
    if (!config.events.includes(event) && !deps.defects.has('webhooks.event-filter-ignored')) return;
    // A job ends once; a repeated notice must not send a second delivery. The id is a function of the job
    // and the event, so even two notices at once (two instances) create one delivery: the second create() is refused.
    const id = nameUuid(DELIVERY_NAMESPACE, `${job.id}/${event}`);
    if (await store.delivery(id)) return;
    const createdAt = deps.clocks.of(tenantId).nowIso();
    const delivery = await store.createDelivery({
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
      body: JSON.stringify(deliveryPayload(id, event, createdAt, job)),
    });
    if (!delivery) return;
    await deps.store.flush();
    dispatcher.schedule(delivery);
  };
}
