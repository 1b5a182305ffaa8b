import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CATALOG } from '#fixtures/catalog/sample-catalog.js';
import { xlsx } from '../../testing/files.js';
import { cellText, normalizeHeader, readTable, type TableEvent, type TableFormat } from './table-file.js';
import { SAMPLE_CSV, SAMPLE_FILE_SKUS, SAMPLE_XLSX } from '../../domains/sima/upload.testing.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-file-'));
const file = (name: string, content: Buffer | string) => {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
};
const read = async (target: string, format: TableFormat) => {
  const events: TableEvent[] = [];
  for await (const event of readTable(target, format)) events.push(event);
  return events;
};
const rows = (events: TableEvent[]) => events.flatMap((e) => (e.type === 'row' ? [e.values] : []));

describe('reading a catalog file', () => {
  it('normalizes header cells to camelCase keys whatever their case, spacing or punctuation', () => {
    expect(['SKU', 'Product Name', 'HS Code', 'hs_code', 'countryOfOrigin', ' Country of Origin ', 'Annual Import Value (CAD)', 'restrictedComponents', ''].map(normalizeHeader)).toEqual([
      'sku', 'productName', 'hsCode', 'hsCode', 'countryOfOrigin', 'countryOfOrigin', 'annualImportValueCad', 'restrictedComponents', '',
    ]);
  });

  it('reads the sample CSV row by row, matching the sample catalog it was made from', async () => {
    const events = await read(SAMPLE_CSV, 'csv');
    expect(events[0]).toMatchObject({ type: 'header', sheet: null, keys: ['sku', 'productName', 'hsCode', 'countryOfOrigin', 'materialType', 'annualImportValue', 'currency', 'source', 'asOf'] });
    const read_ = rows(events);
    expect(read_.map((r) => r.sku)).toEqual(SAMPLE_FILE_SKUS);
    for (const row of read_) {
      const item = SAMPLE_CATALOG.find((i) => i.sku === row.sku)!;
      expect(row).toEqual({ sku: item.sku, productName: item.productName, hsCode: item.hsCode, countryOfOrigin: item.countryOfOrigin ?? '', materialType: item.materialType ?? '', annualImportValue: String(item.annualImportValue), currency: item.currency, source: item.source, asOf: item.asOf });
    }
    expect(events.at(-1)).toMatchObject({ type: 'row', line: 9, fraction: 1 });
  });

  it('reads the Catalog sheet of the sample XLSX, not the About sheet before it', async () => {
    const events = await read(SAMPLE_XLSX, 'xlsx');
    expect(events[0]).toMatchObject({ type: 'header', sheet: 'Catalog', labels: expect.arrayContaining(['SKU', 'HS Code', 'Origin', 'Restricted Components']) });
    expect(rows(events).map((r) => r.sku)).toEqual(SAMPLE_FILE_SKUS);
    expect(rows(events)[0]).toMatchObject({ hsCode: '9401.40.00.00', origin: 'CN', annualImportValue: '45000', destinationCountry: 'CA' });
  });

  it('reads the first sheet of a workbook without a Catalog sheet, with rich text, formulas, dates and blank rows', async () => {
    const workbook = await xlsx({
      Products: [['sku', 'name', 'value', 'since'], [], ['A-1', { richText: [{ text: 'Rich ' }, { text: 'chair' }] }, { formula: '1000*2', result: 2000 }, new Date('2026-11-21T00:00:00Z')]],
      Ignored: [['sku'], ['B-1']],
    });
    const events = await read(file('first-sheet.xlsx', workbook), 'xlsx');
    expect(events[0]).toMatchObject({ type: 'header', sheet: 'Products' });
    expect(events.slice(1)).toEqual([{ type: 'row', line: 3, values: { sku: 'A-1', name: 'Rich chair', value: '2000', since: '2026-11-21' }, fraction: 1 }]);
  });

  it('takes semicolon and tab delimiters from the header line, a UTF-8 BOM, quoted separators and ragged rows', async () => {
    const semicolons = await read(file('semi.csv', '\uFEFFsku;name;hsCode\r\nA;"Chair; teal";9401\r\nB;Table\r\n'), 'csv');
    expect(rows(semicolons)).toEqual([{ sku: 'A', name: 'Chair; teal', hsCode: '9401' }, { sku: 'B', name: 'Table', hsCode: '' }]);
    const tabs = await read(file('tabs.csv', 'sku\tname\nA\t"Sofa, grey"\n'), 'csv');
    expect(rows(tabs)).toEqual([{ sku: 'A', name: 'Sofa, grey' }]);
  });

  it('keeps the first of two columns with the same header and ignores columns without a header', async () => {
    expect(rows(await read(file('dup.csv', 'sku,SKU,,name\nA,B,C,D\n'), 'csv'))).toEqual([{ sku: 'A', name: 'D' }]);
  });

  it('yields nothing for an empty file or one with only blank rows, and a header alone for a header-only file', async () => {
    expect(await read(file('empty.csv', ''), 'csv')).toEqual([]);
    expect(await read(file('blank.csv', '\n ,, \n\n'), 'csv')).toEqual([]);
    expect(await read(file('header.csv', 'sku,name\n'), 'csv')).toEqual([{ type: 'header', keys: ['sku', 'name'], labels: ['sku', 'name'], sheet: null }]);
  });

  // unzipper ends its stream before exceljs has taken its last entries (xlsx-rows.ts): unguarded, about one
  // read in 150 of a small workbook lost xl/workbook.xml and threw "Cannot read properties of undefined".
  it('reads a small two-sheet workbook 300 times in a row without losing an entry', async () => {
    const target = file('small.xlsx', await xlsx({ About: [['notes']], Catalog: [['sku'], ['A-1']] }));
    for (let i = 0; i < 300; i++) expect(rows(await read(target, 'xlsx')), `read ${i}`).toEqual([{ sku: 'A-1' }]);
  });

  it('stops early on request and still reads the workbook to its end', async () => {
    for await (const event of readTable(SAMPLE_XLSX, 'xlsx')) {
      expect(event.type).toBe('header');
      break;
    }
    expect(rows(await read(SAMPLE_XLSX, 'xlsx'))).toHaveLength(SAMPLE_FILE_SKUS.length);
  });

  it('throws on a file a parser cannot read', async () => {
    await expect(read(file('bad.xlsx', Buffer.from('PK\u0003\u0004garbage', 'latin1')), 'xlsx')).rejects.toThrow();
    await expect(read(file('bad.csv', 'sku,name\nA,"unterminated\n'), 'csv')).rejects.toThrow(/quote/i);
  });

  it('turns cell values into text', () => {
    expect([cellText(null), cellText(12.5), cellText(true), cellText({ text: 'link', hyperlink: 'https://x' }), cellText({ error: '#N/A' }), cellText('  padded ')]).toEqual(['', '12.5', 'true', 'link', '', 'padded']);
  });
});
