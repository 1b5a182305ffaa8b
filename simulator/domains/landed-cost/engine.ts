// The landed-cost engine (spec 4.6): one quote from the canonical request, the reference data and the
// tenant's virtual-clock date. Pure: no store, no clock of its own. Corridors (rule 5) are resolved
// before it runs (corridor.ts); what it returns is an engine result, `authoritative` or
// `rate_not_available`.
//
//   customs value   the product value (FOB: US, Canada) or product + shipping + insurance (CIF: UK, EU)
//   duty            the tariff row's terms on the customs value and the declared quantity (duty.ts),
//                   spared by a de minimis tier (rule 3) or replaced by the EU's flat charge
//   taxes           the destination's default import tax on the customs value on its own basis + duty + fees
//   total           product + shipping + insurance + duty + taxes + fees, each part rounded to the cent
import { evaluateDeMinimis, QUOTE_CHANNEL } from './de-minimis.js';
import { computeDuty } from './duty.js';
import { LANDED_COST_HOOKS, type QuoteDeviations } from './landed-cost.hooks.js';
import type { Breakdown, DutyBasis, FeeLine, LandedCostResponse, QuoteInput, TaxLine } from './landed-cost.types.js';
import { round2, sum2 } from '../../kernel/numbers.js';
import { compareWithProvider } from './provider.js';
import type { ReferenceData } from './reference-data.js';

/** Amounts of a request without `currency` are read as US dollars (the US/default authority's currency). */
const DEFAULT_QUOTE_CURRENCY = 'USD';

/** spec 4.6 rule 4: the EU low-value boundary of the trust gate, in EUR. */
export const EU_LOW_VALUE_BOUNDARY_EUR = 150;

/** Rule 5's part of the metadata: whether the tenant restricts quotes to corridors, and the match. */
export interface QuotePolicy {
  policyMode: 'configured' | 'unrestricted';
  corridorConfigured: boolean;
}

export interface QuoteContext {
  /** The tenant's virtual-clock date, YYYY-MM-DD: thresholds and rates are those in force on it. */
  date: string;
  data: ReferenceData;
  policy: QuotePolicy;
  /** The deviations in force: their rules apply at the hook points the quote decides at. */
  defects: QuoteDeviations;
}

type Trust = NonNullable<LandedCostResponse['trust']>;

/** spec 4.6 rule 4: EUR at or below 150 is indicative, another currency undetermined (EU destinations only). */
function euTrust(input: Pick<QuoteInput, 'currency' | 'productValue'>, defects: QuoteDeviations): Trust {
  if (input.currency !== 'EUR') return { level: 'undetermined' };
  const low = defects.at(LANDED_COST_HOOKS.euLowValue, input.productValue <= EU_LOW_VALUE_BOUNDARY_EUR, { productValue: input.productValue });
  // Above the boundary the sandbox reports `authoritative` (a sandbox-defined level).
  return { level: low ? 'indicative' : 'authoritative' };
}

