// Residential surcharge on a commercial address (reference 1, "Residential misapplied"): a residential
// delivery charge on a consignee the invoice (or the tenant's order, orders upload) marks commercial.
// FedEx Home Delivery is residential by definition, so it is never raised there. Reason 23 Special Charge
// Not Authorized.
import { REASON_CODES } from '#fixtures/freight/freight-rules.js';
import { baseEvidence, chargesWith, money, round2, squash, type AuditRule } from '../rule.js';

export const residentialMisapplied: AuditRule = {
  type: 'residential_misapplied',
  description: 'residential surcharge billed on a consignee marked commercial (invoice or order), Home Delivery excepted',
  detect(line, { order }) {
    const surcharges = chargesWith(line, 'RES');
    if (!surcharges.length || squash(line.service).includes('homedelivery')) return [];
    const type = line.recipientAddressType ?? order?.recipientAddressType ?? null;
    if (type !== 'COMMERCIAL') return [];
    const amount = round2(surcharges.reduce((s, c) => s + c.amount, 0));
    if (amount <= 0) return [];
    return [
      {
        findingType: 'residential_misapplied',
        reasonCode: REASON_CODES.specialChargeNotAuthorized,
        billedAmount: amount,
        expectedAmount: 0,
        recoverableAmount: amount,
        headline: `Residential delivery surcharge ${money(amount, line.currency)} billed on a commercial consignee`,
        evidence: { ...baseEvidence(line), 'Consignee type': `COMMERCIAL (${line.recipientAddressType ? 'invoice' : 'order ' + line.orderId})`, 'Surcharge billed': money(amount, line.currency) },
        disputeKind: 'billing',
        chargeCodes: ['RES'],
      },
    ];
  },
};
