// Accessorial not in the agreement (reference 1, "Accessorial not in/waived by agreement"): an accessorial
// charge the agreement waives, does not list at all, or caps below what was billed (reason 23 Special
// Charge Not Authorized). One finding per charge. Needs an agreement with the carrier; charges another rule
// already disputes (residential, address correction) are left to it by the engine.
import { CHARGE_CODES, REASON_CODES } from '#fixtures/freight/freight-rules.js';
import type { FindingDraft } from '../../ship.types.js';
import { baseEvidence, money, round2, type AuditRule } from '../rule.js';

const ACCESSORIALS = new Set(CHARGE_CODES.filter((c) => c.kind === 'accessorial').map((c) => c.code));

export const accessorialNotInAgreement: AuditRule = {
  type: 'accessorial_not_in_agreement',
  description: 'an accessorial charge the agreement waives, does not list, or caps below the billed amount',
  detect(line, { agreement }) {
    if (!agreement) return [];
    const out: FindingDraft[] = [];
    for (const charge of line.charges) {
      if (!charge.code || !ACCESSORIALS.has(charge.code) || charge.amount <= 0) continue;
      const term = agreement.accessorials.find((a) => a.code === charge.code);
      const expected = !term || term.status === 'waived' ? 0 : term.amount !== null && charge.amount > term.amount + 0.005 ? term.amount : null;
      if (expected === null) continue;
      const why = !term ? 'not in the agreement' : term.status === 'waived' ? 'waived by the agreement' : `above the agreement's ${money(term.amount!, line.currency)}`;
      out.push({
        findingType: 'accessorial_not_in_agreement',
        reasonCode: REASON_CODES.specialChargeNotAuthorized,
        billedAmount: charge.amount,
        expectedAmount: expected,
        recoverableAmount: round2(charge.amount - expected),
        headline: `${charge.description} ${money(charge.amount, line.currency)} billed, ${why}`,
        evidence: { ...baseEvidence(line), Charge: `${charge.description} (${charge.code})`, Agreement: agreement.agreementNumber ?? 'on file', 'Agreement term': term ? `${term.status}${term.amount !== null ? ` up to ${money(term.amount, line.currency)}` : ''}` : 'not listed' },
        disputeKind: 'billing',
        chargeCodes: [charge.code],
      });
    }
    return out;
  },
};
