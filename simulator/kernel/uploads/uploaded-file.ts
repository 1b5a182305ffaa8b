// An uploaded table file at the door (spec 4.3, 4.4, 4.5 uploads; 7, 8.3): is there a file part, is its type
// one the operation accepts (`x-accepted-file-types`, else 415 INVALID_FILE_FORMAT naming `file`), and what
// it really is (sniffed, not trusted from the name), and for a workbook whether its zip directory declares
// more inflated bytes than the sandbox reads (413). Then the streamed temp file, which the kernel deletes
// once the handler returns, is moved into the artifacts directory for its job; the jobs domain removes it
// when the job has ended (jobs/job-files.ts).
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, open, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KernelDeps } from '../deps.js';
import { NO_DEFECTS, type Defects } from '../defects.js';
import { ApiError, invalidRequest } from '../errors.js';
import type { HandlerRequest, UploadedFile } from '../http/types.js';
import { UploadBoundError } from './table-bounds.js';
import { readTable, type TableEvent, type TableFormat } from './table-file.js';
import { declaredPastBudget } from './zip-directory.js';

/** An upload kept in the artifacts directory for its job. */
export interface StoredUpload {
  path: string;
  fileName: string;
  format: TableFormat;
  size: number;
  sha256: string;
}

const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const unsupported = (message: string, accepted: string[]) => new ApiError('INVALID_FILE_FORMAT', message, { field: 'file', accepted });

/** The `file` part of the form, its extension checked against the contract and its content sniffed. */
export async function acceptUploadedFile(
  request: Pick<HandlerRequest, 'files' | 'operation'>,
  defects: Pick<Defects, 'has'> = NO_DEFECTS,
): Promise<{ file: UploadedFile; format: TableFormat }> {
  const file = request.files.find((f) => f.field === 'file');
  // The contract requires `file` (400 naming it before the route runs); a text field of that name is no file.
  if (!file) throw invalidRequest('file must be sent as a file part of the multipart form', 'file');
  const accepted = ((request.operation.operation['x-accepted-file-types'] as string[] | undefined) ?? []).map((t) => t.toLowerCase());
  const extension = path.extname(file.originalName).toLowerCase();
  if (!accepted.includes(extension)) throw unsupported(`unsupported file type ${extension || '(no extension)'}: send ${accepted.join(', ')}`, accepted);

  const head = await readHead(file.path);
  if (head.length === 0) return { file, format: extension === '.xlsx' ? 'xlsx' : 'csv' }; // empty: the job says so
  if (head.subarray(0, 8).equals(OLE2)) {
    // Decision (README): the binary Excel 97-2003 format has no maintained streaming reader; .xls files
    // that are really XLSX or text (as many exports are) are read.
    throw unsupported(`${file.originalName} is a binary Excel 97-2003 workbook, which the sandbox does not read: save it as .xlsx or .csv`, accepted);
  }
  if (head.subarray(0, 4).equals(ZIP)) {
    if (extension === '.csv') throw unsupported(`${file.originalName} is named .csv but is a zip archive (an .xlsx workbook?): name it .xlsx`, accepted);
    // spec 4.3 413 / spec 7 FILE_TOO_LARGE: too large once inflated, as its own directory says (zip-directory.ts).
    const tooLarge = await declaredPastBudget(file.path, file.size);
    if (tooLarge) throw new ApiError('FILE_TOO_LARGE', `${file.originalName} is too large to read: ${tooLarge}`, { field: 'file' });
    return { file, format: 'xlsx' };
  }
  // defect injection (SIM_DEFECTS): uploads.binary-named-csv-accepted takes binary content named .csv for a CSV.
  if (extension === '.csv' && defects.has('uploads.binary-named-csv-accepted')) return { file, format: 'csv' };
  if (head.includes(0)) throw unsupported(`${file.originalName} is not text: a CSV must be UTF-8 text`, accepted);
  if (extension === '.xlsx') throw unsupported(`${file.originalName} is named .xlsx but is not an XLSX workbook (no zip signature)`, accepted);
  return { file, format: 'csv' };
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Where uploads wait for their job: under SIM_ARTIFACTS, or a temp directory when none is set (tests). */
const uploadsDir = (deps: Pick<KernelDeps, 'config'>) => path.join(deps.config.artifactsDir || path.join(os.tmpdir(), 'sim-artifacts'), 'uploads');

/** Moves the streamed temp file into the artifacts directory (copied when it sits on another device). */
export async function storeUpload(deps: Pick<KernelDeps, 'config'>, file: UploadedFile, format: TableFormat): Promise<StoredUpload> {
  const dir = uploadsDir(deps);
  await mkdir(dir, { recursive: true });
  // Not from deps.ids: a file name is no record, and drawing it must not shift the seeded id sequence.
  const target = path.join(dir, `${randomUUID()}.${format}`);
  await rename(file.path, target).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EXDEV') throw error;
    await copyFile(file.path, target);
  });
  return { path: target, fileName: file.originalName, format, size: file.size, sha256: file.sha256 };
}

export const removeUpload = (upload: Pick<StoredUpload, 'path'>) => rm(upload.path, { force: true });

/** The file's rows (table-file.ts); a parser's error (bad quoting, a broken archive) names the file and its
 *  format, a broken bound (table-bounds.ts) the bound. */
export async function* readUploadedTable(file: StoredUpload): AsyncGenerator<TableEvent> {
  try {
    yield* readTable(file.path, file.format);
  } catch (error) {
    // A file past the sandbox's bounds is readable, only too costly to read: said as such (table-bounds.ts).
    if (error instanceof UploadBoundError) throw new Error(`${file.fileName} is beyond the sandbox's bounds for an upload: ${error.message}`);
    const hint = file.format === 'xlsx' ? ' (is it a complete .xlsx workbook?)' : '';
    throw new Error(`${file.fileName} could not be read as ${file.format.toUpperCase()}${hint}: ${(error as Error).message}`);
  }
}
