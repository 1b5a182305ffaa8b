// Carrier agreements (`shipAgreements`) and orders (`shipOrders`): the only file touching them. One
// agreement per tenant and carrier (a new upload replaces it); orders keyed by the tenant's order id.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { AgreementRecord, Carrier, OrderRecord } from './ship.types.js';

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
  return {
    idOf: (tenantId: string, orderId: string) => keyId('order', tenantId, orderId),
    get: (tenantId: string, orderId: string) => orders.get(keyId('order', tenantId, orderId)),
    put: (record: OrderRecord) => orders.put(record),
    delete: (id: string) => orders.delete(id),
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
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(orders, { tenantId }),
  };
}

export type AgreementStore = ReturnType<typeof agreementStore>;
export type OrderStore = ReturnType<typeof orderStore>;
