// Webhook configurations per job and deliveries with their attempts. The only file touching the
// `webhookConfigs` and `webhookDeliveries` collections.
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { SealedSecret } from './secret-box.js';
import type { DeliveryView, WebhookEvent } from './webhooks.types.js';

export interface StoredConfig {
  /** The job id. */
  id: string;
  rev?: number;
  tenantId: string;
  url: string;
  events: WebhookEvent[];
  secret: SealedSecret | null;
  createdAt: string;
}

export interface StoredDelivery extends DeliveryView {
  rev?: number;
  /** The exact JSON bytes sent (and signed) on every attempt: serialized once at creation. */
  body: string;
}

type DeliveryField = 'tenantId' | 'jobId' | 'status' | 'createdAt';

export function webhookStore(deps: Pick<KernelDeps, 'store'>) {
  const configs = deps.store.collection<StoredConfig, 'tenantId'>('webhookConfigs', { fields: { tenantId: (c) => c.tenantId }, indexes: { byTenant: { keys: ['tenantId'] } } });
  const deliveries = deps.store.collection<StoredDelivery, DeliveryField>('webhookDeliveries', {
    fields: { tenantId: (d) => d.tenantId, jobId: (d) => d.jobId, status: (d) => d.status, createdAt: (d) => d.createdAt },
    indexes: {
      all: { keys: [], order: [['createdAt', 'asc']] },
      byTenant: { keys: ['tenantId'], order: [['createdAt', 'asc']] },
      byJob: { keys: ['jobId'], order: [['createdAt', 'asc']] },
      // What a restart resumes.
      byStatus: { keys: ['status'], order: [['createdAt', 'asc']] },
    },
  });
  return {
    config: (jobId: string) => configs.get(jobId),
    putConfig: (config: StoredConfig) => configs.put(config),
    delivery: (id: string) => deliveries.get(id),
    createDelivery: (delivery: StoredDelivery) => deliveries.create(delivery),
    /** Compare-and-set: null when another dispatcher recorded this attempt first. */
    updateDelivery: (delivery: StoredDelivery) => deliveries.update(delivery),
    /** Oldest first. */
    list: async (filter: { tenantId?: string; jobId?: string } = {}): Promise<StoredDelivery[]> =>
      (await deliveries.query({ where: { ...(filter.jobId === undefined ? {} : { jobId: filter.jobId }), ...(filter.tenantId === undefined ? {} : { tenantId: filter.tenantId }) } })).items,
    pending: async () => (await deliveries.query({ where: { status: 'pending' } })).items,
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by their indexes. */
    purgeTenant: async (tenantId: string) => (await deleteMatching(configs, { tenantId })) + (await deleteMatching(deliveries, { tenantId })),
  };
}

export type WebhookStore = ReturnType<typeof webhookStore>;
