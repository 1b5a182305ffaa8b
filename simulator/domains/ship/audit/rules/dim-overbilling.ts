// DIM weight overbilled (reference 1, "DIM overbilling"): the rated weight exceeds
// max(ceil(actual weight), ceil(L x W x H / divisor)) with dimensions rounded to the nearest inch and the
// agreement's DIM divisor (the list divisor when the agreement names none). What can be recovered is the
// rate difference: the contract rate at the right weight when the agreement rates it, else the billed
// transportation charge prorated by weight. The carrier wants the measurements: actionability needs_evidence.
import { LIST_DIM_DIVISOR, REASON_CODES } from '#fixtures/freight/freight-rules.js';
import { baseEvidence, contractRate, money, round2, transportationOf, type AuditRule } from '../rule.js';

export const dimOverbilling: AuditRule = {
  type: 'dim_overbilling',
  description: "rated weight above max(actual weight, dimensional weight at the agreement's DIM divisor), both rounded up",
  detect(line, { agreement }) {
    const { dimensions: dims, actualWeight, ratedWeight } = line;
    if (!dims || actualWeight === null || ratedWeight === null) return [];
    const divisor = agreement?.dimDivisor ?? LIST_DIM_DIVISOR.value;
    const cubic = Math.round(dims.length) * Math.round(dims.width) * Math.round(dims.height);
    const dimWeight = Math.ceil(cubic / divisor);
    const expectedWeight = Math.max(Math.ceil(actualWeight), dimWeight);
    if (ratedWeight <= expectedWeight) return [];
    const billed = transportationOf(line) ?? line.netCharge;
    const expected = contractRate(agreement, line, expectedWeight) ?? round2((billed * expectedWeight) / ratedWeight);
    const recoverable = round2(billed - expected);
    if (recoverable <= 0) return [];
    const wrongDivisor = dims.divisor !== null && dims.divisor !== divisor;
    return [
      {
        findingType: 'dim_overbilling',
        reasonCode: wrongDivisor ? REASON_CODES.dimensionsIncorrect : REASON_CODES.weightError,
        billedAmount: billed,
        expectedAmount: expected,
        recoverableAmount: recoverable,
        headline: `Rated at ${ratedWeight} lb where ${expectedWeight} lb applies (${cubic} in3 / ${divisor}${wrongDivisor ? `, billed with divisor ${dims.divisor}` : ''})`,
        evidence: {
          ...baseEvidence(line),
          Dimensions: `${dims.length} x ${dims.width} x ${dims.height} in`,
          'Actual weight': `${actualWeight} lb`,
          'Rated weight billed': `${ratedWeight} lb`,
          'DIM divisor': `${divisor}${agreement?.dimDivisor ? ' (agreement)' : ` (list, ${LIST_DIM_DIVISOR.source})`}`,
          'Expected rated weight': `${expectedWeight} lb`,
          'Billed vs expected': `${money(billed, line.currency)} vs ${money(expected, line.currency)}`,
        },
        disputeKind: 'billing',
        needsEvidence: true,
        chargeCodes: ['FRT'],
      },
    ];
  },
};
