// The compliance check (spec 2.10, 4.6: "full quoteability requires the compliance check to return
// `quoteReadiness` equal to `quoteable`"; the checks and the other values are sandbox-defined). A pure
// function of the request, the SKU's open classification reviews and the SIMA screening rule:
//
//   check                     fails / warns when                                           blocker
//   hs_code_valid             fail: not 6 to 10 digits (dots, spaces, dashes aside), or    hs_code_invalid
//                             a six-digit subheading HS 2022 does not have under a heading
//                             the sandbox nomenclature lists
//   classification_confident  warn: the SKU has a classification review still PENDING      classification_review_pending
//   origin_known              fail: originCountry is not an assigned ISO 3166-1 code       origin_unknown
//                             (ZZ, XX, ... say "unknown")
//   destination_known         fail: the same for destinationCountry                        destination_unknown
//   trade_remedy_exposure     warn: SIMA screening (screenItem, the destination's           trade_remedy_review /
//                             authority: CA or US) gives AT_RISK or NEEDS_REVIEW           trade_remedy_screening_incomplete
//
// quoteReadiness: `not_quoteable` with any fail, else `needs_review` with any warn, else `quoteable`. So
// `quoteable` needs a confident classification, a known origin and a screening that does not block; both
// AT_RISK (a duty margin to confirm before quoting, as the contract's UDS example shows) and NEEDS_REVIEW (the
// screening could not tell) block it. Corridors and duty rates are the landed-cost gate's business (spec 4.6:
// two separate gates), so this check does not repeat them.
import { HS_SUBHEADINGS } from '#fixtures/catalog/hs-nomenclature.js';
import { COUNTRY_CODES } from '#fixtures/trade/countries.js';
import { HS_HEADING_RULES } from '#fixtures/classification/hs-rules.js';
import type { Schema } from '../../../contracts/generated/index.js';
import { screenItem, type ScreenedItem } from '../sima/index.js';

export type ComplianceInput = Schema<'ComplianceCheckRequest'>;
export type ComplianceResult = Schema<'ComplianceCheckResult'>;
type Item = Schema<'ComplianceCheckItem'>;
type Blocker = Schema<'ComplianceBlocker'>;

export interface ComplianceFacts {
  /** PENDING classification reviews of the request's SKU (0 without a SKU). */
  pendingReviews: number;
  /** Whether an unknown origin fails origin_known (CLASSIFICATION_HOOKS.originGateEnforced; default true). */
  originGateEnforced?: boolean;
  /** Whether an AT_RISK screening warns trade_remedy_exposure (CLASSIFICATION_HOOKS.atRiskBlocksQuote; default true). */
  atRiskBlocksQuote?: boolean;
}

/** Six-digit subheadings per heading: the catalog nomenclature's lists, and the classifier's own headings. */
const SUBHEADINGS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ...HS_HEADING_RULES.map((h) => [h.heading, new Set(h.subheadings.map((s) => s.hsCode.replace('.', '')))] as const),
  ...Object.entries(HS_SUBHEADINGS).map(([heading, list]) => [heading, new Set(list.map((s) => s.replace('.', '')))] as const),
]);

/** Why the code is not a usable HS code, or undefined when it is. */
export function hsCodeProblem(hsCode: string): string | undefined {
  const trimmed = hsCode.trim();
  if (!/^[0-9][0-9.\s-]*$/.test(trimmed)) return `hsCode ${JSON.stringify(hsCode)} is not an HS code (digits, with optional dots, spaces or dashes)`;
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 6 || digits.length > 10) return `hsCode ${JSON.stringify(hsCode)} has ${digits.length} digits; a quote needs at least the six-digit subheading (6 to 10 digits)`;
  const known = SUBHEADINGS.get(digits.slice(0, 4));
  if (known && !known.has(digits.slice(0, 6))) return `${digits.slice(0, 4)}.${digits.slice(4, 6)} is not a subheading of heading ${digits.slice(0, 4)} in the HS 2022 nomenclature`;
  return undefined;
}

