import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '#fixtures/trade/countries.js';
import { MAX_SKU_LENGTH } from '../sima/index.js';
import { countryRule, dottedHs, duplicateRule, feedColumnOf, headerIssues, hsRule, productNameRule, rowFingerprint, skuRule, type FeedDefaults } from './feed-normalize.rules.js';

const DEFAULTS: FeedDefaults = { originCountry: 'CN', defaultDestinationCountry: 'CA', hasDestinationColumn: true, countries: COUNTRY_CODES };

describe('the trade feed normalizer rules', () => {
  it('blocks a row without a SKU', () => {
    expect(skuRule('  ', 4)).toEqual({ sku: null, issues: [expect.objectContaining({ issueType: 'missing_sku', isBlocking: true, issueKey: 'missing_sku:row:4', field: 'sku' })] });
    expect(skuRule(' TS-1 ', 4)).toEqual({ sku: 'TS-1', issues: [] });
  });

  it('blocks a SKU longer than the contract lets the API address (200 characters), and keeps one of exactly 200', () => {
    expect(MAX_SKU_LENGTH).toBe(200);
    expect(skuRule('S'.repeat(201), 7)).toEqual({ sku: null, issues: [expect.objectContaining({ issueType: 'sku_too_long', isBlocking: true, issueKey: 'sku_too_long:row:7', field: 'sku' })] });
    expect(skuRule(` ${'S'.repeat(200)} `, 7)).toEqual({ sku: 'S'.repeat(200), issues: [] });
  });

  it('blocks a row without a product name, and trims one with stray spaces (non-blocking)', () => {
    expect(productNameRule('', 5).issues).toEqual([expect.objectContaining({ issueType: 'missing_product_name', isBlocking: true })]);
    expect(productNameRule('  Cotton   tee ', 5)).toEqual({ productName: 'Cotton tee', issues: [expect.objectContaining({ issueType: 'name_trimmed', isBlocking: false })] });
    expect(productNameRule('Cotton tee', 5)).toEqual({ productName: 'Cotton tee', issues: [] });
  });

  it('keeps a standard HS code as written and treats a blank one as needing classification', () => {
    for (const code of ['6109.10', '6109.10.00', '610910', '8541.40.6025', '9401.61.10.10']) expect(hsRule(code, 2)).toEqual({ providedHs: code, issues: [] });
    expect(hsRule(' ', 2)).toEqual({ providedHs: null, issues: [] });
  });

  it('normalizes an HS code written with spaces or dashes (non-blocking)', () => {
    expect(hsRule('6109 10 00', 7)).toEqual({ providedHs: '6109.10.00', issues: [expect.objectContaining({ issueType: 'hs_code_normalized', isBlocking: false, issueKey: 'hs_code_normalized:row:7' })] });
    expect(hsRule('9401-61-10-10', 7).providedHs).toBe('9401.61.10.10');
    expect(dottedHs('8541406025')).toBe('8541.40.60.25');
    expect(dottedHs('61091000')).toBe('6109.10.00');
  });

  it('ignores a code shorter than six digits (non-blocking), and blocks one that is no number or too long', () => {
    expect(hsRule('61091', 12)).toEqual({ providedHs: null, issues: [expect.objectContaining({ issueType: 'hs_code_incomplete', isBlocking: false })] });
    expect(hsRule('61O9.10', 12).issues).toEqual([expect.objectContaining({ issueType: 'invalid_hs_code', isBlocking: true })]);
    expect(hsRule('6109.10.00.00.12', 12).issues).toEqual([expect.objectContaining({ issueType: 'invalid_hs_code', isBlocking: true })]);
  });

  it('takes the feed defaults for blank countries, saying so for a blank destination cell', () => {
    expect(countryRule('originCountry', '', 3, DEFAULTS)).toEqual({ country: 'CN', issues: [] });
    expect(countryRule('destinationCountry', '', 3, DEFAULTS)).toEqual({ country: 'CA', issues: [expect.objectContaining({ issueType: 'destination_defaulted', isBlocking: false })] });
    expect(countryRule('destinationCountry', '', 3, { ...DEFAULTS, hasDestinationColumn: false })).toEqual({ country: 'CA', issues: [] });
    expect(countryRule('originCountry', ' vn ', 3, DEFAULTS)).toEqual({ country: 'VN', issues: [] });
  });

  it('blocks a country code that is not ISO 3166-1 alpha-2', () => {
    for (const code of ['XX', 'UK', 'EU', 'CHN']) expect(countryRule('originCountry', code, 9, DEFAULTS).issues).toEqual([expect.objectContaining({ issueType: 'invalid_country', isBlocking: true, field: 'originCountry' })]);
  });

  it('drops a repeated identical row (non-blocking) and blocks a SKU given twice with different data', () => {
    const a = rowFingerprint({ productName: 'Tee', providedHs: '6109.10', originCountry: 'CN', destinationCountry: 'CA' });
    const b = rowFingerprint({ productName: 'Tee, black', providedHs: '6109.10', originCountry: 'CN', destinationCountry: 'CA' });
    expect(duplicateRule('TS-1', 9, { line: 2, fingerprint: a }, a)).toMatchObject({ issueType: 'duplicate_row', isBlocking: false });
    expect(duplicateRule('TS-1', 9, { line: 2, fingerprint: a }, b)).toMatchObject({ issueType: 'duplicate_sku', isBlocking: true, issueKey: 'duplicate_sku:TS-1:9' });
  });

  it('reads header aliases, and flags blank or repeated headers (non-blocking)', () => {
    expect(['hsCode', 'HS', 'coo', 'destination'].map((k) => feedColumnOf(k === 'HS' ? 'hs' : k))).toEqual(['providedHs', 'providedHs', 'originCountry', 'destinationCountry']);
    expect(headerIssues(['sku', 'productName', '', 'hsCode', 'providedHs'], ['SKU', 'Name', '', 'HS Code', 'Provided HS']).map((i) => [i.issueType, i.issueKey])).toEqual([
      ['unnamed_column', 'unnamed_column:col:3'],
      ['duplicate_column', 'duplicate_column:col:5'],
    ]);
  });
});
