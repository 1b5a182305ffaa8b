// The archived v1.2.0 reads over the same data (spec 4.5): GET /api/ship/audit (a page of audited
// shipments, filters `carrier` and `outcome`) and GET /api/ship/shipments/{shipmentId} (`{ shipment,
// findings }`). Both shapes are sandbox-defined (ShipmentAuditRow, ShipmentDetail).
import { NO_DEFECTS, type Defects } from '../../kernel/defects.js';
import { SHIP_HOOKS } from './ship.hooks.js';
import { notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { FindingPresenter } from './finding.response.js';
import type { FindingStore } from './finding.store.js';
import type { ShipmentStore } from './shipment.store.js';
import type { ShipmentAuditRow, ShipmentDetail, ShipmentRecord } from './ship.types.js';

/** spec 8.6: ship audit `limit` is 1..200; the default (not given) follows the other lists: 50. */
const AUDIT_DEFAULT_LIMIT = 50;

function toAuditRow(s: ShipmentRecord): ShipmentAuditRow {
  return { shipmentId: s.id, carrier: s.carrier, trackingNumber: s.trackingNumber, invoiceNumber: s.invoiceNumber, shipDate: s.shipDate, service: s.service, outcome: s.outcome, billedAmount: s.netCharge, expectedAmount: s.expectedAmount, currency: s.currency, findingCount: s.findingCount };
}

function toShipmentDetail(s: ShipmentRecord): ShipmentDetail {
  return {
    ...toAuditRow(s),
    ...(s.accountNumber ? { accountNumber: s.accountNumber } : {}),
    agreementNumber: s.agreementNumber,
    originPostalCode: s.originPostalCode,
    destinationPostalCode: s.destinationPostalCode,
    zone: s.zone,
    actualWeight: s.actualWeight ?? 0,
    ratedWeight: s.ratedWeight ?? s.actualWeight ?? 0,
    weightUnit: 'LB',
    dimensions: s.dimensions,
    charges: s.charges,
  };
}

export function shipAuditRoutes(shipments: ShipmentStore, findings: FindingStore, present: FindingPresenter, defects: Defects = NO_DEFECTS) {
  return {
    async listShipmentAudits({ principal, query }) {
      const limit = query.limit ?? defects.at(SHIP_HOOKS.auditDefaultLimit, AUDIT_DEFAULT_LIMIT);
      const offset = query.offset ?? 0;
      const filter = defects.at(SHIP_HOOKS.auditFilter, { carrier: query.carrier, outcome: query.outcome });
      const page = await shipments.list(principal.tenantId, filter, { limit, offset });
      return { status: 200, body: { shipments: page.items.map(toAuditRow), total: page.total, limit, offset, hasMore: offset + page.items.length < page.total } };
    },
    async getShipment({ principal, params }) {
      const shipment = await shipments.get(principal.tenantId, params.shipmentId);
      if (!shipment) throw notFound('shipment');
      const view = await present(principal.tenantId);
      const items = await Promise.all((await findings.ofShipment(shipment.id)).map((f) => view.item(f)));
      return { status: 200, body: { shipment: toShipmentDetail(shipment), findings: items } };
    },
  } satisfies HandlerTable;
}
