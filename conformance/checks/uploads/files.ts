// The files and forms the upload checks send: valid files with bytes unique to the run, files of a type no
// upload accepts, an oversized CSV, and the multipart form around a file.
import { isObject, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { mediaExample } from '../../../contracts/lib/example-request.js';
import { deref } from '../../../contracts/lib/operations.js';
import type { UploadOperation } from './targets.js';

const MIME: Record<string, string> = {
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.exe': 'application/octet-stream',
  '.zip': 'application/zip',
  '.png': 'image/png',
};
export const mimeOf = (extension: string) => MIME[extension] ?? 'application/octet-stream';

/** The extension valid files are sent with: .csv where accepted (every text example is CSV), else the first. */
export const validExtension = (target: UploadOperation) => (target.accepted.includes('.csv') || !target.accepted.length ? '.csv' : target.accepted[0]);

/** Extensions no upload of the interface accepts (spec 8.3: CSV or Excel; decision 7: PDF for agreements). */
export const FOREIGN_EXTENSIONS = ['.exe', '.txt', '.json', '.zip', '.png'];

/** A CSV the operation's example gives as text, when it does (binary examples are placeholders). */
function exampleCsv(doc: OpenApiDocument, target: UploadOperation): string | undefined {
  const body = deref(doc, target.op.operation.requestBody ?? null);
  const media = isObject(body) && isObject(body.content) ? body.content['multipart/form-data'] : undefined;
  const example = mediaExample(doc, media ?? null);
  const file = isObject(example) ? example[target.fileField] : undefined;
  return typeof file === 'string' && file.trim().includes('\n') && file.includes(',') ? file : undefined;
}

const GENERIC_CSV = 'sku,productName,hsCode,countryOfOrigin\nCONF-SKU-001,Conformance sample,6109.10,CN\n';

/**
 * A small valid file whose bytes are unique to this run and `tag`: the operation's example CSV (or a generic
 * one) with one more row, the last row with `tag` as its first cell. Unique bytes keep a shared server's
 * earlier uploads from making this one a duplicate.
 */
export function uniqueFile(doc: OpenApiDocument, target: UploadOperation, tag: string): File {
  const text = (exampleCsv(doc, target) ?? GENERIC_CSV).trimEnd();
  const last = text.split('\n').at(-1) ?? '';
  const comma = last.indexOf(',');
  const row = comma > 0 && !last.startsWith('"') ? `${tag}${last.slice(comma)}` : tag;
  const extension = validExtension(target);
  return new File([`${text}\n${row}\n`], `conformance-${tag}${extension}`, { type: mimeOf(extension) });
}

/**
 * `bytes` of CSV text (a header, then rows), built in place: the one buffer becomes the File's contents, so
 * the 50 MB are not held twice once the File exists.
 */
export function oversizedCsv(bytes: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(bytes));
  const encoder = new TextEncoder();
  const header = encoder.encode('sku,productName,hsCode\n');
  const row = encoder.encode('CONF-OVERSIZE,Conformance size-cap row,6109.10\n');
  out.set(header.subarray(0, Math.min(header.length, bytes)));
  let filled = Math.min(header.length, bytes);
  if (filled < bytes) {
    out.set(row.subarray(0, Math.min(row.length, bytes - filled)), filled);
    filled += Math.min(row.length, bytes - filled);
  }
  // Double the written rows until the buffer is full.
  const rowsStart = header.length;
  while (filled < bytes) {
    const chunk = Math.min(filled - rowsStart, bytes - filled);
    out.copyWithin(filled, rowsStart, rowsStart + chunk);
    filled += chunk;
  }
  return out;
}

/** The multipart form of an upload: `file` in the operation's binary field, then its required fields. */
export function formWith(target: UploadOperation, file: File): FormData {
  const form = new FormData();
  form.append(target.fileField, file, file.name);
  for (const [name, value] of Object.entries(target.fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  return form;
}
