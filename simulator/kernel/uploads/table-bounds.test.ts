import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { xlsx } from '../../testing/files.js';
import { spacesXlsx, wideCsv, zipBombXlsx } from '../../testing/hostile-inputs.js';
import { TABLE_BOUNDS } from './table-bounds.js';
import { readUploadedTable, type StoredUpload } from './uploaded-file.js';
import { declaredPastBudget } from './zip-directory.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'table-bounds-'));
function stored(fileName: string, content: Buffer): StoredUpload {
  const file = path.join(dir, fileName);
  writeFileSync(file, content);
  return { path: file, fileName, format: fileName.endsWith('.csv') ? 'csv' : 'xlsx', size: content.length, sha256: '' };
}

/** Reads the whole table: its row count, or the error's message. */
async function read(file: StoredUpload): Promise<string> {
  let rows = 0;
  try {
    for await (const event of readUploadedTable(file)) if (event.type === 'row') rows++;
    return `${rows} rows`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('an XLSX upload read within its bounds', () => {
  it('fails a sheet of 64 MiB of spaces on its XML node bound, whatever its headers declare and wherever the sheet sits', async () => {
    for (const sizes of ['local', 'descriptor', 'understated'] as const) {
      for (const sheetFirst of [false, true]) {
        const file = stored(`spaces-${sizes}-${sheetFirst}.xlsx`, await spacesXlsx(64 * 1024 * 1024, { sizes, sheetFirst }));
        // Declared honestly in the local header: refused before a byte is inflated (the budget is 16 MiB here).
        const why = sizes === 'local' ? /its part xl\/worksheets\/sheet1\.xml declares \d+ bytes inflated; a workbook's parts may inflate to 16777216 bytes/ : /an XML node of the workbook runs past 1048576 bytes/;
        expect(await read(file), `${sizes}, sheet first: ${sheetFirst}`).toMatch(new RegExp(`^spaces-${sizes}-${sheetFirst}\\.xlsx is beyond the sandbox's bounds for an upload: ${why.source}`));
      }
    }
  });

  it('stops a sheet of short nodes at the inflate budget, counting the bytes when the headers understate them', async () => {
    const file = stored('tags.xlsx', await spacesXlsx(40 * 1024 * 1024, { sizes: 'understated', fill: '<x/>' }));
    expect(await read(file)).toMatch(/^tags\.xlsx is beyond the sandbox's bounds for an upload: its parts inflate past 16777216 bytes for any workbook \(stopped in xl\/worksheets\/sheet1\.xml\)$/);
  });

  it(`fails a row of more than ${TABLE_BOUNDS.maxColumns} cells while it inflates`, async () => {
    expect(await read(stored('wide.xlsx', zipBombXlsx(TABLE_BOUNDS.maxColumns + 1)))).toBe(`wide.xlsx is beyond the sandbox's bounds for an upload: a row of the workbook has more than ${TABLE_BOUNDS.maxColumns} cells`);
  });

  it(`reads rows of exactly ${TABLE_BOUNDS.maxColumns} cells (Excel's widest)`, async () => {
    const widest = Array.from({ length: TABLE_BOUNDS.maxColumns }, (_, i) => `c${i}`);
    expect(await read(stored('widest.xlsx', await xlsx({ Catalog: [widest, widest] })))).toBe('1 rows');
  });

  it('refuses at the door a workbook whose directory declares more than its budget, and lets an understating one through to its job', async () => {
    const honest = await spacesXlsx(64 * 1024 * 1024, { sizes: 'descriptor' });
    const liar = await spacesXlsx(64 * 1024 * 1024, { sizes: 'understated' });
    expect(await declaredPastBudget(stored('honest.xlsx', honest).path, honest.length)).toMatch(/^its parts declare \d+ bytes once inflated; the sandbox inflates at most 16777216 bytes for a file of \d+ bytes$/);
    expect(await declaredPastBudget(stored('liar.xlsx', liar).path, liar.length)).toBeNull();
    expect(await declaredPastBudget(stored('small.xlsx', zipBombXlsx(10)).path, zipBombXlsx(10).length)).toBeNull();
  });
});

describe('a CSV upload read within its bounds', () => {
  it(`fails a line of 1,000,000 columns on its bytes, before the record is built`, async () => {
    const started = Date.now();
    expect(await read(stored('wide.csv', wideCsv(1_000_000)))).toBe(`wide.csv is beyond the sandbox's bounds for an upload: line 1 has more than ${TABLE_BOUNDS.maxColumns} columns`);
    expect(Date.now() - started).toBeLessThan(10_000); // was 13 s of csv-parse at full CPU
  });

  it(`reads ${TABLE_BOUNDS.maxColumns} columns, and counts no delimiter inside quotes`, async () => {
    expect(await read(stored('widest.csv', wideCsv(TABLE_BOUNDS.maxColumns)))).toBe('1 rows');
    const quoted = Buffer.from(`sku,notes\nA,"${','.repeat(TABLE_BOUNDS.maxColumns + 10)}"\n`);
    expect(await read(stored('quoted.csv', quoted))).toBe('1 rows');
  });

  it(`fails a cell of more than ${TABLE_BOUNDS.maxCellChars} characters, naming its row and column`, async () => {
    const file = stored('long.csv', Buffer.from(`sku,name\nA,${'x'.repeat(TABLE_BOUNDS.maxCellChars + 1)}\n`));
    expect(await read(file)).toBe(`long.csv is beyond the sandbox's bounds for an upload: row 2, column 2 holds ${TABLE_BOUNDS.maxCellChars + 1} characters; a cell may hold at most ${TABLE_BOUNDS.maxCellChars}`);
  });

  it(`fails a record of more than ${TABLE_BOUNDS.maxRowChars} characters while it is parsed`, async () => {
    const cell = 'y'.repeat(30_000);
    const file = stored('heavy.csv', Buffer.from(`sku,a\n${Array(40).fill(cell).join(',')}\n`));
    expect(await read(file)).toMatch(/^heavy\.csv is beyond the sandbox's bounds for an upload: the record( on line \d+)? runs past 1048576 characters$/);
  });
});
