// The screening rule (spec 2.4 outcomes) for one catalog item under one authority, as a pure function of
// the item, the measure table and the HS nomenclature:
//   - a code of 4 or 5 digits with one subheading under it is completed (correctedHs: 7317 -> 7317.00)
//   - HS code under a measure's tariff items and origin subject to it   -> AT_RISK (exposure from the margin)
//   - HS code in scope but no country of origin                          -> NEEDS_REVIEW (countryOfOrigin missing)
//   - HS code too short to tell, a tariff item of a measure lies under it
//     and the origin may be subject                                      -> NEEDS_REVIEW (hsCode incomplete)
//   - no HS code at all                                                  -> NEEDS_REVIEW (hsCode missing)
//   - otherwise (HS out of scope, or origin not subject)                 -> CLEARED
// A tariff item's trailing ".00" national subdivisions do not narrow it: 7214.20 is within 7214.20.00.
import { round2 } from '../../kernel/numbers.js';
import type { Schema } from '../../../contracts/generated/index.js';
import { HS_NOMENCLATURE_SOURCE, HS_SUBHEADINGS } from '#fixtures/catalog/hs-nomenclature.js';
import { SIMA_MEASURES, type ScreeningAuthority, type SimaMeasure } from '#fixtures/catalog/sima-measures.js';

/** spec 2.4 outcomes: the contract's SimaOutcome. */
export type SimaOutcome = Schema<'SimaOutcome'>;

export interface ScreenedItem {
  sku: string;
  productName?: string | null;
  hsCode: string | null;
  countryOfOrigin: string | null;
  materialType: string | null;
  annualImportValue: number | null;
  currency: string | null;
  /** Other attributes of the item (extended-excel columns such as `restrictedComponents`). */
  attributes?: Readonly<Record<string, string>>;
}

/** The fields of a screening every answer sets the same way (`answer` in screenItem). */
type BaseField = 'currentHs' | 'correctedHs' | 'countryOfOrigin' | 'materialType' | 'adRate' | 'cvdRate' | 'combinedRate' | 'exposureAnnual' | 'hasRestrictedComponents';

export interface Screening {
  outcome: SimaOutcome;
  reasonCode: string;
  measureCode: string | null;
  caseNumber: string | null;
  hsInScope: boolean;
  currentHs: string;
  /** The code completed from the nomenclature when the declared one was short and unambiguous, else null. */
  correctedHs: string | null;
  countryOfOrigin: string | null;
  materialType: string | null;
  confidence: number;
  evidence: Record<string, unknown> | null;
  exposureAnnual: number | null;
  adRate: number | null;
  cvdRate: number | null;
  combinedRate: number | null;
  missingAttributes: string[];
  hasRestrictedComponents: boolean;
}

/** How sure each kind of answer is: a full tariff-item and origin match is strong, a missing fact weak. */
export const SCREENING_CONFIDENCE = {
  atRisk: 0.94,
  originNotSubject: 0.9,
  hsNotInScope: 0.99,
  missingOrigin: 0.6,
  incompleteHs: 0.55,
  missingHs: 0.5,
} as const;

const digits = (code: string) => code.replace(/\D/g, '');

/** A tariff item's digits without trailing "00" subdivisions past the HS six (7214.20.00 -> 721420). */
export function significantDigits(item: string): string {
  let d = digits(item);
  while (d.length > 6 && d.endsWith('00')) d = d.slice(0, -2);
  return d;
}

/** The longest tariff item of the measure the code falls under, if any. */
function matchedItem(measure: SimaMeasure, hsDigits: string): string | undefined {
  return measure.tariffItems
    .filter((item) => significantDigits(item).length > 0 && hsDigits.startsWith(significantDigits(item)))
    .sort((a, b) => significantDigits(b).length - significantDigits(a).length)[0];
}

/** Tariff items of the measure that lie under a code too short to say whether it falls under them. */
const itemsUnder = (measure: SimaMeasure, hsDigits: string) => measure.tariffItems.filter((item) => significantDigits(item).startsWith(hsDigits));

/** A code of 4 or 5 digits completed to the one subheading of the nomenclature under it; null otherwise. */
export function completedHs(hsDigits: string): string | null {
  if (hsDigits.length < 4 || hsDigits.length >= 6) return null;
  const under = (HS_SUBHEADINGS[hsDigits.slice(0, 4)] ?? []).filter((sub) => digits(sub).startsWith(hsDigits));
  return under.length === 1 ? under[0] : null;
}

/** Words an importer writes in a restricted-components column to say there are none. */
const NONE = new Set(['', 'none', 'no', 'n/a', 'na', 'false', '0', '-']);
const restrictedComponentsOf = (item: ScreenedItem) => !NONE.has((item.attributes?.restrictedComponents ?? '').trim().toLowerCase());

function ratesOf(measure: SimaMeasure, country: string) {
  const rate = measure.rates[country];
  const adRate = rate?.adRate ?? null;
  const cvdRate = rate?.cvdRate ?? null;
  const combinedRate = adRate === null && cvdRate === null ? null : round2((adRate ?? 0) + (cvdRate ?? 0));
  return { adRate, cvdRate, combinedRate, basis: rate?.basis ?? 'no rate stated for this country in the measure table' };
}

const summary = (m: SimaMeasure) => ({ measureCode: m.measureCode, caseNumber: m.caseNumber, product: m.product, countries: m.countries, source: m.source, asOf: m.asOf });

