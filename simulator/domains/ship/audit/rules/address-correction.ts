// Address-correction fee disputed (reference 1, "Address correction"): the fee is billed although the
// original recipient address was the address delivered to (FedEx `Original Recipient Address*` equal to
// `Recipient Address*`): nothing was corrected. Reason 40 Address Incorrect; the fee is recoverable.
import { REASON_CODES } from '#fixtures/freight/freight-rules.js';
import { baseEvidence, chargesWith, money, round2, squash, type AuditRule } from '../rule.js';

export const addressCorrection: AuditRule = {
  type: 'address_correction',
  description: 'address-correction fee billed although the original recipient address is the one delivered to',
  detect(line) {
    const fees = chargesWith(line, 'ADC');
    if (!fees.length || !line.originalRecipientAddress || !line.recipientAddress) return [];
    if (squash(line.originalRecipientAddress) !== squash(line.recipientAddress)) return []; // a real correction
    const fee = round2(fees.reduce((s, c) => s + c.amount, 0));
    if (fee <= 0) return [];
    return [
      {
        findingType: 'address_correction',
        reasonCode: REASON_CODES.addressIncorrect,
        billedAmount: fee,
        expectedAmount: 0,
        recoverableAmount: fee,
        headline: `Address correction fee ${money(fee, line.currency)} billed although the original address ${line.originalRecipientAddress} was delivered to unchanged`,
        evidence: { ...baseEvidence(line), 'Original recipient address': line.originalRecipientAddress, 'Delivered to': line.recipientAddress, 'Fee billed': money(fee, line.currency) },
        disputeKind: 'billing',
        chargeCodes: ['ADC'],
      },
    ];
  },
};
