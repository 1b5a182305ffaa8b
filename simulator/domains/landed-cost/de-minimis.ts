// De minimis (spec 4.6 rule 3) on the tenant's virtual-clock date: evaluated only with a `currency`; a
// currency other than the threshold's skips it (`skipped: currency_mismatch`: no exemption, the threshold
// still reported), since a threshold is never converted. Otherwise the tier the product value falls in
// decides what is spared (fixtures/landed-cost/de-minimis.ts `relief`).
import type { Channel, DeMinimisRule, Relief } from '#fixtures/landed-cost/de-minimis.js';
import { NO_DEFECTS } from '../../kernel/defects.js';
import { LANDED_COST_HOOKS, type QuoteDeviations } from './landed-cost.hooks.js';
import type { DeMinimisResult } from './landed-cost.types.js';

/** spec 4.6 names no channel field: every quote is a courier shipment (fixtures/landed-cost/README.md). */
export const QUOTE_CHANNEL: Channel = 'courier';

export interface DeMinimisOutcome {
  /** The response's `deMinimis` (null: not evaluated, or no threshold known for the destination). */
  result: DeMinimisResult | null;
  /** What the quote is spared: `none` unless a tier applies. */
  relief: Relief;
  rule: DeMinimisRule | null;
}

const NOT_EVALUATED: DeMinimisOutcome = { result: null, relief: 'none', rule: null };

/** The rules in force for the shipment on `date` (YYYY-MM-DD), lowest threshold first. */
export function rulesInForce(rules: readonly DeMinimisRule[], shipment: { originCountry: string; channel: Channel; date: string }): DeMinimisRule[] {
  return rules
    .filter((r) => r.channels.includes(shipment.channel))
    .filter((r) => (r.origins === null || r.origins.includes(shipment.originCountry)) && !r.exceptOrigins.includes(shipment.originCountry))
    .filter((r) => (r.effectiveFrom === null || r.effectiveFrom <= shipment.date) && (r.effectiveTo === null || shipment.date <= r.effectiveTo))
    .sort((a, b) => a.threshold - b.threshold);
}

export function evaluateDeMinimis(
  rules: readonly DeMinimisRule[],
  shipment: { originCountry: string; productValue: number; currency: string | null; channel: Channel; date: string },
  deviations: QuoteDeviations = NO_DEFECTS,
): DeMinimisOutcome {
  // spec 4.6 rule 3: without currency the thresholds are skipped.
  if (shipment.currency === null && deviations.at(LANDED_COST_HOOKS.deMinimisNeedsCurrency, true)) return NOT_EVALUATED;
  const tiers = rulesInForce(rules, shipment);
  if (!tiers.length) return NOT_EVALUATED;
  const lowest = tiers[0];
  if (shipment.currency !== lowest.currency && deviations.at(LANDED_COST_HOOKS.deMinimisCurrencyMatchRequired, true)) {
    const mismatch: DeMinimisResult = { threshold: lowest.threshold, currency: lowest.currency, exempt: false, skipped: 'currency_mismatch', ruleId: lowest.id, relief: 'none' };
    return { result: deviations.at(LANDED_COST_HOOKS.deMinimisMismatchResult, mismatch), relief: 'none', rule: lowest };
  }
  const tier = tiers.find((r) => shipment.productValue <= r.threshold);
  if (!tier) return { result: { threshold: lowest.threshold, currency: lowest.currency, exempt: false, skipped: null, ruleId: lowest.id, relief: 'none' }, relief: 'none', rule: lowest };
  // A suspended exemption or a flat charge in place of the relief is no exemption.
  const exempt = tier.relief === 'duty' || tier.relief === 'duty_and_tax';
  return { result: { threshold: tier.threshold, currency: tier.currency, exempt, skipped: null, ruleId: tier.id, relief: tier.relief }, relief: tier.relief, rule: tier };
}
