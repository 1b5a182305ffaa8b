// Late delivery under a guarantee (reference 1, "Late delivery / GSR (MBG)"): delivered after the service
// commit on a service whose money-back guarantee applied on the ship date (not suspended: freight-rules.ts
// SERVICE_GUARANTEES) and is not waived by the agreement. Express services are late 60 seconds after the
// commit, ground services only on a later day. The refund is the transportation charge (UPS excludes fuel).
// Reason 38 Service Incorrect is the sandbox's choice: X12 426 has no code for a missed guarantee.
import { REASON_CODES, SERVICE_GUARANTEES, type ServiceGuarantee } from '#fixtures/freight/freight-rules.js';
import type { ShipmentLine } from '../../ship.types.js';
import { baseEvidence, money, round2, squash, transportationOf, type AuditRule } from '../rule.js';

/** The guarantee of the shipment's service in force on its ship date, or null. */
export function guaranteeOn(line: Pick<ShipmentLine, 'carrier' | 'service' | 'shipDate'>): ServiceGuarantee | null {
  const service = squash(line.service);
  const guarantee = SERVICE_GUARANTEES.find((g) => g.carrier === line.carrier && g.services.some((s) => squash(s) === service));
  if (!guarantee) return null;
  const suspended = guarantee.suspended.some((p) => line.shipDate >= p.from && (p.to === null || line.shipDate < p.to));
  return suspended ? null : guarantee;
}

export const lateDelivery: AuditRule = {
  type: 'late_delivery',
  description: 'delivered after the service commit on a service whose guarantee applied (not suspended, not waived in the agreement)',
  detect(line, { agreement }) {
    if (!line.guaranteedDelivery || !line.actualDelivery) return [];
    const guarantee = guaranteeOn(line);
    if (!guarantee || agreement?.gsrWaived) return [];
    const late = guarantee.lateness === 'minute' ? Date.parse(line.actualDelivery) > Date.parse(line.guaranteedDelivery) + 60_000 : line.actualDelivery.slice(0, 10) > line.guaranteedDelivery.slice(0, 10);
    const refund = transportationOf(line) ?? line.netCharge;
    if (!late || refund <= 0) return [];
    return [
      {
        findingType: 'late_delivery',
        reasonCode: REASON_CODES.serviceIncorrect,
        billedAmount: refund,
        expectedAmount: 0,
        recoverableAmount: round2(refund),
        headline: `${line.service} delivered ${line.actualDelivery.slice(0, 16).replace('T', ' ')} after its ${line.guaranteedDelivery.slice(0, 16).replace('T', ' ')} commit: guaranteed-service refund`,
        evidence: { ...baseEvidence(line), 'Service commit': line.guaranteedDelivery, 'Proof of delivery': line.actualDelivery, 'Guarantee source': `${guarantee.source} (as of ${guarantee.asOf})`, 'Refund (transportation)': money(refund, line.currency) },
        disputeKind: 'guarantee',
        chargeCodes: ['FRT'],
      },
    ];
  },
};
