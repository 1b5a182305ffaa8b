// The landed-cost domain's hook points (kernel/deviations.ts): the named places where an entry of the
// catalogue (an injected defect or a legitimate variant, declared in landed-cost.defects.ts) may change what
// is decided. The code deciding there names the point; it never names an entry.
import type { Defects } from '../../kernel/defects.js';
import { hookPoint } from '../../kernel/deviations.js';
import type { DeMinimisResult } from './landed-cost.types.js';
import type { LegacyAlias } from './landed-cost.types.js';
import type { ReferenceData } from './reference-data.js';

/** What the quote's pure parts (engine, de minimis, corridor, aliases, provider) need of the deviations in force. */
export type QuoteDeviations = Pick<Defects, 'at'>;

export const LANDED_COST_HOOKS = {
  /** spec 4.6 request fields: the shippingCost a request without one is quoted with (0). */
  shippingCostDefault: hookPoint<number>('validation', 'landedcost.shipping-cost-default'),
  /** spec 4.6 rule 7: whether an alias sent alongside its canonical field is flagged too (never: it is dropped silently). */
  aliasBesideCanonicalFlagged: hookPoint<boolean, LegacyAlias>('validation', 'landedcost.alias-beside-canonical-flagged'),
  /** spec 4.6 rule 7: whether a lone alias's value is given to its canonical field (never: dropped, the default applies). */
  loneAliasValueKept: hookPoint<boolean, LegacyAlias>('validation', 'landedcost.lone-alias-value-kept'),
  /** spec 4.6: the customs quantity quoted ("kept as given, no rounding or unit conversion"). */
  quantityQuoted: hookPoint<number | null>('validation', 'landedcost.quantity-quoted'),
  /** spec 4.6 rule 7: the X-Deprecation-Hint for the flagged aliases. */
  deprecationHint: hookPoint<string, readonly LegacyAlias[]>('response', 'landedcost.deprecation-hint'),
  /** spec 4.6 rule 5: whether configured mode falls back to the destination's wildcard-origin corridor. */
  wildcardOriginFallback: hookPoint<boolean>('rule', 'landedcost.wildcard-origin-fallback'),
  /** spec 4.6 rule 5: whether a corridor no enabled row matches answers unconfigured_corridor (else it is quoted). */
  unconfiguredCorridorRefused: hookPoint<boolean>('rule', 'landedcost.unconfigured-corridor-refused'),
  /** spec 4.6 rule 2: whether the provider comparison runs only for a USD quote (else non_usd_corridor). */
  providerUsdOnly: hookPoint<boolean>('rule', 'landedcost.provider-usd-only'),
  /** spec 4.6 rule 3: whether de minimis needs the request's currency (without it the thresholds are skipped). */
  deMinimisNeedsCurrency: hookPoint<boolean>('rule', 'landedcost.de-minimis-needs-currency'),
  /** spec 4.6 rule 3: whether a threshold in another currency than the request's is skipped (currency_mismatch). */
  deMinimisCurrencyMatchRequired: hookPoint<boolean>('rule', 'landedcost.de-minimis-currency-match-required'),
  /** spec 4.6 rule 3: the `deMinimis` of a currency mismatch (no exemption). */
  deMinimisMismatchResult: hookPoint<DeMinimisResult>('response', 'landedcost.de-minimis-mismatch-result'),
  /** spec 4.6 rule 4: whether an EUR quote is in the EU low-value band (at or below EUR 150: indicative). */
  euLowValue: hookPoint<boolean, { productValue: number }>('rule', 'landedcost.eu-low-value'),
  /** spec 4.6 rule 6: the reported `metadata.sourceCode` (the destination authority's). */
  sourceCode: hookPoint<string, { authorityId: string; data: ReferenceData }>('response', 'landedcost.source-code'),
  /** spec 4.6: the value ad valorem duty is computed on (the customs value on the authority's basis), given the FOB value. */
  dutiableValue: hookPoint<number, { fob: number }>('rule', 'landedcost.dutiable-value'),
  /** spec 4.6: `metadata.unsupportedExpression` of a rate_not_available answer for the tariff row's expression. */
  unsupportedExpressionFlagged: hookPoint<boolean>('response', 'landedcost.unsupported-expression-flagged'),
} as const;
