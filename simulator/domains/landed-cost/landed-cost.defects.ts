// The landed-cost domain's deviations (README "Defect injection"), as data: rules at the hook points of
// landed-cost.hooks.ts (where the engine, the corridor, de minimis, the aliases and the route decide), and
// below them the one that only changes what is sent, applied to the final calculateLandedCost response.
import { isBodyObject, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { round2 } from '../../kernel/numbers.js';
import { EU_LOW_VALUE_BOUNDARY_EUR } from './engine.js';
import { LANDED_COST_HOOKS as H } from './landed-cost.hooks.js';
import type { LegacyAlias } from './landed-cost.types.js';

/** landedcost.hint-format: rule 7's information in a format the spec does not use. */
const misformattedHint = (flagged: readonly LegacyAlias[]): string => flagged.map(({ alias, canonical }) => `${alias} is deprecated, use ${canonical}`).join(', ');

export const LANDED_COST_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'landedcost.shipping-default-nonzero', area: 'landed-cost', description: 'a quote without shippingCost is quoted with a shipping cost of 25 (spec 4.6: defaults to 0)', hooks: [at(H.shippingCostDefault, () => 25)] },
  { kind: 'defect', id: 'landedcost.hint-format', area: 'landed-cost', description: "X-Deprecation-Hint reads `freight is deprecated, use shippingCost`, comma-separated, instead of `use 'shippingCost' not 'freight'` entries", hooks: [at(H.deprecationHint, (_hint, flagged) => misformattedHint(flagged))] },
  { kind: 'defect', id: 'landedcost.alias-flagged-beside-canonical', area: 'landed-cost', description: 'an alias sent alongside its canonical field is flagged in X-Deprecation-Hint', hooks: [at(H.aliasBesideCanonicalFlagged, () => true)] },
  { kind: 'defect', id: 'landedcost.corridor-wildcard-skipped', area: 'landed-cost', description: "configured mode never falls back to the destination's wildcard-origin corridor", hooks: [at(H.wildcardOriginFallback, () => false)] },
  { kind: 'defect', id: 'landedcost.unconfigured-corridor-quoted', area: 'landed-cost', description: 'a corridor without an enabled match is quoted instead of answering unconfigured_corridor', hooks: [at(H.unconfiguredCorridorRefused, () => false)] },
  { kind: 'defect', id: 'landedcost.provider-runs-without-usd', area: 'landed-cost', description: 'provider comparison runs in any currency (no providerSkipReason: non_usd_corridor)', hooks: [at(H.providerUsdOnly, () => false)] },
  { kind: 'defect', id: 'landedcost.de-minimis-ignores-currency', area: 'landed-cost', description: "de minimis compares the value with the threshold whatever the request's currency (no currency_mismatch)", hooks: [at(H.deMinimisCurrencyMatchRequired, () => false)] },
  { kind: 'defect', id: 'landedcost.trust-boundary-exclusive', area: 'landed-cost', description: 'an EU quote of exactly EUR 150 gets trust level authoritative instead of indicative', hooks: [at(H.euLowValue, (low, { productValue }) => low && productValue < EU_LOW_VALUE_BOUNDARY_EUR)] },
  { kind: 'defect', id: 'landedcost.duty-on-fob', area: 'landed-cost', description: 'ad valorem duty is computed on the FOB value where the authority values CIF (UK, EU)', hooks: [at(H.dutiableValue, (_value, { fob }) => fob)] },
  { kind: 'defect', id: 'landedcost.total-omits-tax', area: 'landed-cost', description: 'totalLandedCost leaves out the import taxes of the breakdown' },
  { kind: 'defect', id: 'landedcost.canada-default-source', area: 'landed-cost', description: 'Canada quotes report the US/default sourceCode instead of the Canada code', hooks: [at(H.sourceCode, (code, { authorityId, data }) => (authorityId === 'CA' ? data.authorityFor('US').sourceCode : code))] },
  { kind: 'defect', id: 'landedcost.unsupported-expression-unflagged', area: 'landed-cost', description: 'rate_not_available for an unsupported duty expression reports unsupportedExpression: false', hooks: [at(H.unsupportedExpressionFlagged, () => false)] },
  { kind: 'defect', id: 'landedcost.de-minimis-without-currency', area: 'landed-cost', description: 'de minimis is evaluated for a quote without currency, which reads as skipped: currency_mismatch', hooks: [at(H.deMinimisNeedsCurrency, () => false)] },
  { kind: 'defect', id: 'landedcost.mismatch-exempts', area: 'landed-cost', description: 'a de minimis currency_mismatch is reported with exempt: true', hooks: [at(H.deMinimisMismatchResult, (result) => (result.exempt ? result : { ...result, exempt: true }))] },
  { kind: 'defect', id: 'landedcost.hint-comma-joined', area: 'landed-cost', description: "X-Deprecation-Hint joins its `use 'canonical' not 'alias'` entries with commas instead of semicolons (one alias alone reads right)", hooks: [at(H.deprecationHint, (_hint, flagged) => flagged.map(({ alias, canonical }) => `use '${canonical}' not '${alias}'`).join(', '))] },
  { kind: 'defect', id: 'landedcost.mismatch-drops-threshold', area: 'landed-cost', description: 'a de minimis currency_mismatch no longer reports the threshold (nor its currency)', hooks: [at(H.deMinimisMismatchResult, ({ threshold: _threshold, currency: _currency, ...rest }) => rest)] },
  { kind: 'defect', id: 'landedcost.quantity-rounded', area: 'landed-cost', description: 'the customs quantity is rounded to a whole unit before quoting (900.37 LTR quoted as 900)', hooks: [at(H.quantityQuoted, (quantity) => (quantity === null ? quantity : Math.max(1, Math.round(quantity))))] },
  { kind: 'defect', id: 'landedcost.alias-value-kept', area: 'landed-cost', description: "a legacy alias sent without its canonical field gives that field its value instead of being dropped (freight: 100 quotes shipping 100)", hooks: [at(H.loneAliasValueKept, () => true)] },
];

