// The one place the webhooks domain shapes a body: the delivery payload sent to integrators (spec 6), and
// a delivery as the sandbox control API lists it (with its sandbox-defined `origin`: a record stored before
// it was kept is a job's).
import type { StoredDelivery } from './webhook.store.js';
import type { DeliveryView, FinishedJob, WebhookEvent } from './webhooks.types.js';

/** spec 6 delivery body: the job object is the jobs domain's, as it shaped it (FinishedJob.job). */
export const deliveryPayload = (id: string, event: WebhookEvent | string, createdAt: string, job: FinishedJob['job']) => ({ id, event, createdAt, job });

/** A delivery without the signed bytes and the store's revision. */
export const toDeliveryView = ({ body: _body, rev: _rev, ...delivery }: StoredDelivery): DeliveryView => ({ ...delivery, origin: delivery.origin ?? 'job', attempts: delivery.attempts.map((a) => ({ ...a })) });
