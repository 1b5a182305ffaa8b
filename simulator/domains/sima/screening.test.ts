import { describe, expect, it } from 'vitest';
import { SAMPLE_CATALOG } from '#fixtures/catalog/sample-catalog.js';
import { SIMA_MEASURES } from '#fixtures/catalog/sima-measures.js';
import { completedHs, screenItem, significantDigits, type ScreenedItem } from './screening.js';

const sample = (sku: string): ScreenedItem => {
  const item = SAMPLE_CATALOG.find((i) => i.sku === sku);
  if (!item) throw new Error(`no sample item ${sku}`);
  return item;
};

describe('the SIMA screening rule', () => {
  it('flags a CN upholstered chair under UDS for CA as AT_RISK, with the margin, exposure and case number', () => {
    const result = screenItem(sample('UDS-ACCENT-CHR-TEAL'), 'CA');
    expect(result).toMatchObject({
      outcome: 'AT_RISK',
      reasonCode: 'HS_AND_ORIGIN_IN_SCOPE',
      measureCode: 'UDS',
      caseNumber: 'UDS 2020 IN',
      hsInScope: true,
      currentHs: '9401.61.10.90',
      countryOfOrigin: 'CN',
      adRate: 188,
      cvdRate: null,
      combinedRate: 188,
      exposureAnnual: 33840, // 18,000 CAD x 188%
      missingAttributes: [],
    });
    expect(result.evidence).toMatchObject({ matchedTariffItem: '9401.61.10', matchedCountry: 'CN', asOf: '2021-09-02' });
  });

  it('clears the same chair under the US authority, which has no order on seating', () => {
    expect(screenItem(sample('UDS-ACCENT-CHR-TEAL'), 'US')).toMatchObject({ outcome: 'CLEARED', reasonCode: 'HS_NOT_IN_SCOPE', hsInScope: false, measureCode: null, evidence: null });
  });

  it('asks for review when the HS code is in scope but the country of origin is missing', () => {
    expect(screenItem(sample('UDS-ARMCHAIR-BGE'), 'CA')).toMatchObject({
      outcome: 'NEEDS_REVIEW',
      reasonCode: 'MISSING_COUNTRY_OF_ORIGIN',
      hsInScope: true,
      measureCode: 'UDS',
      missingAttributes: ['countryOfOrigin'],
      exposureAnnual: null,
    });
  });

  it('clears an in-scope code from a country the measure does not name', () => {
    expect(screenItem(sample('UDS-LOVESEAT-OAT'), 'CA')).toMatchObject({ outcome: 'CLEARED', reasonCode: 'ORIGIN_NOT_SUBJECT', hsInScope: true, countryOfOrigin: 'MY', caseNumber: null });
  });

  it('clears an out-of-scope code even without an origin', () => {
    expect(screenItem(sample('SWTR-CTN-NVY-L'), 'CA')).toMatchObject({ outcome: 'CLEARED', hsInScope: false, missingAttributes: [] });
  });

  it('picks, among measures sharing tariff items, the one that names the origin', () => {
    expect(screenItem(sample('RBR-10M-6M-TR'), 'CA')).toMatchObject({ outcome: 'AT_RISK', measureCode: 'RB1', adRate: 41, exposureAnnual: 10250 });
    expect(screenItem(sample('RBR-20M-COIL-BG'), 'CA')).toMatchObject({ outcome: 'AT_RISK', measureCode: 'RB5', caseNumber: 'RB5 2024 IN', adRate: 28 });
  });

  it('flags a subject product without an exposure when the measure states no rate for its country', () => {
    expect(screenItem(sample('OCTG-CSG-7IN-KR'), 'CA')).toMatchObject({ outcome: 'AT_RISK', measureCode: 'OCTG2', adRate: null, combinedRate: null, exposureAnnual: null });
  });

  it('adds anti-dumping and countervailing rates into the combined rate (US softwood lumber from Canada)', () => {
    expect(screenItem(sample('LMBR-SPF-2X4-8'), 'US')).toMatchObject({ outcome: 'AT_RISK', caseNumber: 'A-122-857', adRate: 20.56, cvdRate: 14.63, combinedRate: 35.19, exposureAnnual: 24633 });
  });

  it('matches US cases on HTS numbers, and treats origin case-insensitively', () => {
    expect(screenItem({ ...sample('NAIL-CL-16D-50LB'), countryOfOrigin: ' cn ' }, 'US')).toMatchObject({ outcome: 'AT_RISK', caseNumber: 'A-570-909', combinedRate: 118.04, exposureAnnual: 14755, countryOfOrigin: 'CN' });
    expect(screenItem(sample('NAIL-CL-16D-50LB'), 'CA').outcome).toBe('CLEARED');
  });

  it('asks for the HS code when a SKU has none', () => {
    expect(screenItem({ ...sample('TEE-CTN-BLK-M'), hsCode: ' ' }, 'CA')).toMatchObject({ outcome: 'NEEDS_REVIEW', reasonCode: 'MISSING_HS_CODE', currentHs: '', missingAttributes: ['hsCode'] });
  });

  it('completes a five-digit code to the one subheading under it and screens the completed code (correctedHs)', () => {
    const result = screenItem(sample('RBR-10M-TH-SHORT'), 'CA');
    expect(result).toMatchObject({ currentHs: '72142', correctedHs: '7214.20', outcome: 'AT_RISK', measureCode: 'RB5', hsInScope: true });
    expect(result.evidence).toMatchObject({ correctedHs: '7214.20', completedFrom: '72142', matchedTariffItem: '7214.20.00' });
    expect(completedHs('7317')).toBe('7317.00'); // nails: the heading has one subheading
  });

  it('leaves an ambiguous short code as declared, and asks for the full code when a measure item lies under it', () => {
    expect(completedHs('7213')).toBeNull();
    expect(screenItem(sample('STL-ROD-COIL-VN'), 'CA')).toMatchObject({ outcome: 'NEEDS_REVIEW', reasonCode: 'HS_CODE_INCOMPLETE', correctedHs: null, hsInScope: false, missingAttributes: ['hsCode'] });
    // The same heading from an origin no rod or rebar measure names is cleared: the missing digits cannot matter.
    expect(screenItem({ ...sample('STL-ROD-COIL-VN'), countryOfOrigin: 'US' }, 'CA')).toMatchObject({ outcome: 'CLEARED', reasonCode: 'HS_NOT_IN_SCOPE' });
    // Under the US authority, 7317 completes to 7317.00, still short of the nail order's 7317.00.55.
    expect(screenItem({ ...sample('NAIL-CL-16D-50LB'), hsCode: '7317' }, 'US')).toMatchObject({ correctedHs: '7317.00', outcome: 'NEEDS_REVIEW', reasonCode: 'HS_CODE_INCOMPLETE' });
  });

  it('reads trailing .00 subdivisions of a tariff item as not narrowing it', () => {
    expect(significantDigits('7214.20.00')).toBe('721420');
    expect(significantDigits('9401.40.00.00')).toBe('940140');
    expect(significantDigits('7317.00.55')).toBe('73170055');
    expect(significantDigits('7604.21')).toBe('760421');
  });

  it('flags restricted components from the item attributes, whatever the importer writes for none', () => {
    const chair = sample('UDS-ACCENT-CHR-TEAL');
    expect(screenItem({ ...chair, attributes: { restrictedComponents: 'flame retardant foam' } }, 'CA').hasRestrictedComponents).toBe(true);
    for (const none of ['', 'None', ' n/a ', 'no']) expect(screenItem({ ...chair, attributes: { restrictedComponents: none } }, 'CA').hasRestrictedComponents).toBe(false);
    expect(screenItem(chair, 'CA').hasRestrictedComponents).toBe(false);
  });

  it('yields every outcome under both authorities on the sample catalog', () => {
    for (const authority of ['CA', 'US'] as const) {
      const outcomes = new Set(SAMPLE_CATALOG.map((item) => screenItem(item, authority).outcome));
      expect([...outcomes].sort()).toEqual(['AT_RISK', 'CLEARED', 'NEEDS_REVIEW']);
    }
  });

  it('has fixtures that each cite a public source and an as-of date', () => {
    const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s));
    for (const m of SIMA_MEASURES) {
      expect(m.source.length, m.measureCode).toBeGreaterThan(10);
      expect(isDate(m.asOf), m.measureCode).toBe(true);
      expect(m.tariffItems.length, m.measureCode).toBeGreaterThan(0);
      for (const country of Object.keys(m.rates)) expect(m.countries, m.measureCode).toContain(country);
    }
    for (const item of SAMPLE_CATALOG) {
      expect(item.source.length, item.sku).toBeGreaterThan(10);
      expect(isDate(item.asOf), item.sku).toBe(true);
    }
    expect(new Set(SAMPLE_CATALOG.map((i) => i.sku)).size).toBe(SAMPLE_CATALOG.length);
  });
});
