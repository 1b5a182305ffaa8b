// Audited shipments (`shipShipments`): the only file touching the collection. Read by the v1.2.0 audit
// endpoints (spec 4.5 GET /api/ship/audit with carrier and outcome filters, GET /api/ship/shipments/{id})
// and by the duplicate-billing rule (a tenant's earlier billing of a tracking number).
import type { KernelDeps } from '../../kernel/deps.js';
import type { Where } from '../../kernel/store/collection.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import type { ShipmentAuditOutcome, ShipmentRecord } from './ship.types.js';

type Field = 'tenantId' | 'carrier' | 'outcome' | 'trackingNumber' | 'createdAt' | 'row' | 'jobId';

export function shipmentStore(deps: Pick<KernelDeps, 'store'>) {
  const shipments = deps.store.collection<ShipmentRecord, Field>('shipShipments', {
    fields: { tenantId: (s) => s.tenantId, carrier: (s) => s.carrier, outcome: (s) => s.outcome, trackingNumber: (s) => s.trackingNumber, createdAt: (s) => s.createdAt, row: (s) => s.row, jobId: (s) => s.jobId },
    indexes: {
      // spec 4.5 ship audit: newest upload first, then file order; carrier and outcome filter within the tenant.
      byTenant: { keys: ['tenantId'], order: [['createdAt', 'desc'], ['row', 'asc']] },
      byCarrier: { keys: ['tenantId', 'carrier'], order: [['createdAt', 'desc'], ['row', 'asc']] },
      byOutcome: { keys: ['tenantId', 'outcome'], order: [['createdAt', 'desc'], ['row', 'asc']] },
      // Duplicate billing: has this tenant been billed for the tracking number before?
      byTracking: { keys: ['tenantId', 'trackingNumber'], order: [['createdAt', 'asc'], ['row', 'asc']] },
    },
  });
  return {
    create: (record: ShipmentRecord) => shipments.create(compact(record)),
    get: async (tenantId: string, id: string) => {
      const found = await shipments.get(id);
      return found?.tenantId === tenantId ? expandShipment(found) : undefined;
    },
    /** The first billing of a tracking number for the tenant by a job other than `exceptJobId` (the job
     *  asking, whose own earlier run after a crash is no earlier billing), or undefined. */
    firstBilling: async (tenantId: string, trackingNumber: string, exceptJobId: string) =>
      shipments.first({ where: { tenantId, trackingNumber, jobId: { notIn: [exceptJobId] } } }),
    list: async (tenantId: string, filter: { carrier?: string; outcome?: ShipmentAuditOutcome }, page: { limit: number; offset: number }) => {
      const where: Where<Field> = { tenantId };
      if (filter.carrier) where.carrier = filter.carrier.toUpperCase();
      if (filter.outcome) where.outcome = filter.outcome;
      // Both filters: the carrier's index, outcome filtered within it.
      const found = await shipments.query({ where, limit: page.limit, offset: page.offset });
      return { ...found, items: found.items.map(expandShipment) };
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(shipments, { tenantId }),
  };
}

/**
 * A 100,000-row file keeps 100,000 shipments in the store: what is null, and the transportation line that
 * repeats `transportationCharge`, is left out of the stored record (readers default them: expandShipment).
 */
function compact(record: ShipmentRecord): ShipmentRecord {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== null && value !== undefined) out[key] = value;
  const charges = record.charges.filter((c, i) => !(i === 0 && c.code === 'FRT' && c.amount === record.transportationCharge));
  if (charges.length) out.charges = charges;
  else delete out.charges;
  return out as unknown as ShipmentRecord;
}

/** A stored shipment with every field of ShipmentRecord (nulls and the transportation line restored). */
function expandShipment(stored: ShipmentRecord): ShipmentRecord {
  const s = stored as Partial<ShipmentRecord> & ShipmentRecord;
  const transportation = s.transportationCharge ?? null;
  const charges = s.charges ?? [];
  const withFreight = transportation !== null && !(charges[0]?.code === 'FRT') ? [{ code: 'FRT', description: 'Transportation Charge', amount: transportation }, ...charges] : charges;
  return {
    ...s,
    accountNumber: s.accountNumber ?? null, invoiceDate: s.invoiceDate ?? null, zone: s.zone ?? null, actualWeight: s.actualWeight ?? null, ratedWeight: s.ratedWeight ?? null,
    dimensions: s.dimensions ?? null, transportationCharge: transportation, charges: withFreight, guaranteedDelivery: s.guaranteedDelivery ?? null, actualDelivery: s.actualDelivery ?? null,
    recipientAddress: s.recipientAddress ?? null, originalRecipientAddress: s.originalRecipientAddress ?? null, recipientAddressType: s.recipientAddressType ?? null, orderId: s.orderId ?? null,
    agreementNumber: s.agreementNumber ?? null, expectedAmount: s.expectedAmount ?? null, originPostalCode: s.originPostalCode ?? '', destinationPostalCode: s.destinationPostalCode ?? '',
  };
}

export type ShipmentStore = ReturnType<typeof shipmentStore>;
