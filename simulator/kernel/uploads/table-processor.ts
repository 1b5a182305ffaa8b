// An upload job's reading of its table file, written once for every upload processor (spec 4.3-4.5 uploads;
// spec 2.2 `skippedRows`; spec 3.1: a job that cannot use its file FAILS, saying why, never a 500):
//   1. before reading, when the processor asks: the stored file is still there, and it is not empty;
//   2. the first non-empty row is the header, which the processor maps to its columns or refuses
//      (`noUsableHeader`, `headerWithout`): the job fails naming what the header lacks;
//   3. then every data row in file order, the event loop given a turn now and then (kernel/cooperate.ts),
//      with an optional batch step every so many rows (a store flush, a progress report);
//   4. a file with no row at all, or a header and nothing else, fails.
// What the columns mean, what a row becomes, what a skipped row's sample entry names and what the job answers
// are the processor's own: it supplies them as the header and row steps and builds its result from them.
import { access } from 'node:fs/promises';
import { cooperative } from '../cooperate.js';
import type { TableEvent } from './table-file.js';
import { readUploadedTable, type StoredUpload } from './uploaded-file.js';

export type HeaderEvent = Extract<TableEvent, { type: 'header' }>;
export type RowEvent = Extract<TableEvent, { type: 'row' }>;

/** How many skipped rows a job names in `skippedRows.sample` (the rest are only counted). */
export const SKIPPED_SAMPLE = 10;

/** spec 2.2: a job's skipped rows, counted by reason, the first few named. */
export interface SkippedRows {
  counts: Record<string, number>;
  sample: Array<Record<string, unknown>>;
}

export interface SkippedRowLog {
  /** The record the job answers as `skippedRows`. */
  readonly rows: SkippedRows;
  /** Counts a skipped row under `reason` and names it (`entry`, in the processor's words) while the sample has room. */
  skip(reason: string, entry: Record<string, unknown>): void;
  /** Names a row in the sample while it has room, counting nothing (a processor that counts by its own rules). */
  name(entry: Record<string, unknown>): void;
}

export function skippedRowLog(sampleSize = SKIPPED_SAMPLE): SkippedRowLog {
  const rows: SkippedRows = { counts: {}, sample: [] };
  const name = (entry: Record<string, unknown>) => {
    if (rows.sample.length < sampleSize) rows.sample.push(entry);
  };
  return {
    rows,
    skip(reason, entry) {
      rows.counts[reason] = (rows.counts[reason] ?? 0) + 1;
      name(entry);
    },
    name,
  };
}

/** What the header row held, for an error: its non-blank cells as written, cut at `max` characters. */
export const labelsFound = (header: HeaderEvent, max = 300): string => header.labels.filter(Boolean).join(', ').slice(0, max) || 'nothing';

/** The job's failure for a header it cannot use: `<file> has no usable header: <why>`. */
export const noUsableHeader = (fileName: string, why: string): Error => new Error(`${fileName} has no usable header: ${why}`);

/** The same for a header without the one column the processor cannot do without, naming its accepted headers. */
export const headerWithout = (fileName: string, header: HeaderEvent, column: { name: string; aliases: readonly string[]; where?: string }): Error =>
  noUsableHeader(
    fileName,
    `the first non-empty row${column.where ?? ''} must name the columns, with a ${column.name} column (${column.aliases.join(', ')}, any case or spacing); found: ${labelsFound(header)}`,
  );

/** Before reading: the upload is still kept by the sandbox (an upload is removed once its job has ended). */
export async function stillStored(file: Pick<StoredUpload, 'path' | 'fileName'>, saysWhy = false): Promise<void> {
  await access(file.path).catch(() => {
    throw new Error(`${file.fileName} is no longer stored by the sandbox${saysWhy ? ' (uploads are kept until their job ends)' : ''}: upload it again`);
  });
}

/** Before reading: still stored, and not empty (`<file> is empty: <empty>`). */
export async function checkStored(file: Pick<StoredUpload, 'path' | 'fileName' | 'size'>, stored: { empty: string; saysWhyGone?: boolean }): Promise<void> {
  await stillStored(file, stored.saysWhyGone);
  if (file.size === 0) throw new Error(`${file.fileName} is empty: ${stored.empty}`);
}

/** The sentences of a processor's failures that only it can say. */
export interface TableWords {
  /**
   * When given, the file is checked before it is read: still stored (saying why an upload goes when
   * `saysWhyGone`), and not empty: `<file> is empty: <empty>` (e.g. `send a header row (...) and one row per SKU`).
   */
  stored?: { empty: string; saysWhyGone?: boolean };
  /** What to send, said after `<file> has no rows with content`. */
  noContent?: string;
  /** Which sheet of a workbook is read (e.g. `the first sheet is read`): said in both "no rows" failures of an XLSX file. */
  sheetRead?: string;
}

/** A processor's own steps. */
export interface TableSteps {
  /** Maps the header to the processor's columns; throws (`noUsableHeader`) when the job cannot use it. */
  header(event: HeaderEvent): void | Promise<void>;
  /** One data row; `count` is how many data rows have been read with this one. */
  row(event: RowEvent, count: number): void | Promise<void>;
  /** After every `rows`-th data row (once its row step is done): e.g. flush the store, report progress. */
  batch?: { rows: number; step(event: RowEvent): Promise<void> };
}

/** Reads the upload through the processor's steps; answers its header and how many data rows it held. */
export async function readTableRows(file: StoredUpload, words: TableWords, steps: TableSteps): Promise<{ header: HeaderEvent; rows: number }> {
  const name = file.fileName;
  if (words.stored) await checkStored(file, words.stored);
  let header: HeaderEvent | undefined;
  let rows = 0;
  const giveWay = cooperative();
  for await (const event of readUploadedTable(file)) {
    await giveWay();
    if (event.type === 'header') {
      header = event;
      await steps.header(event);
      continue;
    }
    rows += 1;
    await steps.row(event, rows);
    if (steps.batch && rows % steps.batch.rows === 0) await steps.batch.step(event);
  }
  const where = words.sheetRead && file.format === 'xlsx' ? ` (${words.sheetRead})` : '';
  if (!header) throw new Error(`${name} has no rows with content${where}${words.noContent ? `: ${words.noContent}` : ''}`);
  if (rows === 0) throw new Error(`${name} has a header row but no data rows${where}`);
  return { header, rows };
}
