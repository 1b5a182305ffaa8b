// Webhook configurations per job and deliveries with their attempts. The only file touching the
// `webhookConfigs` and `webhookDeliveries` collections.
import type { KernelDeps } from '../../kernel/deps.js';
import type { SealedSecret } from './secret-box.js';
import type { DeliveryView, WebhookEvent } from './webhook.types.js';

export interface StoredConfig {
  /** The job id. */
  id: string;
  tenantId: string;
  url: string;
  events: WebhookEvent[];
  secret: SealedSecret | null;
  createdAt: string;
}

export interface StoredDelivery extends DeliveryView {
  /** The exact JSON bytes sent (and signed) on every attempt: serialized once at creation. */
  body: string;
}

export function webhookStore(deps: Pick<KernelDeps, 'store'>) {
  const configs = deps.store.collection<StoredConfig>('webhookConfigs');
  const deliveries = deps.store.collection<StoredDelivery>('webhookDeliveries', {
    indexes: { byTenant: (d) => d.tenantId, byJob: (d) => d.jobId },
  });
  const byCreation = (a: StoredDelivery, b: StoredDelivery) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
  return {
    config: (jobId: string) => configs.get(jobId),
    putConfig: (config: StoredConfig) => configs.put(config),
    delivery: (id: string) => deliveries.get(id),
    putDelivery: (delivery: StoredDelivery) => deliveries.put(delivery),
    deliveriesOfJob: (jobId: string) => deliveries.findBy('byJob', jobId),
    list(filter: { tenantId?: string; jobId?: string } = {}): StoredDelivery[] {
      const base = filter.jobId !== undefined ? deliveries.findBy('byJob', filter.jobId) : filter.tenantId !== undefined ? deliveries.findBy('byTenant', filter.tenantId) : [...deliveries.values()];
      return base.filter((d) => filter.tenantId === undefined || d.tenantId === filter.tenantId).sort(byCreation);
    },
    pending: () => [...deliveries.values()].filter((d) => d.status === 'pending'),
  };
}

export type WebhookStore = ReturnType<typeof webhookStore>;
