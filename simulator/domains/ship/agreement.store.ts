// Carrier agreements (`shipAgreements`) and orders (`shipOrders`): the only file touching them. One
// agreement per tenant and carrier (a new upload replaces it); orders keyed by the tenant's order id.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { AgreementRecord, Carrier, OrderRecord, OrderRemovalRecord } from './ship.types.js';

/** A stable record id from its natural key (no scan to find a tenant's agreement or order). */
const keyId = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

export function agreementStore(deps: Pick<KernelDeps, 'store'>) {
  const agreements = deps.store.collection<AgreementRecord, 'tenantId'>('shipAgreements', { fields: { tenantId: (a) => a.tenantId }, indexes: { byTenant: { keys: ['tenantId'] } } });
  return {
    idOf: (tenantId: string, carrier: Carrier) => keyId('agreement', tenantId, carrier),
    get: (tenantId: string, carrier: Carrier) => agreements.get(keyId('agreement', tenantId, carrier)),
    put: (record: AgreementRecord) => agreements.put(record),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(agreements, { tenantId }),
  };
}

export function orderStore(deps: Pick<KernelDeps, 'store'>) {
  const orders = deps.store.collection<OrderRecord, 'tenantId' | 'jobId' | 'orderId'>('shipOrders', {
    fields: { tenantId: (o) => o.tenantId, jobId: (o) => o.jobId, orderId: (o) => o.orderId },
    indexes: { byTenant: { keys: ['tenantId'], order: [['orderId', 'asc']] } },
  });
  // What each SNAPSHOT upload removed, one record per order, written before the order goes: a job run again
  // after a crash in the middle of its removals counts the ones its earlier run made (spec 3.1/3.2: the
  // result of a COMPLETED job is the work done; issue 30 item 3), whichever store holds them.
  const removals = deps.store.collection<OrderRemovalRecord, 'tenantId' | 'jobId'>('shipOrderRemovals', {
    fields: { tenantId: (r) => r.tenantId, jobId: (r) => r.jobId },
    indexes: { byJob: { keys: ['jobId'] }, byTenant: { keys: ['tenantId'] } },
  });
  return {
    idOf: (tenantId: string, orderId: string) => keyId('order', tenantId, orderId),
    get: (tenantId: string, orderId: string) => orders.get(keyId('order', tenantId, orderId)),
    put: (record: OrderRecord) => orders.put(record),
    /** SNAPSHOT: the order goes, its removal by `jobId` recorded first (a put keyed by job and order). */
    async remove(jobId: string, order: OrderRecord): Promise<void> {
      await removals.put({ id: keyId('removal', jobId, order.id), tenantId: order.tenantId, jobId, orderId: order.orderId });
      await orders.delete(order.id);
    },
    /** How many orders job `jobId` removed, over all its runs. */
    removedBy: (jobId: string) => removals.count({ jobId }),
    count: (tenantId: string) => orders.count({ tenantId }),
    /** The tenant's orders not written by this job (SNAPSHOT removes them), in pages along the index. */
    async *notFromJob(tenantId: string, jobId: string): AsyncGenerator<OrderRecord> {
      let after: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof orders.query>> = await orders.query({ where: { tenantId, jobId: { notIn: [jobId] } }, limit: 500, after });
        yield* page.items;
        after = page.nextCursor;
      } while (after);
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by their indexes. */
    purgeTenant: async (tenantId: string) => (await deleteMatching(orders, { tenantId })) + (await deleteMatching(removals, { tenantId })),
  };
}

export type AgreementStore = ReturnType<typeof agreementStore>;
export type OrderStore = ReturnType<typeof orderStore>;
