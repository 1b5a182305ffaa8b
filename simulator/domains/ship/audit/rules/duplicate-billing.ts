// Duplicate billing (reference 1: "same tracking number on two invoices"): a package billed again, on
// another invoice or twice on one, is disputed in full (reason 19 Duplicate Billing). The first billing is
// the genuine one; every later row of the tracking number is the duplicate.
import { REASON_CODES } from '#fixtures/freight/freight-rules.js';
import { baseEvidence, money, type AuditRule } from '../rule.js';

export const duplicateBilling: AuditRule = {
  type: 'duplicate_billing',
  description: 'a tracking number already billed (earlier in the file or in an earlier upload) is billed again',
  detect(line, { earlierBilling }) {
    if (!earlierBilling || line.netCharge <= 0) return [];
    const again = earlierBilling.invoiceNumber === line.invoiceNumber ? `twice on invoice ${line.invoiceNumber}` : `on invoice ${line.invoiceNumber} after invoice ${earlierBilling.invoiceNumber}`;
    return [
      {
        findingType: 'duplicate_billing',
        reasonCode: REASON_CODES.duplicateBilling,
        billedAmount: line.netCharge,
        expectedAmount: 0,
        recoverableAmount: line.netCharge,
        headline: `Tracking number ${line.trackingNumber} billed ${again}`,
        evidence: { ...baseEvidence(line), 'First billed on invoice': earlierBilling.invoiceNumber, 'Billed again': money(line.netCharge, line.currency) },
        disputeKind: 'billing',
        chargeCodes: ['*'],
      },
    ];
  },
};
