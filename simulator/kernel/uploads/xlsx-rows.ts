// The rows of an XLSX upload through exceljs's streaming workbook reader: one row at a time, from the
// sheet named `Catalog` if the workbook has one, else the first sheet. Two guards around the reader:
//   - unzipper (exceljs's zip parser) emits 'end' as soon as it has parsed its input, while entries it has
//     already parsed may still wait in its buffer; exceljs then stops early and misses them (often
//     xl/workbook.xml, which exceljs and Excel write last), failing 1 read in ~150 on small workbooks. The
//     guard turns that early 'end' into the end of the readable side, so 'end' comes after the last entry.
//   - a workbook is always read to its end, even when the caller stops early: exceljs parks sheets that come
//     before the shared strings in temp files and deletes each one only after it was read.
// And the bounds of table-bounds.ts: every entry the parser hands out passes the file's InflateGuard
// (inflate-guard.ts: inflated bytes, ratio, XML nodes and cells per row, counted while inflating), and each
// row is checked (width, cell sizes) before it is built into cells. A broken bound is the error thrown,
// whatever the truncated workbook parsed to.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { ReadStream } from 'node:fs';
import type ExcelJS from 'exceljs';
import { loadExceljs } from '../deferred-loads.js';
import { InflateGuard, type ZipEntry } from './inflate-guard.js';
import { checkRowCells, TABLE_BOUNDS, UploadBoundError } from './table-bounds.js';

export interface SheetRow {
  line: number;
  cells: string[];
  sheet: string | null;
  bytesRead(): number;
}

/** The sheet read when a workbook has one of this name (any case). */
const CATALOG_SHEET = 'catalog';

type ZipParser = Readable & { _readableState: { ended: boolean; endEmitted: boolean } };

/** The guard a file stream carries to the zip parser it is piped into. */
const GUARD = Symbol('inflateGuard');
type GuardedSource = Readable & { [GUARD]?: InflateGuard };
type GuardedFile = ReadStream & { [GUARD]?: InflateGuard };

/** Puts every entry of the parser under the guard of the stream piped into it (none: unguarded). */
function guardEntries(zip: ZipParser): void {
  zip.once('pipe', (source: GuardedSource) => {
    const guard = source[GUARD];
    if (!guard) return;
    guard.attach(zip, source);
    const push = zip.push;
    zip.push = function (this: ZipParser, chunk: unknown, encoding?: BufferEncoding) {
      if (chunk !== null && typeof chunk === 'object' && typeof (chunk as ZipEntry).path === 'string' && typeof (chunk as ZipEntry).pipe === 'function') guard.entry(chunk as ZipEntry);
      return push.call(this, chunk, encoding);
    };
  });
}

/** Wraps `unzipper.Parse` (the instance exceljs loads) once per process: see the file comment. */
function guardZipEnd(): void {
  const fromExceljs = createRequire(createRequire(import.meta.url).resolve('exceljs'));
  const unzipper = fromExceljs('unzipper') as { Parse: ((opts?: object) => ZipParser) & { endGuarded?: boolean } };
  if (unzipper.Parse.endGuarded) return;
  const parse = unzipper.Parse;
  const guarded = (opts?: object) => {
    const zip = parse(opts);
    guardEntries(zip);
    const emit = zip.emit;
    zip.emit = function (this: ZipParser, event: string | symbol, ...args: unknown[]) {
      // Node's own 'end' sets endEmitted first; unzipper's early one does not.
      if (event === 'end' && !this._readableState.endEmitted) {
        if (!this._readableState.ended) this.push(null);
        return true;
      }
      return emit.call(this, event, ...args);
    } as ZipParser['emit'];
    return zip;
  };
  unzipper.Parse = Object.assign(guarded, { endGuarded: true });
}

// exceljs is not loaded at start-up (deferred-loads.ts); its zip parser is guarded before the first read.
const loadGuardedExceljs = async (): Promise<typeof ExcelJS> => {
  const { default: exceljs } = await loadExceljs();
  guardZipEnd();
  return exceljs;
};

/** A cell's value as text: rich text joined, formulas by their result, hyperlinks by their text, dates as days. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'object') return String(value).trim();
  const v = value as { richText?: Array<{ text: string }>; result?: unknown; text?: unknown };
  if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('').trim();
  if ('result' in v) return cellText(v.result);
  if ('text' in v) return cellText(v.text);
  return '';
}

async function drain(iterator: AsyncIterator<unknown> | undefined): Promise<void> {
  if (iterator) while (!(await iterator.next()).done);
}

/** Reads every sheet still to come, each to its end. */
async function drainSheets(sheets: AsyncIterator<ExcelJS.stream.xlsx.WorksheetReader>): Promise<void> {
  for (let next = await sheets.next(); !next.done; next = await sheets.next()) await drain(next.value[Symbol.asyncIterator]());
}

export async function* xlsxRows(path: string, fileSize: number): AsyncGenerator<SheetRow> {
  const { stream } = await loadGuardedExceljs();
  const source: GuardedFile = createReadStream(path);
  const guard = new InflateGuard(fileSize);
  source[GUARD] = guard;
  // Shared strings and styles are cached (the string table; number formats tell dates from numbers); rows stream.
  const workbook = new stream.xlsx.WorkbookReader(source, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit' });
  const sheets = workbook[Symbol.asyncIterator]();
  let rows: AsyncIterator<ExcelJS.Row> | undefined;
  let wanted: string | null | undefined;
  let read = false;
  try {
    for (let next = await sheets.next(); !next.done; next = await sheets.next()) {
      const name: string | null = (next.value as unknown as { name?: string }).name ?? null;
      if (wanted === undefined) {
        // The sheet names come from xl/workbook.xml, parsed before any sheet is handed out.
        const names = ((workbook as unknown as { model?: { sheets?: Array<{ name: string }> } }).model?.sheets ?? []).map((s) => s.name);
        wanted = names.find((n) => n.trim().toLowerCase() === CATALOG_SHEET) ?? null;
      }
      rows = next.value[Symbol.asyncIterator]();
      if (read || (wanted !== null && name !== wanted)) {
        await drain(rows); // other sheets are read too (see the file comment), not yielded
        continue;
      }
      read = true;
      for (let row = await rows.next(); !row.done; row = await rows.next()) {
        if (guard.failure) throw guard.failure;
        const values = row.value.values as unknown[];
        // Before the cells are built: a cell may name column 10,000,000 (the values array is sparse).
        if (values.length - 1 > TABLE_BOUNDS.maxColumns) {
          throw new UploadBoundError('maxColumns', `row ${row.value.number} reaches column ${values.length - 1}; at most ${TABLE_BOUNDS.maxColumns} columns are read`);
        }
        const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => cellText(values[i + 1]));
        checkRowCells(cells, row.value.number);
        yield { line: row.value.number, cells, sheet: name, bytesRead: () => source.bytesRead };
      }
    }
    if (guard.failure) throw guard.failure;
    if (!read && wanted) throw new Error(`the workbook names a sheet "${wanted}" but it could not be read`);
  } catch (error) {
    // A workbook cut short by the guard may fail to parse: the bound broken is the reason.
    throw guard.failure ?? error;
  } finally {
    await drain(rows).catch(() => {});
    await drainSheets(sheets).catch(() => {});
    source.destroy();
  }
}