/** The screening authority of a destination: SIMA for Canada, US AD/CVD orders for the US. */
const authorityOf = (destination: string): 'CA' | 'US' | null => (destination === 'CA' || destination === 'US' ? destination : null);

export function checkCompliance(input: ComplianceInput, facts: ComplianceFacts): ComplianceResult {
  const checks: Item[] = [];
  const blockers: Blocker[] = [];
  const fail = (check: string, message: string, code: string, blocker: string) => {
    checks.push({ check, outcome: 'fail', message });
    blockers.push({ code, message: blocker });
  };
  const warn = (check: string, message: string, code: string, blocker: string) => {
    checks.push({ check, outcome: 'warn', message });
    blockers.push({ code, message: blocker });
  };
  const pass = (check: string, message: string | null = null) => checks.push({ check, outcome: 'pass', message });

  const hsProblem = hsCodeProblem(input.hsCode);
  if (hsProblem) fail('hs_code_valid', hsProblem, 'hs_code_invalid', 'Classify the product to a six-digit HS subheading (or a national tariff item under one) before quoting');
  else pass('hs_code_valid');

  if (facts.pendingReviews > 0) {
    warn('classification_confident', `SKU ${input.sku} has ${facts.pendingReviews} classification review(s) still PENDING`, 'classification_review_pending', 'Decide the pending classification review (approve or override) before quoting');
  } else pass('classification_confident');

  const origin = input.originCountry;
  if (!COUNTRY_CODES.has(origin) && facts.originGateEnforced !== false) {
    fail('origin_known', `originCountry ${origin} is not an assigned ISO 3166-1 country code: the origin is unknown`, 'origin_unknown', 'Record the country of origin before quoting');
  } else pass('origin_known');
  const destination = input.destinationCountry;
  if (!COUNTRY_CODES.has(destination)) {
    fail('destination_known', `destinationCountry ${destination} is not an assigned ISO 3166-1 country code`, 'destination_unknown', 'Give the destination country before quoting');
  } else pass('destination_known');

  const authority = authorityOf(destination);
  if (hsProblem || !COUNTRY_CODES.has(origin)) {
    // Nothing to screen: the failed checks above already block.
  } else if (!authority) {
    pass('trade_remedy_exposure', `the sandbox holds no trade-remedy measures for destination ${destination}`);
  } else {
    const item: ScreenedItem = { sku: input.sku ?? 'compliance-check', hsCode: input.hsCode, countryOfOrigin: origin, materialType: null, annualImportValue: input.productValue ?? null, currency: input.currency ?? null };
    const screening = screenItem(item, authority);
    if (screening.outcome === 'AT_RISK' && facts.atRiskBlocksQuote !== false) {
      const rate = screening.combinedRate === null ? 'no rate stated for this origin' : `combined rate ${screening.combinedRate}%`;
      warn(
        'trade_remedy_exposure',
        `Tariff item ${input.hsCode} is covered by ${authority === 'CA' ? 'CBSA SIMA measure' : 'US order'} ${screening.measureCode}${screening.caseNumber ? ` (${screening.caseNumber})` : ''} for ${origin}; ${rate}`,
        'trade_remedy_review',
        authority === 'CA' ? "Confirm the exporter's normal value or the applicable SIMA margin before quoting" : 'Confirm the applicable antidumping / countervailing cash deposit rate before quoting',
      );
    } else if (screening.outcome === 'NEEDS_REVIEW') {
      warn('trade_remedy_exposure', `trade-remedy screening could not decide (${screening.reasonCode})`, 'trade_remedy_screening_incomplete', 'Complete the HS code so trade-remedy screening can decide before quoting');
    } else pass('trade_remedy_exposure');
  }

  const quoteReadiness = checks.some((c) => c.outcome === 'fail') ? 'not_quoteable' : checks.some((c) => c.outcome === 'warn') ? 'needs_review' : 'quoteable';
  return { quoteReadiness, checks, blockers };
}
