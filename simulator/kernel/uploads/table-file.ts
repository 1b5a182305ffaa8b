// Reading an uploaded table file (spec 4.3-4.5 uploads: CSV or Excel) as a stream of rows, never the whole
// file in memory: CSV through csv-parse's streaming parser, XLSX through exceljs's streaming workbook reader
// (xlsx-rows.ts). The first non-empty row is the header; every later row is yielded keyed by its column's
// normalized header (`Product Name` -> `productName`). What the columns mean is each domain's
// business (e.g. sima/catalog-columns.ts), not this file's. Either way a row is read within the bounds of
// table-bounds.ts (its width and cell sizes; a CSV record's length while it is parsed, an XLSX part's
// inflated bytes while they inflate), so a hostile file costs a bounded amount of memory and time.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { csvColumnGuard } from './csv-guard.js';
import { checkRowCells, TABLE_BOUNDS, UploadBoundError } from './table-bounds.js';
import { xlsxRows, type SheetRow } from './xlsx-rows.js';

export { cellText } from './xlsx-rows.js';

export type TableFormat = 'csv' | 'xlsx';

export type TableEvent =
  /** The header row: normalized keys (`''` for a blank cell) and the cells as written. */
  | { type: 'header'; keys: string[]; labels: string[]; sheet: string | null }
  /** A data row: 1-based line (CSV) or row number (XLSX), values by key, and how far into the file. */
  | { type: 'row'; line: number; values: Record<string, string>; fraction: number };

/** A header cell as a key: words in camelCase, acronyms lower-cased (`HS Code` -> `hsCode`, `SKU` -> `sku`). */
export function normalizeHeader(label: string): string {
  const words = label
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

/** Rows of a CSV or XLSX file: first the header event (if any non-empty row exists), then the data rows. */
export async function* readTable(path: string, format: TableFormat): AsyncGenerator<TableEvent> {
  const size = (await stat(path)).size;
  const rows = format === 'csv' ? csvRows(path) : xlsxRows(path, size);
  let keys: string[] | undefined;
  for await (const row of rows) {
    if (row.cells.every((c) => c === '')) continue;
    if (!keys) {
      keys = row.cells.map(normalizeHeader);
      yield { type: 'header', keys, labels: row.cells, sheet: row.sheet };
      continue;
    }
    const values: Record<string, string> = {};
    keys.forEach((key, i) => {
      // A blank header names no column; a repeated one keeps its first column (the importer warns).
      if (key !== '' && !(key in values)) values[key] = row.cells[i] ?? '';
    });
    yield { type: 'row', line: row.line, values, fraction: size > 0 ? Math.min(1, row.bytesRead() / size) : 1 };
  }
}


/** The delimiter of the header line: the most frequent of comma, semicolon and tab outside quotes. */
async function sniffDelimiter(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const firstLine = buffer.subarray(0, bytesRead).toString('utf8').split(/\r?\n/)[0].replace(/"[^"]*"/g, '');
    const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
    return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
  } finally {
    await handle.close();
  }
}

async function* csvRows(path: string): AsyncGenerator<SheetRow> {
  const source = createReadStream(path, { highWaterMark: 4096 });
  // Forgiving where spreadsheets are sloppy (ragged rows, stray quotes, a BOM); a truly broken file still
  // throws, and the job fails with the parser's message and line.
  // While csv-parse builds a record: its columns counted on the bytes (csv-guard.ts), its characters by
  // max_record_size.
  const delimiter = await sniffDelimiter(path);
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    max_record_size: TABLE_BOUNDS.maxRowChars,
  });
  pipeline(source, csvColumnGuard(delimiter), parser, () => {});
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      checkRowCells(record, info.lines);
      yield { line: info.lines, cells: record.map((c) => c ?? ''), sheet: null, bytesRead: () => source.bytesRead };
    }
  } catch (error) {
    if (error instanceof UploadBoundError) throw error;
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') {
      const line = (error as { lines?: number }).lines;
      throw new UploadBoundError('maxRowChars', `the record${line ? ` on line ${line}` : ''} runs past ${TABLE_BOUNDS.maxRowChars} characters`);
    }
    throw error;
  } finally {
    source.destroy(); // a reader that stops early (a failed import) must not leave the file open
  }
}
