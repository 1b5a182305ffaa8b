// Making deliveries. A job ended: one delivery per subscribed event (spec 6 "Events"), created durably with
// the exact bytes every attempt sends and signs, and handed to the dispatcher for attempt 1 at once (later
// under the tenant's webhook chaos `delaySeconds` or `reorder`, sandbox-defined and off by default).
// Sandbox-defined besides (issue 29 item 7, the control API only): a sample delivery of a job's event
// (`tfas trigger`) and a past delivery sent again (`tfas resend`). Both are made here, the same way, and sent
// by the same dispatcher: a receiver cannot tell them from a real delivery but by their content.
import type { KernelDeps } from '../../kernel/deps.js';
import { inTenantScope } from '../../kernel/defects.js';
import { actionNotAllowed, ApiError, notFound } from '../../kernel/errors.js';
import { nameUuid } from '../../kernel/ids.js';
import { deliveryPayload, toDeliveryView } from './delivery.response.js';
import type { Dispatcher } from './dispatcher.js';
import { webhookChaosOf } from './webhook-chaos.js';
import type { StoredDelivery, WebhookStore } from './webhook.store.js';
import { WEBHOOKS_HOOKS } from './webhooks.hooks.js';
import type { DeliveryView, FinishedJob, WebhookEvent, WebhooksOptions } from './webhooks.types.js';

/** Namespace of delivery ids (a fixed random UUID of this sandbox's). */
const DELIVERY_NAMESPACE = '6f1d2c3b-8e4a-4f5b-9c6d-7e8f9a0b1c2d';

/** Chaos `reorder`: how long a delivery waits for the tenant's next one to overtake it (tenant virtual clock). */
const REORDER_HOLD_MS = 60_000;

/** spec 6: the job status each event announces. */
const STATUS_OF: Record<WebhookEvent, FinishedJob['job']['status']> = { 'job.completed': 'COMPLETED', 'job.failed': 'FAILED' };

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

  /** When a delivery made now goes first: at once, or after a variant's delay and the tenant's chaos `delaySeconds`. */
  const firstAttemptAt = (tenantId: string, createdAt: string) =>
    Date.parse(createdAt) + deps.defects.at(WEBHOOKS_HOOKS.firstAttemptDelayMs, 0) + webhookChaosOf(deps.defects, tenantId).delaySeconds * 1000;

  /** spec 6 delivery body, serialized once: every attempt sends (and signs) the same bytes. */
  const bodyOf = (id: string, event: WebhookEvent, createdAt: string, job: FinishedJob['job']) =>
    JSON.stringify(deliveryPayload(id, deps.defects.at(WEBHOOKS_HOOKS.payloadEvent, event, { job }), createdAt, deps.defects.at(WEBHOOKS_HOOKS.deliveryJob, job)));

  /** Stores a new delivery durably and schedules its first attempt; undefined when its id exists already. */
  const createAndSchedule = async (delivery: StoredDelivery) => {
    const created = await store.createDelivery(delivery);
    if (!created) return undefined;
    await deps.store.flush();
    dispatcher.schedule(created);
    return created;
  };

  async function jobFinished({ tenantId, job }: FinishedJob): Promise<void> {
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
    const firstAttempt = firstAttemptAt(tenantId, createdAt);
    const overtaken = chaos.reorder ? held.get(tenantId) : undefined;
    const hold = chaos.reorder && overtaken === undefined;
    if (overtaken !== undefined) held.delete(tenantId);
    const delivery = await createAndSchedule({
      id,
      tenantId,
      jobId: job.id,
      event,
      url: config.url,
      status: 'pending',
      attempts: [],
      nextAttemptAt: new Date(firstAttempt + (hold ? REORDER_HOLD_MS : 0)).toISOString(),
      createdAt,
      origin: 'job',
      body: bodyOf(id, event, createdAt, job),
    });
    if (!delivery) return;
    if (hold) held.set(tenantId, delivery.id);
    if (overtaken !== undefined) await release(overtaken, firstAttempt + 1000);
  }

  /**
   * A new delivery of the tenant made from the control API: built in the tenant's scope, so the defects
   * switched on for that tenant shape it as they shape its real deliveries. Chaos `reorder` does not hold it
   * (it pairs a tenant's job deliveries); a delay applies as to any first attempt.
   */
  const sendNew = (tenantId: string, make: (id: string, createdAt: string) => Omit<StoredDelivery, 'nextAttemptAt' | 'status' | 'attempts'>) =>
    inTenantScope(tenantId, async (): Promise<DeliveryView> => {
      const createdAt = deps.clocks.of(tenantId).nowIso();
      const delivery = make(deps.ids.uuid(), createdAt);
      const created = await createAndSchedule({ ...delivery, status: 'pending', attempts: [], nextAttemptAt: new Date(firstAttemptAt(tenantId, createdAt)).toISOString() });
      if (!created) throw new Error(`delivery id ${delivery.id} exists already`); // a fresh random uuid: never
      return toDeliveryView(created);
    });

  async function trigger(sampleJob: NonNullable<WebhooksOptions['sampleJob']>, input: { jobId: string; event: WebhookEvent; tenantId?: string }): Promise<DeliveryView> {
    const config = await store.config(input.jobId);
    // Another tenant's job is no job of this one: the same 404 as a job that does not exist.
    const tenantId = config && (input.tenantId === undefined || input.tenantId === config.tenantId) ? config.tenantId : undefined;
    const sample = tenantId === undefined ? undefined : await sampleJob(tenantId, input.jobId, STATUS_OF[input.event]);
    if (!config || !sample) {
      throw new ApiError('NOT_FOUND', `no job ${input.jobId}${input.tenantId ? ` of tenant ${input.tenantId}` : ''} has a webhook: only a job enqueued with webhookUrl (or webhook.url) can be sent an event`);
    }
    return sendNew(sample.tenantId, (id, createdAt) => ({ id, tenantId: sample.tenantId, jobId: input.jobId, event: input.event, url: config.url, createdAt, origin: 'trigger', body: bodyOf(id, input.event, createdAt, sample.job) }));
  }

  async function redeliver(deliveryId: string): Promise<DeliveryView> {
    const past = await store.delivery(deliveryId);
    if (!past) throw notFound('webhook delivery');
    if (past.status === 'pending') {
      throw actionNotAllowed(`delivery ${past.id} is still pending: attempt ${past.attempts.length + 1} of 4 goes at ${past.nextAttemptAt} (tenant clock); send it again once it is delivered or failed`, { currentState: 'pending', action: 'redeliver', deliveryId: past.id });
    }
    // The same event as it was sent (its job object and event name as they went out), under a new delivery
    // id: each delivery has its own id (spec 6: the body `id` equals X-SVC-Delivery-ID, the same on retries),
    // so a receiver that deduplicates on it handles the redelivery as the new delivery it is.
    const sent = JSON.parse(past.body) as { event: string; job: FinishedJob['job'] };
    return sendNew(past.tenantId, (id, createdAt) => ({
      id,
      tenantId: past.tenantId,
      jobId: past.jobId,
      event: past.event,
      url: past.url,
      createdAt,
      origin: 'redelivery',
      redeliveryOf: past.id,
      body: JSON.stringify(deliveryPayload(id, sent.event, createdAt, sent.job)),
    }));
  }

  return { jobFinished, trigger, redeliver };
}
