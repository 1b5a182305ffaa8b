// The screening rule (spec 2.4 outcomes) for one catalog item under one authority, as a pure function of
// the item and the measure table:
//   - HS code under a measure's tariff items and origin subject to it   -> AT_RISK (exposure from the margin)
//   - HS code in scope but no country of origin                          -> NEEDS_REVIEW (countryOfOrigin missing)
//   - no HS code at all                                                  -> NEEDS_REVIEW (hsCode missing)
//   - otherwise (HS out of scope, or origin not subject)                 -> CLEARED
import type { Schema } from '../../../contracts/generated/index.js';
import { SIMA_MEASURES, type ScreeningAuthority, type SimaMeasure } from '../../../fixtures/catalog/sima-measures.js';

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
}

export interface Screening {
  outcome: SimaOutcome;
  reasonCode: string;
  measureCode: string | null;
  caseNumber: string | null;
  hsInScope: boolean;
  currentHs: string;
  countryOfOrigin: string | null;
  materialType: string | null;
  confidence: number;
  evidence: Record<string, unknown> | null;
  exposureAnnual: number | null;
  adRate: number | null;
  cvdRate: number | null;
  combinedRate: number | null;
  missingAttributes: string[];
}

/** How sure each kind of answer is: a full tariff-item and origin match is strong, a missing fact weak. */
export const SCREENING_CONFIDENCE = {
  atRisk: 0.94,
  originNotSubject: 0.9,
  hsNotInScope: 0.99,
  missingOrigin: 0.6,
  missingHs: 0.5,
} as const;

const digits = (code: string) => code.replace(/\D/g, '');
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The longest tariff item of the measure the code falls under, if any. */
function matchedItem(measure: SimaMeasure, hsDigits: string): string | undefined {
  return measure.tariffItems
    .filter((item) => digits(item).length > 0 && hsDigits.startsWith(digits(item)))
    .sort((a, b) => digits(b).length - digits(a).length)[0];
}

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
  const base = { currentHs, countryOfOrigin: origin, materialType: item.materialType ?? null, adRate: null, cvdRate: null, combinedRate: null, exposureAnnual: null };

  if (!digits(currentHs)) {
    return {
      ...base,
      outcome: 'NEEDS_REVIEW',
      reasonCode: 'MISSING_HS_CODE',
      measureCode: null,
      caseNumber: null,
      hsInScope: false,
      confidence: SCREENING_CONFIDENCE.missingHs,
      evidence: null,
      missingAttributes: origin ? ['hsCode'] : ['hsCode', 'countryOfOrigin'],
    };
  }

  const hsDigits = digits(currentHs);
  const candidates = measures
    .filter((m) => m.authority === authority)
    .map((measure) => ({ measure, item: matchedItem(measure, hsDigits) }))
    .filter((c): c is { measure: SimaMeasure; item: string } => c.item !== undefined);

  if (candidates.length === 0) {
    return { ...base, outcome: 'CLEARED', reasonCode: 'HS_NOT_IN_SCOPE', measureCode: null, caseNumber: null, hsInScope: false, confidence: SCREENING_CONFIDENCE.hsNotInScope, evidence: null, missingAttributes: [] };
  }

  const first = candidates[0];
  if (!origin) {
    return {
      ...base,
      outcome: 'NEEDS_REVIEW',
      reasonCode: 'MISSING_COUNTRY_OF_ORIGIN',
      measureCode: first.measure.measureCode,
      caseNumber: first.measure.caseNumber,
      hsInScope: true,
      confidence: SCREENING_CONFIDENCE.missingOrigin,
      evidence: { authority, matchedTariffItem: first.item, candidateMeasures: candidates.map((c) => summary(c.measure)) },
      missingAttributes: ['countryOfOrigin'],
    };
  }

  // Several measures may cover the code (rebar: RB1, RB2, RB5): the origin decides; the highest rate wins.
  const subject = candidates
    .filter((c) => c.measure.countries.includes(origin))
    .map((c) => ({ ...c, rates: ratesOf(c.measure, origin) }))
    .sort((a, b) => (b.rates.combinedRate ?? -1) - (a.rates.combinedRate ?? -1))[0];

  if (!subject) {
    return {
      ...base,
      outcome: 'CLEARED',
      reasonCode: 'ORIGIN_NOT_SUBJECT',
      measureCode: first.measure.measureCode,
      caseNumber: null,
      hsInScope: true,
      confidence: SCREENING_CONFIDENCE.originNotSubject,
      evidence: { authority, matchedTariffItem: first.item, countryOfOrigin: origin, candidateMeasures: candidates.map((c) => summary(c.measure)) },
      missingAttributes: [],
    };
  }

  const { adRate, cvdRate, combinedRate, basis } = subject.rates;
  const exposureAnnual = item.annualImportValue !== null && combinedRate !== null ? round2((item.annualImportValue * combinedRate) / 100) : null;
  return {
    ...base,
    outcome: 'AT_RISK',
    reasonCode: 'HS_AND_ORIGIN_IN_SCOPE',
    measureCode: subject.measure.measureCode,
    caseNumber: subject.measure.caseNumber,
    hsInScope: true,
    confidence: SCREENING_CONFIDENCE.atRisk,
    evidence: {
      authority,
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
  };
}
