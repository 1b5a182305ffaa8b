// What an audit rule is: one finding type, detected from one invoice row (and the tenant's agreement,
// earlier billings and orders), as data-driven as the reference allows: thresholds, divisors, guarantees
// and reason codes come from fixtures/freight/freight-rules.ts, never from the rule's code.
import type { AgreementRecord, FindingDraft, FindingType, OrderRecord, ShipmentCharge, ShipmentLine } from '../ship.types.js';

export interface AuditContext {
  /** The tenant's agreement with the shipment's carrier, when one was uploaded. */
  agreement: AgreementRecord | null;
  /** An earlier billing of the same tracking number (this file or an earlier upload), or null. */
  earlierBilling: { invoiceNumber: string } | null;
  /** The tenant's order the shipment references (orders upload), when known. */
  order: Pick<OrderRecord, 'recipientAddressType'> | null;
}

export interface AuditRule {
  type: FindingType;
  /** One sentence: what the rule looks for (README table). */
  description: string;
  detect(line: ShipmentLine, context: AuditContext): FindingDraft[];
}

/** Amounts to the cent: the simulator's one rounding (kernel/numbers.ts), offered here with the rules' other helpers. */
export { round2 } from '../../../kernel/numbers.js';
export const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
export const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;

/** The billed charges with this audit code. */
export const chargesWith = (line: ShipmentLine, code: string): ShipmentCharge[] => line.charges.filter((c) => c.code === code);

/** The transportation (freight) charge as billed: the column, else the FRT line. */
export const transportationOf = (line: ShipmentLine): number | null => line.transportationCharge ?? chargesWith(line, 'FRT')[0]?.amount ?? null;

/** The common evidence of a finding: what identifies the package on the invoice. */
export const baseEvidence = (line: ShipmentLine): Record<string, string> => ({
  'Invoice number': line.invoiceNumber,
  ...(line.invoiceDate ? { 'Invoice date': line.invoiceDate } : {}),
  'Tracking number': line.trackingNumber,
  'Ship date': line.shipDate,
  Service: line.service,
});

/** The contract transportation charge for the service, zone and weight, when the agreement rates it. */
export function contractRate(agreement: AgreementRecord | null, line: Pick<ShipmentLine, 'service' | 'zone'>, weight: number): number | null {
  if (!agreement || !line.zone) return null;
  const service = squash(line.service);
  const zone = squash(line.zone);
  const bands = agreement.rates.filter((r) => squash(r.service) === service && squash(r.zone) === zone && weight <= r.maxWeight);
  if (!bands.length) return null;
  return bands.reduce((best, r) => (r.maxWeight < best.maxWeight ? r : best)).amount;
}
