import { describe, expect, it } from 'vitest';
import { COLUMN_ALIASES, COLUMN_SETS, columnOf, toCatalogItem } from './catalog-columns.js';
import { normalizeHeader } from '../../kernel/uploads/table-file.js';
import { chooseAdapter } from './upload.routes.js';

const row = { sku: 'SKU-1', productName: 'Chair', hsCode: '9401.61.10.90', countryOfOrigin: 'cn', materialType: 'upholstered', annualImportValue: '18,000.50', currency: 'cad' };

describe('the catalog adapters\' columns', () => {
  it('matches the documented header spellings to their columns, whatever the case and spacing', () => {
    const headers: Array<[string, string]> = [
      ['SKU', 'sku'], ['Item SKU', 'sku'], ['Product Name', 'productName'], ['Name', 'productName'], ['HS Code', 'hsCode'], ['HTS', 'hsCode'],
      ['Origin', 'countryOfOrigin'], ['Country of Origin', 'countryOfOrigin'], ['COO', 'countryOfOrigin'], ['Material', 'materialType'],
      ['Annual Import Value', 'annualImportValue'], ['Currency Code', 'currency'], ['Destination', 'destinationCountry'],
    ];
    for (const [header, column] of headers) expect(columnOf(normalizeHeader(header)), header).toBe(column);
    expect(columnOf('brand')).toBeUndefined();
    // Every alias is itself a normalized header, so a header spelled like it matches.
    for (const aliases of Object.values(COLUMN_ALIASES)) for (const alias of aliases) expect(normalizeHeader(alias)).toBe(alias);
  });

  it('reads the seven catalog columns with catalog-excel, and destinationCountry too with extended-excel', () => {
    expect(COLUMN_SETS['catalog-excel']).toEqual(['sku', 'productName', 'hsCode', 'countryOfOrigin', 'materialType', 'annualImportValue', 'currency']);
    expect(COLUMN_SETS['extended-excel']).toEqual([...COLUMN_SETS['catalog-excel'], 'destinationCountry']);
  });

  it('normalizes a valid row: upper-case country and currency, plain amounts, attributes only with extended-excel', () => {
    expect(toCatalogItem(row, 'catalog-excel', { brand: 'X' })).toEqual({
      ok: true,
      item: { sku: 'SKU-1', productName: 'Chair', hsCode: '9401.61.10.90', countryOfOrigin: 'CN', materialType: 'upholstered', annualImportValue: 18000.5, currency: 'CAD' },
    });
    expect(toCatalogItem({ ...row, destinationCountry: 'us' }, 'extended-excel', { brand: 'X' })).toMatchObject({ ok: true, item: { destinationCountry: 'US', attributes: { brand: 'X' } } });
  });

  it('accepts HS codes of 4 to 10 digits with dots, spaces or dashes, and nothing else', () => {
    for (const hsCode of ['9401', '9401.61', '9401 61 10 90', '9401-61-1090', '8541.40.6025']) expect(toCatalogItem({ ...row, hsCode }, 'catalog-excel', {}).ok, hsCode).toBe(true);
    for (const hsCode of ['940', '94016110901', '9401.6x', 'n/a']) expect(toCatalogItem({ ...row, hsCode }, 'catalog-excel', {}), hsCode).toMatchObject({ ok: false, reason: 'invalid_hs_code', field: 'hsCode' });
  });

  it('names the first rule a row breaks, with its SKU', () => {
    expect(toCatalogItem({ ...row, sku: '  ' }, 'catalog-excel', {})).toEqual({ ok: false, reason: 'missing_sku', sku: null, field: 'sku', value: '  ' });
    // The contract addresses a SKU of at most 200 characters (SimaSku maxLength): a longer one is skipped.
    expect(toCatalogItem({ ...row, sku: 'S'.repeat(201) }, 'catalog-excel', {})).toMatchObject({ ok: false, reason: 'sku_too_long', field: 'sku' });
    expect(toCatalogItem({ ...row, sku: 'S'.repeat(200) }, 'catalog-excel', {})).toMatchObject({ ok: true });
    expect(toCatalogItem({ ...row, annualImportValue: '-5' }, 'catalog-excel', {})).toMatchObject({ reason: 'invalid_annual_import_value', sku: 'SKU-1' });
    expect(toCatalogItem({ ...row, currency: 'C$' }, 'catalog-excel', {})).toMatchObject({ reason: 'invalid_currency' });
    expect(toCatalogItem({ ...row, countryOfOrigin: 'CHN' }, 'catalog-excel', {})).toMatchObject({ reason: 'invalid_country_of_origin' });
    expect(toCatalogItem({ ...row, destinationCountry: 'Canada' }, 'extended-excel', {})).toMatchObject({ reason: 'invalid_destination_country' });
    // catalog-excel does not read destinationCountry, so it cannot refuse it.
    expect(toCatalogItem({ ...row, destinationCountry: 'Canada' }, 'catalog-excel', {}).ok).toBe(true);
  });

  it('chooses the form\'s sourceAdapter, else the key\'s default adapter when it is a catalog adapter, else catalog-excel', () => {
    expect(chooseAdapter('extended-excel', { defaultAdapter: 'catalog-excel' })).toBe('extended-excel');
    expect(chooseAdapter(undefined, { defaultAdapter: 'extended-excel' })).toBe('extended-excel');
    expect(chooseAdapter(undefined, { defaultAdapter: 'fedex-fbo-csv' })).toBe('catalog-excel');
    expect(chooseAdapter(undefined, { defaultAdapter: null })).toBe('catalog-excel');
  });
});