/** Legitimate variants of the landed-cost domain (README "Variants"): choices the spec leaves open. */
export const LANDED_COST_VARIANTS: readonly DefectEntry[] = [
  {
    kind: 'variant',
    id: 'landedcost.other-authority-codes-and-structures',
    area: 'landed-cost',
    description: 'engine results name their authorities and sources otherwise (`authority` `us.cbp`, `ca.cbsa`, `uk.hmrc`, `eu.taric`; `metadata.sourceCode` `hts-us`, `customs-tariff-ca`, `uk-tariff`, `eu-cn`, one per destination group as before), `deMinimis` is `{ skipped, limit: { amount, currency }, applies }` and `trust` carries a `boundary` beside its `level` (`confirmed` for the sandbox\'s `authoritative`)',
    spec: 'spec 4.6 rule 8: "Response fields beyond those above (breakdown contents, authority values, trust, deMinimis structure): not shown."; rule 6: "separate source codes for US/default, Canada, UK, EU member states" (no code is given); rule 4 names only `trust.level` `indicative` and `undetermined`',
    hooks: [at(H.sourceCode, (code) => OTHER_SOURCE_CODES[code] ?? code)],
  },
  { kind: 'variant', id: 'landedcost.breakdown-as-lines', area: 'landed-cost', description: 'the breakdown is a list of cost lines `{ lines: [{ component, amount }], total, currency }` instead of named amounts', spec: 'spec 4.6 rule 8: "Response fields beyond those above (breakdown contents, authority values, trust, deMinimis structure): not shown."' },
];

/** landedcost.other-authority-codes-and-structures: another code for each authority and each source. */
const OTHER_AUTHORITIES: Record<string, string> = { US_CBP: 'us.cbp', CA_CBSA: 'ca.cbsa', UK_HMRC: 'uk.hmrc', EU_TARIC: 'eu.taric' };
const OTHER_SOURCE_CODES: Record<string, string> = { USITC_HTSUS: 'hts-us', CBSA_T2025: 'customs-tariff-ca', UK_GLOBAL_TARIFF: 'uk-tariff', EU_TARIC: 'eu-cn' };
const otherDeMinimis = (d: unknown) => {
  if (!isBodyObject(d)) return d;
  const { threshold, currency, exempt, skipped, ...rest } = d;
  return { ...rest, skipped, limit: { amount: threshold, currency }, applies: exempt };
};
const otherTrust = (t: unknown) => (isBodyObject(t) ? { ...t, level: t.level === 'authoritative' ? 'confirmed' : t.level, boundary: { amount: EU_LOW_VALUE_BOUNDARY_EUR, currency: 'EUR' } } : t);

/** The sandbox's breakdown as cost lines (landedcost.breakdown-as-lines): the same amounts, another shape. */
function asLines(breakdown: Record<string, unknown>): Record<string, unknown> {
  const components = [['goods', 'productValue'], ['shipping', 'shippingCost'], ['insurance', 'insurance'], ['duty', 'dutyAmount'], ['tax', 'taxAmount'], ['fees', 'feesAmount']] as const;
  return {
    lines: components.filter(([, key]) => typeof breakdown[key] === 'number').map(([component, key]) => ({ component, amount: breakdown[key] })),
    total: breakdown.totalLandedCost,
    currency: breakdown.currency,
  };
}

export const LANDED_COST_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('landedcost.other-authority-codes-and-structures', ['calculateLandedCost'], (body) => ({
    ...body,
    authority: typeof body.authority === 'string' ? OTHER_AUTHORITIES[body.authority] ?? body.authority : body.authority,
    ...('deMinimis' in body ? { deMinimis: otherDeMinimis(body.deMinimis) } : {}),
    ...('trust' in body ? { trust: otherTrust(body.trust) } : {}),
  })),
  rewriteSuccessBody('landedcost.breakdown-as-lines', ['calculateLandedCost'], (body) => (isBodyObject(body.breakdown) ? { ...body, breakdown: asLines(body.breakdown) } : undefined)),
  rewriteSuccessBody('landedcost.total-omits-tax', ['calculateLandedCost'], (body) => {
    const breakdown = body.breakdown;
    if (!isBodyObject(breakdown) || typeof breakdown.totalLandedCost !== 'number' || typeof breakdown.taxAmount !== 'number') return undefined;
    return { ...body, breakdown: { ...breakdown, totalLandedCost: round2(breakdown.totalLandedCost - breakdown.taxAmount) } };
  }),
];
