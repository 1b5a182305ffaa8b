import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { xlsx } from '../../testing/files.js';
import { headerWithout, noUsableHeader, readTableRows, skippedRowLog, stillStored, type HeaderEvent, type RowEvent, type TableWords } from './table-processor.js';
import type { StoredUpload } from './uploaded-file.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'table-processor-'));
const upload = (fileName: string, content: string | Buffer, format: StoredUpload['format'] = 'csv'): StoredUpload => {
  const target = path.join(dir, fileName);
  writeFileSync(target, content);
  return { path: target, fileName, format, size: Buffer.byteLength(content), sha256: '' };
};
const WORDS: TableWords = { stored: { empty: 'send a header row (sku) and one row per SKU', saysWhyGone: true }, noContent: 'send a header row (sku)', sheetRead: 'the first sheet is read' };

/** Reads `file` keeping what the steps saw. */
async function read(file: StoredUpload, words: TableWords = WORDS, batchRows = 2) {
  const seen: { header?: HeaderEvent; rows: Array<[number, Record<string, string>]>; batches: number[] } = { rows: [], batches: [] };
  const read = await readTableRows(file, words, {
    header: (event) => {
      seen.header = event;
      if (!event.keys.includes('sku')) throw headerWithout(file.fileName, event, { name: 'SKU', aliases: ['sku', 'itemSku'] });
    },
    row: (event: RowEvent, count) => void seen.rows.push([count, event.values]),
    batch: { rows: batchRows, step: async (event) => void seen.batches.push(event.line) },
  });
  return { ...seen, read };
}

describe('reading an upload table for a processor', () => {
  it('hands the processor the header, then each data row in order with its count, and a batch step every few rows', async () => {
    const seen = await read(upload('three.csv', 'SKU,Name\nA,a\nB,b\n\nC,c\n'));
    expect(seen.header?.keys).toEqual(['sku', 'name']);
    expect(seen.rows).toEqual([[1, { sku: 'A', name: 'a' }], [2, { sku: 'B', name: 'b' }], [3, { sku: 'C', name: 'c' }]]);
    expect(seen.batches).toEqual([3]); // after the second data row, on file line 3
    expect(seen.read).toMatchObject({ rows: 3, header: { keys: ['sku', 'name'] } });
  });

  it('fails an empty file, and a file no longer stored, before reading, in the processor\'s words', async () => {
    await expect(read(upload('empty.csv', ''))).rejects.toThrow(/^empty\.csv is empty: send a header row \(sku\) and one row per SKU$/);
    const gone = upload('gone.csv', 'sku\nA\n');
    rmSync(gone.path);
    await expect(read(gone)).rejects.toThrow(/^gone\.csv is no longer stored by the sandbox \(uploads are kept until their job ends\): upload it again$/);
    await expect(stillStored(gone)).rejects.toThrow(/^gone\.csv is no longer stored by the sandbox: upload it again$/);
  });

  it('without the stored check, reads an empty file and fails it as having no rows', async () => {
    await expect(read(upload('blank.csv', ''), { noContent: 'send a header row (sku)' })).rejects.toThrow(/^blank\.csv has no rows with content: send a header row \(sku\)$/);
    await expect(read(upload('blank-lines.csv', '\n,,\n'), {})).rejects.toThrow(/^blank-lines\.csv has no rows with content$/);
  });

  it('fails a header with nothing after it, naming the sheet read only for a workbook', async () => {
    await expect(read(upload('header.csv', 'sku\n'))).rejects.toThrow(/^header\.csv has a header row but no data rows$/);
    await expect(read(upload('header.xlsx', await xlsx({ Items: [['sku']] }), 'xlsx'))).rejects.toThrow(/^header\.xlsx has a header row but no data rows \(the first sheet is read\)$/);
    await expect(read(upload('blank.xlsx', await xlsx({ Items: [[]] }), 'xlsx'), { noContent: 'send a header row (sku)', sheetRead: 'the first sheet is read' })).rejects.toThrow(
      /^blank\.xlsx has no rows with content \(the first sheet is read\): send a header row \(sku\)$/,
    );
  });

  it('fails a header the processor cannot use with its reason and what the header held', async () => {
    await expect(read(upload('names.csv', 'Name,,Price\nx,,1\n'))).rejects.toThrow(
      /^names\.csv has no usable header: the first non-empty row must name the columns, with a SKU column \(sku, itemSku, any case or spacing\); found: Name, Price$/,
    );
    expect(noUsableHeader('f.csv', 'name an order id column').message).toBe('f.csv has no usable header: name an order id column');
  });
});

describe('the skipped-row log', () => {
  it('counts every skipped row by reason and names only the first few', () => {
    const log = skippedRowLog(2);
    log.skip('missing_sku', { row: 2, reason: 'missing_sku' });
    log.skip('invalid_hs', { row: 3, reason: 'invalid_hs' });
    log.skip('missing_sku', { row: 4, reason: 'missing_sku' });
    log.name({ row: 5 });
    expect(log.rows).toEqual({ counts: { missing_sku: 2, invalid_hs: 1 }, sample: [{ row: 2, reason: 'missing_sku' }, { row: 3, reason: 'invalid_hs' }] });
  });

  it('names rows without counting them, for a processor that counts by its own rules', () => {
    const log = skippedRowLog();
    for (let row = 1; row <= 12; row += 1) log.name({ row });
    expect(log.rows.counts).toEqual({});
    expect(log.rows.sample.map((entry) => entry.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