export function quoteLandedCost(input: QuoteInput, ctx: QuoteContext): LandedCostResponse {
  const { data, defects, date } = ctx;
  const authority = data.authorityFor(input.destinationCountry);
  const currency = input.currency ?? DEFAULT_QUOTE_CURRENCY;
  // spec 4.6 rule 6: the source follows the destination.
  const sourceCode = defects.at(LANDED_COST_HOOKS.sourceCode, authority.sourceCode, { authorityId: authority.id, data });
  const metadata: Record<string, unknown> = {
    policyMode: ctx.policy.policyMode,
    originCountry: input.originCountry,
    destinationCountry: input.destinationCountry,
    corridorConfigured: ctx.policy.corridorConfigured,
    sourceCode,
    unsupportedExpression: false,
    evaluatedOn: date,
  };
  const deMinimis = evaluateDeMinimis(
    data.deMinimisRulesFor(input.destinationCountry),
    { originCountry: input.originCountry, productValue: input.productValue, currency: input.currency, channel: QUOTE_CHANNEL, date },
    defects,
  );
  const trust = authority.id === 'EU' ? euTrust(input, defects) : null;

  const row = data.dutyFor(authority.id, input.hsCode);
  const notAvailable = (reason: string, extra: Record<string, unknown>): LandedCostResponse => ({
    status: 'rate_not_available',
    authority: authority.authority,
    breakdown: null,
    reason,
    metadata: { ...metadata, ...extra },
    ...compareWithProvider(input, null, defects),
    deMinimis: deMinimis.result,
    trust,
  });
  if (!row) return notAvailable('no_rate_for_hs_code', { hsCode: input.hsCode });

  const cif = sum2([input.productValue, input.shippingCost, input.insurance]);
  const fob = input.productValue;
  const customsValue = authority.customsValueBasis === 'CIF' ? cif : fob;
  const dutiableValue = defects.at(LANDED_COST_HOOKS.dutiableValue, customsValue, { fob });

  // spec 4.6 rule 3: a de minimis tier spares the duty (or, in the EU from 2026-07-01, replaces it with a flat charge).
  const relieved = deMinimis.relief === 'duty' || deMinimis.relief === 'duty_and_tax' || deMinimis.relief === 'flat_charge';
  const duty = computeDuty(row.duty, { customsValue: dutiableValue, quantity: input.quantity, quantityUnit: input.quantityUnit, currency, convert: data.convert });
  if (!duty.ok && (duty.unsupportedExpression || !relieved)) {
    const flagged = defects.at(LANDED_COST_HOOKS.unsupportedExpressionFlagged, duty.unsupportedExpression);
    return notAvailable(duty.reason, { unsupportedExpression: flagged, dutyExpression: row.published, tariffCode: row.code, ...duty.details });
  }
  // Past the return above, a duty that could not be computed is one a de minimis tier spares anyway.
  const dutyAmount = relieved || !duty.ok ? 0 : round2(duty.amount);
  const dutyBasis: DutyBasis = relieved || !duty.ok ? 'de_minimis_relief' : duty.basis;

  const fees: FeeLine[] = [];
  if (deMinimis.relief === 'flat_charge' && deMinimis.rule?.charge) {
    const charge = deMinimis.rule.charge;
    // One HS code is one item category: one charge per quote. Converted only if ever stated in another currency.
    const amount = data.convert(charge.amount, charge.currency, currency);
    if (amount === null) return notAvailable('no_fx_rate', { from: charge.currency, to: currency });
    fees.push({ code: 'EU_LOW_VALUE_FLAT_CHARGE', description: `${charge.currency} ${charge.amount.toFixed(2)} per item category in place of the EUR 150 customs-duty relief (${deMinimis.rule.legalBasis})`, amount: round2(amount) });
  }
  const feesAmount = sum2(fees.map((f) => f.amount));

  const taxes: TaxLine[] = [];
  const tax = data.defaultTaxFor(input.destinationCountry, date);
  if (tax && tax.rate > 0 && deMinimis.relief !== 'duty_and_tax') {
    // The import tax base: the customs value on the tax's own basis, plus duty and charges.
    const baseAmount = sum2([tax.base === 'CIF' ? cif : fob, dutyAmount, feesAmount]);
    taxes.push({ code: tax.code, name: tax.name, rate: tax.rate, baseAmount, amount: round2(tax.rate * baseAmount) });
  }
  const taxAmount = sum2(taxes.map((t) => t.amount));

  const totalLandedCost = sum2([input.productValue, input.shippingCost, input.insurance, dutyAmount, taxAmount, feesAmount]);
  const breakdown: Breakdown = {
    productValue: input.productValue,
    shippingCost: input.shippingCost,
    insurance: input.insurance,
    customsValue,
    customsValueBasis: authority.customsValueBasis,
    dutyRate: duty.ok ? duty.rate : null,
    dutyExpression: row.published,
    dutyBasis,
    dutyAmount,
    taxes,
    taxAmount,
    fees,
    feesAmount,
    ...(input.quantity !== null && input.quantityUnit !== null ? { quantity: input.quantity, quantityUnit: input.quantityUnit } : {}),
    totalLandedCost,
    currency,
  };
  const converted = duty.ok ? duty.converted : [];
  return {
    status: 'authoritative',
    authority: authority.authority,
    breakdown,
    reason: null,
    metadata: {
      ...metadata,
      tariffCode: row.code,
      ...(converted.length ? { exchangeRates: converted.map(({ from, to }) => ({ from, to, rate: data.convert(1, from, to), asOf: data.fxAsOf })) } : {}),
    },
    ...compareWithProvider(input, { dutyAmount, totalLandedCost }, defects),
    deMinimis: deMinimis.result,
    trust,
  };
}
