// The landed-cost domain's injectable defects (README "Defect injection"). Behaviour defects are one
// `defects.has('<id>')` line where the behaviour lives (landed-cost.routes.ts, engine.ts); the one that only
// changes what is sent is below, applied to the final calculateLandedCost response.
import { isBodyObject, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';

export const LANDED_COST_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'landedcost.hint-format', area: 'landed-cost', description: "X-Deprecation-Hint reads `freight is deprecated, use shippingCost`, comma-separated, instead of `use 'shippingCost' not 'freight'` entries" },
  { kind: 'defect', id: 'landedcost.alias-flagged-beside-canonical', area: 'landed-cost', description: 'an alias sent alongside its canonical field is flagged in X-Deprecation-Hint' },
  { kind: 'defect', id: 'landedcost.corridor-wildcard-skipped', area: 'landed-cost', description: "configured mode never falls back to the destination's wildcard-origin corridor" },
  { kind: 'defect', id: 'landedcost.unconfigured-corridor-quoted', area: 'landed-cost', description: 'a corridor without an enabled match is quoted instead of answering unconfigured_corridor' },
  { kind: 'defect', id: 'landedcost.provider-runs-without-usd', area: 'landed-cost', description: 'provider comparison runs in any currency (no providerSkipReason: non_usd_corridor)' },
  { kind: 'defect', id: 'landedcost.de-minimis-ignores-currency', area: 'landed-cost', description: "de minimis compares the value with the threshold whatever the request's currency (no currency_mismatch)" },
  { kind: 'defect', id: 'landedcost.trust-boundary-exclusive', area: 'landed-cost', description: 'an EU quote of exactly EUR 150 gets trust level authoritative instead of indicative' },
  { kind: 'defect', id: 'landedcost.duty-on-fob', area: 'landed-cost', description: 'ad valorem duty is computed on the FOB value where the authority values CIF (UK, EU)' },
  { kind: 'defect', id: 'landedcost.total-omits-tax', area: 'landed-cost', description: 'totalLandedCost leaves out the import taxes of the breakdown' },
  { kind: 'defect', id: 'landedcost.canada-default-source', area: 'landed-cost', description: 'Canada quotes report the US/default sourceCode instead of the Canada code' },
  { kind: 'defect', id: 'landedcost.unsupported-expression-unflagged', area: 'landed-cost', description: 'rate_not_available for an unsupported duty expression reports unsupportedExpression: false' },
  { kind: 'defect', id: 'landedcost.de-minimis-without-currency', area: 'landed-cost', description: 'de minimis is evaluated for a quote without currency, which reads as skipped: currency_mismatch' },
  { kind: 'defect', id: 'landedcost.mismatch-exempts', area: 'landed-cost', description: 'a de minimis currency_mismatch is reported with exempt: true' },
  { kind: 'defect', id: 'landedcost.alias-value-kept', area: 'landed-cost', description: "a legacy alias sent without its canonical field gives that field its value instead of being dropped (freight: 100 quotes shipping 100)" },
];

export const LANDED_COST_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('landedcost.total-omits-tax', ['calculateLandedCost'], (body) => {
    const breakdown = body.breakdown;
    if (!isBodyObject(breakdown) || typeof breakdown.totalLandedCost !== 'number' || typeof breakdown.taxAmount !== 'number') return undefined;
    return { ...body, breakdown: { ...breakdown, totalLandedCost: Math.round((breakdown.totalLandedCost - breakdown.taxAmount) * 100) / 100 } };
  }),
];
