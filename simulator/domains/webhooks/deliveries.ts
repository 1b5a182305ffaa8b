// A job ended: one delivery per subscribed event (spec 6 "Events"), created durably with the exact bytes
// every attempt sends and signs, and handed to the dispatcher for attempt 1 at once (later under the
// tenant's webhook chaos `delaySeconds` or `reorder`, sandbox-defined and off by default).
import type { KernelDeps } from '../../kernel/deps.js';
import { nameUuid } from '../../kernel/ids.js';
import { deliveryPayload } from './delivery.response.js';
import type { Dispatcher } from './dispatcher.js';
import { webhookChaosOf } from './webhook-chaos.js';
import type { WebhookStore } from './webhook.store.js';
import { WEBHOOKS_HOOKS } from './webhooks.hooks.js';
import type { FinishedJob, WebhookEvent } from './webhooks.types.js';

/** Namespace of delivery ids (a fixed random UUID of this sandbox's). */
const DELIVERY_NAMESPACE = '6f1d2c3b-8e4a-4f5b-9c6d-7e8f9a0b1c2d';

/** Chaos `reorder`: how long a delivery waits for the tenant's next one to overtake it (tenant virtual clock). */
const REORDER_HOLD_MS = 60_000;

export function deliveriesOnJobEnd(deps: KernelDeps, store: WebhookStore, dispatcher: Dispatcher) {
  /** Chaos `reorder`: the delivery of each tenant waiting for the next one to go first (in memory only). */
  const held = new Map<string, string>();
  /** Sends a held delivery right after the one that overtook it (if its first attempt is not made yet). */
  const release = async (heldId: string, at: number) => {
    const delivery = await store.delivery(heldId);
    if (!delivery || delivery.status !== 'pending' || delivery.attempts.length) return;
    const moved = await store.updateDelivery({ ...delivery, nextAttemptAt: new Date(at).toISOString() });
    if (!moved) return;
    await deps.store.flush();
    dispatcher.schedule(moved);
  };
  return async function jobFinished({ tenantId, job }: FinishedJob): Promise<void> {
    const config = await store.config(job.id);
    if (!config || config.tenantId !== tenantId) return;
    const event: WebhookEvent = job.status === 'COMPLETED' ? 'job.completed' : 'job.failed';
    if (!deps.defects.at(WEBHOOKS_HOOKS.eventSent, config.events.includes(event), { event })) return;
    // A job ends once; a repeated notice must not send a second delivery. The id is a function of the job
    // and the event, so even two notices at once (two instances) create one delivery: the second create() is refused.
    const id = nameUuid(DELIVERY_NAMESPACE, `${job.id}/${event}`);
    if (await store.delivery(id)) return;
    const createdAt = deps.clocks.of(tenantId).nowIso();
    // Webhook chaos of the tenant (webhook-chaos.ts; off by default): a delayed first attempt, and pairs
    // of deliveries swapped (the first held until the next one has gone, or REORDER_HOLD_MS at most).
    const chaos = webhookChaosOf(deps.defects, tenantId);
    const firstAttempt = Date.parse(createdAt) + deps.defects.at(WEBHOOKS_HOOKS.firstAttemptDelayMs, 0) + chaos.delaySeconds * 1000;
    const overtaken = chaos.reorder ? held.get(tenantId) : undefined;
    const hold = chaos.reorder && overtaken === undefined;
    if (overtaken !== undefined) held.delete(tenantId);
    const delivery = await store.createDelivery({
      id,
      tenantId,
      jobId: job.id,
      event,
      url: config.url,
      status: 'pending',
      attempts: [],
      nextAttemptAt: new Date(firstAttempt + (hold ? REORDER_HOLD_MS : 0)).toISOString(),
      createdAt,
      // Serialized once: every retry sends (and signs) the same bytes.
      body: JSON.stringify(deliveryPayload(id, deps.defects.at(WEBHOOKS_HOOKS.payloadEvent, event, { job }), createdAt, deps.defects.at(WEBHOOKS_HOOKS.deliveryJob, job))),
    });
    if (!delivery) return;
    if (hold) held.set(tenantId, delivery.id);
    await deps.store.flush();
    dispatcher.schedule(delivery);
    if (overtaken !== undefined) await release(overtaken, firstAttempt + 1000);
  };
}
