// Duty from a tariff row's terms (fixtures/landed-cost/duty-rates.ts): ad valorem parts on the customs value,
// specific parts on the declared quantity (spec 4.6: kept as given, no rounding or unit conversion, so
// the quantity's unit must be the duty's), converted from the tariff's currency to the quote's.
import type { DutyTerms } from '#fixtures/landed-cost/duty-rates.js';
import type { DutyBasis, QuantityUnit } from './landed-cost.types.js';

export type DutyOutcome =
  | { ok: true; amount: number; rate: number | null; basis: DutyBasis; converted: Array<{ from: string; to: string }> }
  | { ok: false; reason: 'unsupported_duty_expression' | 'quantity_required' | 'quantity_unit_mismatch' | 'no_fx_rate'; unsupportedExpression: boolean; details: Record<string, unknown> };

export interface DutyInput {
  customsValue: number;
  quantity: number | null;
  quantityUnit: QuantityUnit | null;
  currency: string;
  convert(amount: number, from: string, to: string): number | null;
}

export function computeDuty(terms: DutyTerms, input: DutyInput): DutyOutcome {
  // spec 4.6 rule 6: an expression the engine cannot compute is rate_not_available, flagged.
  if ('unsupported' in terms) return { ok: false, reason: 'unsupported_duty_expression', unsupportedExpression: true, details: { why: terms.unsupported } };
  if (!terms.parts.length) return { ok: true, amount: 0, rate: 0, basis: 'free', converted: [] };
  let amount = 0;
  const converted: Array<{ from: string; to: string }> = [];
  for (const part of terms.parts) {
    if (part.kind === 'ad_valorem') {
      amount += part.rate * input.customsValue;
      continue;
    }
    if (input.quantity === null || input.quantityUnit === null) {
      return { ok: false, reason: 'quantity_required', unsupportedExpression: false, details: { requiredQuantityUnit: part.unit } };
    }
    if (input.quantityUnit !== part.unit) {
      return { ok: false, reason: 'quantity_unit_mismatch', unsupportedExpression: false, details: { requiredQuantityUnit: part.unit, quantityUnit: input.quantityUnit } };
    }
    const inTariffCurrency = (part.amount * input.quantity) / part.per;
    const inQuoteCurrency = input.convert(inTariffCurrency, part.currency, input.currency);
    if (inQuoteCurrency === null) return { ok: false, reason: 'no_fx_rate', unsupportedExpression: false, details: { from: part.currency, to: input.currency } };
    if (part.currency !== input.currency) converted.push({ from: part.currency, to: input.currency });
    amount += inQuoteCurrency;
  }
  const kinds = new Set(terms.parts.map((p) => p.kind));
  const onlyAdValorem = kinds.size === 1 && kinds.has('ad_valorem');
  // Contract (LandedCostBreakdown.dutyRate): the ad valorem fraction; null for specific or compound duties.
  const rate = onlyAdValorem ? terms.parts.reduce((sum, p) => sum + (p.kind === 'ad_valorem' ? p.rate : 0), 0) : null;
  const basis: DutyBasis = onlyAdValorem ? 'customs_value' : kinds.has('ad_valorem') ? 'customs_value_and_quantity' : 'quantity';
  return { ok: true, amount, rate, basis, converted };
}
