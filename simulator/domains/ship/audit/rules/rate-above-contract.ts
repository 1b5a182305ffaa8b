// Rate above contract (reference 1, "Discount not applied"): the transportation charge billed is above
// the agreement's contract rate for the service, zone and rated weight band (reason 24 Incorrect Discount).
// Needs an agreement that rates the service and zone; otherwise nothing is raised (the shipment is
// NEEDS_REVIEW when no agreement exists at all).
import { REASON_CODES } from '#fixtures/freight/freight-rules.js';
import { baseEvidence, contractRate, money, round2, transportationOf, type AuditRule } from '../rule.js';

export const rateAboveContract: AuditRule = {
  type: 'discount_not_applied',
  description: "transportation charge above the agreement's contract rate for the service, zone and weight band",
  detect(line, { agreement }) {
    const billed = transportationOf(line);
    if (billed === null || line.ratedWeight === null) return [];
    const weight = Math.ceil(line.ratedWeight);
    const contract = contractRate(agreement, line, weight);
    if (contract === null || billed <= contract + 0.005) return [];
    return [
      {
        findingType: 'discount_not_applied',
        reasonCode: REASON_CODES.incorrectDiscount,
        billedAmount: billed,
        expectedAmount: contract,
        recoverableAmount: round2(billed - contract),
        headline: `${line.service} zone ${line.zone} at ${weight} lb billed ${money(billed, line.currency)}, contract rate ${money(contract, line.currency)}`,
        evidence: { ...baseEvidence(line), Zone: String(line.zone), 'Rated weight': `${weight} lb`, Agreement: agreement?.agreementNumber ?? 'on file', 'Billed vs contract': `${money(billed, line.currency)} vs ${money(contract, line.currency)}` },
        disputeKind: 'billing',
        chargeCodes: ['FRT'],
      },
    ];
  },
};