export function screenItem(item: ScreenedItem, authority: ScreeningAuthority, measures: readonly SimaMeasure[] = SIMA_MEASURES): Screening {
  const origin = item.countryOfOrigin?.trim().toUpperCase() || null;
  const currentHs = item.hsCode?.trim() ?? '';
  const correctedHs = completedHs(digits(currentHs));
  const materialType = item.materialType ?? null;
  const hasRestrictedComponents = restrictedComponentsOf(item);
  // The fields every answer has, then the answer's own (which may replace the null rates). Written as a
  // literal and then a spread, not `{ ...base, outcome, ... }`: in Node 20's V8 a spread followed by
  // properties gives every object a hidden class of its own, old-generation garbage 100,000 times over in
  // a large screening (issue 15; see kernel/store/store.ts). Same fields in the same order either way.
  const answer = (own: Omit<Screening, BaseField> & Partial<Pick<Screening, BaseField>>): Screening => ({
    currentHs,
    correctedHs,
    countryOfOrigin: origin,
    materialType,
    adRate: null,
    cvdRate: null,
    combinedRate: null,
    exposureAnnual: null,
    hasRestrictedComponents,
    ...own,
  });
  const classification = correctedHs ? { correctedHs, completedFrom: currentHs, nomenclature: HS_NOMENCLATURE_SOURCE } : {};

  if (!digits(currentHs)) {
    return answer({
      outcome: 'NEEDS_REVIEW',
      reasonCode: 'MISSING_HS_CODE',
      measureCode: null,
      caseNumber: null,
      hsInScope: false,
      confidence: SCREENING_CONFIDENCE.missingHs,
      evidence: null,
      missingAttributes: origin ? ['hsCode'] : ['hsCode', 'countryOfOrigin'],
    });
  }

  const hsDigits = digits(correctedHs ?? currentHs);
  const ofAuthority = measures.filter((m) => m.authority === authority);
  const candidates = ofAuthority
    .map((measure) => ({ measure, item: matchedItem(measure, hsDigits) }))
    .filter((c): c is { measure: SimaMeasure; item: string } => c.item !== undefined);

  if (candidates.length === 0) {
    // A short code a measure's items lie under: in scope or not depends on digits the importer left out.
    const under = ofAuthority.filter((m) => itemsUnder(m, hsDigits).length > 0 && (!origin || m.countries.includes(origin)));
    if (hsDigits.length < 10 && under.length > 0) {
      return answer({
        outcome: 'NEEDS_REVIEW',
        reasonCode: 'HS_CODE_INCOMPLETE',
        measureCode: null,
        caseNumber: null,
        hsInScope: false,
        confidence: SCREENING_CONFIDENCE.incompleteHs,
        evidence: { authority, ...classification, tariffItemsUnderCode: under.flatMap((m) => itemsUnder(m, hsDigits)), candidateMeasures: under.map(summary) },
        missingAttributes: origin ? ['hsCode'] : ['hsCode', 'countryOfOrigin'],
      });
    }
    return answer({ outcome: 'CLEARED', reasonCode: 'HS_NOT_IN_SCOPE', measureCode: null, caseNumber: null, hsInScope: false, confidence: SCREENING_CONFIDENCE.hsNotInScope, evidence: correctedHs ? { authority, ...classification } : null, missingAttributes: [] });
  }

  const first = candidates[0];
  if (!origin) {
    return answer({
      outcome: 'NEEDS_REVIEW',
      reasonCode: 'MISSING_COUNTRY_OF_ORIGIN',
      measureCode: first.measure.measureCode,
      caseNumber: first.measure.caseNumber,
      hsInScope: true,
      confidence: SCREENING_CONFIDENCE.missingOrigin,
      evidence: { authority, ...classification, matchedTariffItem: first.item, candidateMeasures: candidates.map((c) => summary(c.measure)) },
      missingAttributes: ['countryOfOrigin'],
    });
  }

  // Several measures may cover the code (rebar: RB1, RB2, RB5): the origin decides; the highest rate wins.
  const subject = candidates
    .filter((c) => c.measure.countries.includes(origin))
    .map((c) => ({ measure: c.measure, item: c.item, rates: ratesOf(c.measure, origin) }))
    .sort((a, b) => (b.rates.combinedRate ?? -1) - (a.rates.combinedRate ?? -1))[0];

  if (!subject) {
    return answer({
      outcome: 'CLEARED',
      reasonCode: 'ORIGIN_NOT_SUBJECT',
      measureCode: first.measure.measureCode,
      caseNumber: null,
      hsInScope: true,
      confidence: SCREENING_CONFIDENCE.originNotSubject,
      evidence: { authority, ...classification, matchedTariffItem: first.item, countryOfOrigin: origin, candidateMeasures: candidates.map((c) => summary(c.measure)) },
      missingAttributes: [],
    });
  }

  const { adRate, cvdRate, combinedRate, basis } = subject.rates;
  const exposureAnnual = item.annualImportValue !== null && combinedRate !== null ? round2((item.annualImportValue * combinedRate) / 100) : null;
  return answer({
    outcome: 'AT_RISK',
    reasonCode: 'HS_AND_ORIGIN_IN_SCOPE',
    measureCode: subject.measure.measureCode,
    caseNumber: subject.measure.caseNumber,
    hsInScope: true,
    confidence: SCREENING_CONFIDENCE.atRisk,
    evidence: {
      authority,
      ...classification,
      matchedTariffItem: subject.item,
      matchedCountry: origin,
      ...summary(subject.measure),
      stage: subject.measure.stage,
      rateBasis: basis,
      annualImportValue: item.annualImportValue,
      currency: item.currency,
    },
    exposureAnnual,
    adRate,
    cvdRate,
    combinedRate,
    missingAttributes: [],
  });
}
