// Hostile request bodies for the robustness tests (simulator/fuzz.test.ts): nesting deeper than any parser
// should follow, compressed garbage and a decompression bomb, multipart forms cut short, a zip bomb named
// .xlsx, a CSV with a million columns. Built in memory, deterministically, and small on the wire.
import { createDeflateRaw, crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** JSON text nested `levels` deep (alternating arrays and objects), built as text: no recursion anywhere. */
export function deepJsonText(levels: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < levels; level++) {
    open.push(level % 2 ? '[' : '{"k":');
    close.push(level % 2 ? ']' : '}');
  }
  return open.join('') + '"leaf"' + close.reverse().join('');
}

/** gzip of `bytes` of one repeated character inside a JSON string: tiny on the wire, over any JSON limit once inflated. */
export function gzipBombJson(bytes: number): Buffer {
  return gzipSync(Buffer.concat([Buffer.from('{"skus":["'), Buffer.alloc(bytes, 'A'), Buffer.from('"]}')]), { level: 9 });
}

/** An entry deflated beforehand: its deflated bytes, inflated size and CRC-32. */
interface PackedEntry {
  packed: Buffer;
  size: number;
  crc: number;
}

/**
 * A zip archive (stored names, deflated entries) from name -> content. `sizes`: where the local headers
 * give each entry's sizes: `local` (there, as most archivers write them), `descriptor` (zero there, in a data
 * descriptor after the data, as streaming writers do: a reader learns them only once it has inflated it),
 * or `understated` (the local and central headers claim the inflated size is the deflated size: a liar).
 */
function zipArchive(entries: Record<string, Buffer | string | PackedEntry>, sizes: 'local' | 'descriptor' | 'understated' = 'local'): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const raw = typeof content === 'string' ? Buffer.from(content) : Buffer.isBuffer(content) ? content : undefined;
    const { packed, size, crc } = raw ? { packed: deflateRawSync(raw, { level: 9 }), size: raw.length, crc: crc32(raw) } : (content as PackedEntry);
    const declared = sizes === 'understated' ? Math.min(size, packed.length) : size;
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(sizes === 'descriptor' ? 0x08 : 0, 6);
    local.writeUInt16LE(8, 8); // deflate
    if (sizes !== 'descriptor') {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(packed.length, 18);
      local.writeUInt32LE(declared, 22);
    }
    local.writeUInt16LE(fileName.length, 26);
    const descriptor = Buffer.alloc(sizes === 'descriptor' ? 16 : 0);
    if (sizes === 'descriptor') {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(packed.length, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(sizes === 'descriptor' ? 0x08 : 0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed, descriptor);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length + descriptor.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Catalog" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/**
 * A well-formed XLSX whose one sheet is a header row and then one row of `cells` numeric cells: a few
 * hundred KB on the wire, tens of MB of XML once inflated (a zip bomb a reader has to survive).
 */
export function zipBombXlsx(cells: number): Buffer {
  const cell = '<c t="n"><v>1</v></c>';
  const sheet = Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${SHEET_NS}"><sheetData><row r="1"><c t="inlineStr"><is><t>sku</t></is></c><c t="inlineStr"><is><t>name</t></is></c></row><row r="2">`),
    Buffer.alloc(cell.length * cells, cell),
    Buffer.from('</row></sheetData></worksheet>'),
  ]);
  return zipArchive({
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS,
    'xl/_rels/workbook.xml.rels': WORKBOOK_RELS,
    'xl/worksheets/sheet1.xml': sheet,
    'xl/workbook.xml': WORKBOOK,
  });
}

/** `bytes` of one repeated byte, deflated as a stream (never held inflated): 512 MiB of spaces is ~520 KB. */
async function deflatedRun(bytes: number, fill: string, prefix: Buffer, suffix: Buffer): Promise<PackedEntry> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => deflate.once('end', resolve).once('error', reject));
  const block = Buffer.alloc(Math.min(bytes, 1024 * 1024), fill);
  let crc = crc32(prefix);
  deflate.write(prefix);
  for (let left = bytes; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(suffix, crc);
  deflate.end(suffix);
  await done;
  return { packed: Buffer.concat(out), size: prefix.length + bytes + suffix.length, crc };
}

/**
 * issue 30's hostile workbook: a well-formed XLSX whose sheet holds a header row and then `spaces` bytes of
 * spaces inside its sheetData (512 MiB deflates to about 520 KB), or of `fill` repeated. `sizes` as zipArchive's; `sheetFirst`
 * puts the sheet before the workbook part (a reader that needs the workbook first parks it in a temp file).
 */
export async function spacesXlsx(spaces: number, options: { sizes?: 'local' | 'descriptor' | 'understated'; sheetFirst?: boolean; fill?: string } = {}): Promise<Buffer> {
  const sheet = await deflatedRun(
    spaces,
    options.fill ?? ' ',
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${SHEET_NS}"><sheetData><row r="1"><c t="inlineStr"><is><t>sku</t></is></c><c t="inlineStr"><is><t>name</t></is></c></row>`),
    Buffer.from('</sheetData></worksheet>'),
  );
  const parts: Record<string, Buffer | string | PackedEntry> = {
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS,
    'xl/_rels/workbook.xml.rels': WORKBOOK_RELS,
  };
  if (options.sheetFirst) parts['xl/worksheets/sheet1.xml'] = sheet;
  parts['xl/workbook.xml'] = WORKBOOK;
  if (!options.sheetFirst) parts['xl/worksheets/sheet1.xml'] = sheet;
  return zipArchive(parts, options.sizes ?? 'local');
}

/** A CSV whose header has `columns` columns (then one data row as wide): 2 bytes a column. */
export function wideCsv(columns: number): Buffer {
  const header = Buffer.alloc(columns * 2, 'a,');
  header[header.length - 1] = 0x0a;
  const row = Buffer.alloc(columns * 2, '1,');
  row[row.length - 1] = 0x0a;
  return Buffer.concat([header, row]);
}

export interface FilePart {
  field: string;
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** A multipart/form-data body; `cutAt` cuts it there (a form that ends without its closing boundary). */
export function multipartBody(fields: Record<string, string>, files: FilePart[], options: { boundary?: string; cutAt?: number } = {}): { contentType: string; body: Buffer } {
  const boundary = options.boundary ?? '----fuzz-boundary-7d1e';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.fileName}"\r\nContent-Type: ${file.contentType}\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: options.cutAt === undefined ? body : body.subarray(0, options.cutAt) };
}
