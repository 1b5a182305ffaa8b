// The audit engine: every rule over one invoice row, in order; a charge disputed by an earlier rule is not
// disputed again by a later one (a duplicate row disputes everything, so nothing else is raised on it).
// Also what a shipment's audit outcome is (spec 4.5 outcome AT_RISK / CLEAR / NEEDS_REVIEW) and each
// finding's dispute deadline (freight-rules.ts DISPUTE_WINDOWS).
import { DISPUTE_WINDOWS } from '#fixtures/freight/freight-rules.js';
import type { FindingDraft, ShipmentAuditOutcome, ShipmentLine } from '../ship.types.js';
import type { AuditContext, AuditRule } from './rule.js';
import { round2 } from './rule.js';
import { accessorialNotInAgreement } from './rules/accessorial-not-in-agreement.js';
import { addressCorrection } from './rules/address-correction.js';
import { dimOverbilling } from './rules/dim-overbilling.js';
import { duplicateBilling } from './rules/duplicate-billing.js';
import { lateDelivery } from './rules/late-delivery.js';
import { rateAboveContract } from './rules/rate-above-contract.js';
import { residentialMisapplied } from './rules/residential-misapplied.js';

/** In the order they claim charges: the whole package first, then transportation, then named accessorials. */
export const AUDIT_RULES: readonly AuditRule[] = [duplicateBilling, lateDelivery, dimOverbilling, rateAboveContract, addressCorrection, residentialMisapplied, accessorialNotInAgreement];

export function auditShipment(line: ShipmentLine, context: AuditContext, rules: readonly AuditRule[] = AUDIT_RULES): FindingDraft[] {
  const claimed = new Set<string>();
  const out: FindingDraft[] = [];
  for (const rule of rules) {
    if (claimed.has('*')) break;
    for (const draft of rule.detect(line, context)) {
      if (draft.chargeCodes.some((c) => claimed.has(c)) || (draft.chargeCodes.includes('*') && claimed.size)) continue;
      draft.chargeCodes.forEach((c) => claimed.add(c));
      out.push(draft);
    }
  }
  return out;
}

/**
 * AT_RISK with findings; NEEDS_REVIEW without findings when no agreement with the carrier was on file (the
 * contract-rate rules could not run); CLEAR otherwise. Expected amount: billed minus what can be recovered,
 * null when it could not be computed (NEEDS_REVIEW).
 */
export function shipmentOutcome(line: ShipmentLine, findings: FindingDraft[], hasAgreement: boolean): { outcome: ShipmentAuditOutcome; expectedAmount: number | null } {
  if (findings.length) return { outcome: 'AT_RISK', expectedAmount: round2(line.netCharge - findings.reduce((s, f) => s + f.recoverableAmount, 0)) };
  if (!hasAgreement) return { outcome: 'NEEDS_REVIEW', expectedAmount: null };
  return { outcome: 'CLEAR', expectedAmount: line.netCharge };
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The last day the carrier accepts the dispute (freight-rules.ts DISPUTE_WINDOWS), or null when unknown. */
export function disputeDeadline(line: Pick<ShipmentLine, 'carrier' | 'shipDate' | 'invoiceDate' | 'guaranteedDelivery'>, kind: FindingDraft['disputeKind']): string | null {
  const window = DISPUTE_WINDOWS.find((w) => w.carrier === line.carrier && w.kind === kind);
  if (!window) return null;
  const anchor = window.anchor === 'shipDate' ? line.shipDate : window.anchor === 'invoiceDate' ? line.invoiceDate : (line.guaranteedDelivery?.slice(0, 10) ?? null);
  return addDays(anchor ?? line.shipDate, window.days);
}
