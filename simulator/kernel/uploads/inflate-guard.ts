// A budget on what one workbook's zip entries inflate to, counted WHILE they inflate (table-bounds.ts): the
// declared sizes of an entry's local header are checked before a byte of it is inflated, then every
// inflated chunk is counted against the workbook's budget, and the XML parts are scanned for a node longer
// than the bound and a row of more cells than the bound (saxes and exceljs would build either in memory
// before anyone could look at it). Past a bound, the guard records why, ends the entry being read and stops
// the archive: nothing more is inflated, the reader sees the end of its input, and xlsx-rows.ts throws the
// recorded failure instead of whatever the truncated parts parse to.
//
// The guard is wired into unzipper's parser (the one exceljs streams the archive through) by xlsx-rows.ts:
// the file stream carries its guard, and every entry the parser hands out passes `entry()` first.
import type { Readable, Transform } from 'node:stream';
import { inflateBudget, TABLE_BOUNDS, UploadBoundError, type TableBounds } from './table-bounds.js';

/** An entry as unzipper's Parse hands it out: a PassThrough of the inflated bytes, with its local header. */
export interface ZipEntry extends Transform {
  path: string;
  vars?: { flags?: number; compressedSize?: number; uncompressedSize?: number };
}

const LT = 0x3c; // '<'
/** Longest tag name looked at: `row` and `c`, with a namespace prefix. */
const NAME_PEEK = 16;

/** Counts cells per row and the longest markup-free run of one XML part, across chunk boundaries. */
class XmlScan {
  private sinceLt = 0;
  private name: string | null = null; // a tag name being read across a chunk boundary
  private cells = 0;
  constructor(private readonly bounds: TableBounds) {}

  /** Throws an UploadBoundError when the chunk breaks a bound. */
  scan(chunk: Buffer): void {
    let from = 0;
    if (this.name !== null) from = this.readName(chunk, 0);
    for (;;) {
      const lt = chunk.indexOf(LT, from);
      const runEnd = lt === -1 ? chunk.length : lt;
      this.sinceLt += runEnd - from;
      if (this.sinceLt > this.bounds.maxXmlNodeBytes) {
        throw new UploadBoundError('maxXmlNodeBytes', `an XML node of the workbook runs past ${this.bounds.maxXmlNodeBytes} bytes`);
      }
      if (lt === -1) return;
      this.sinceLt = 0;
      this.name = '';
      from = this.readName(chunk, lt + 1);
    }
  }

  /** Reads the tag name after a `<` (possibly begun in the last chunk); answers where scanning goes on. */
  private readName(chunk: Buffer, at: number): number {
    let i = at;
    while (i < chunk.length && this.name!.length < NAME_PEEK) {
      const byte = chunk[i];
      // Name characters: letters, digits, ':', '_', '-', '.'; anything else (space, '/', '>') ends it.
      const isName = (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x30 && byte <= 0x3a) || byte === 0x5f || byte === 0x2d || byte === 0x2e;
      if (!isName) break;
      this.name += String.fromCharCode(byte);
      i++;
    }
    if (i === chunk.length && this.name!.length < NAME_PEEK) return i; // the name may go on in the next chunk
    this.tag(this.name!);
    this.name = null;
    this.sinceLt += i - at;
    return i;
  }

  private tag(name: string): void {
    const local = name.slice(name.lastIndexOf(':') + 1);
    if (local === 'row') this.cells = 0;
    else if (local === 'c' && ++this.cells > this.bounds.maxColumns) {
      throw new UploadBoundError('maxColumns', `a row of the workbook has more than ${this.bounds.maxColumns} cells`);
    }
  }
}

export class InflateGuard {
  /** Why the workbook was stopped (the first bound broken), or null. */
  failure: UploadBoundError | null = null;
  /** Bytes inflated so far, all entries together. */
  inflated = 0;
  readonly budget: number;
  private zip: Readable | null = null;
  private source: Readable | null = null;

  constructor(
    readonly fileSize: number,
    readonly bounds: TableBounds = TABLE_BOUNDS,
  ) {
    this.budget = inflateBudget(fileSize, bounds);
  }

  /** The zip parser reading `source`: stopped (with the source) when a bound is broken. */
  attach(zip: Readable, source: Readable): void {
    this.zip = zip;
    this.source = source;
  }

  private get budgetWords(): string {
    const ratio = this.budget === this.bounds.maxInflatedBytes ? 'in all' : this.budget === this.bounds.ratioFloorBytes ? 'for any workbook' : `(${this.bounds.maxInflateRatio} times the file's ${this.fileSize} bytes)`;
    return `${this.budget} bytes ${ratio}`;
  }

  /** Puts an entry under the budget before it is handed to the reader. */
  entry(entry: ZipEntry): void {
    const declared = entry.vars && !(entry.vars.flags! & 0x08) ? entry.vars.uncompressedSize : undefined;
    if (this.failure) return this.cut(entry);
    if (declared !== undefined && this.inflated + declared > this.budget) {
      this.fail(new UploadBoundError('maxInflatedBytes', `its part ${entry.path} declares ${declared} bytes inflated; a workbook's parts may inflate to ${this.budgetWords}`));
      return this.cut(entry);
    }
    const scan = /\.(xml|rels)$/i.test(entry.path) ? new XmlScan(this.bounds) : null;
    entry._transform = (chunk: Buffer, _encoding, done) => {
      if (this.failure) return done(); // stopped: the rest is dropped, never handed on
      this.inflated += chunk.length;
      try {
        if (this.inflated > this.budget) {
          throw new UploadBoundError('maxInflatedBytes', `its parts inflate past ${this.budgetWords} (stopped in ${entry.path})`);
        }
        scan?.scan(chunk);
      } catch (error) {
        this.fail(error as UploadBoundError);
        entry.push(null);
        return done();
      }
      done(null, chunk);
    };
  }

  /** An entry handed out after the guard stopped: it ends at once, empty. */
  private cut(entry: ZipEntry): void {
    entry._transform = (_chunk, _encoding, done) => done();
    entry.push(null);
  }

  private fail(error: UploadBoundError): void {
    if (this.failure) return;
    this.failure = error;
    // Nothing more is read or inflated: the archive ends here for its reader.
    if (this.source && this.zip) {
      this.source.unpipe(this.zip as unknown as NodeJS.WritableStream);
      this.source.destroy();
    }
    const state = (this.zip as (Readable & { _readableState?: { ended: boolean } }) | null)?._readableState;
    if (this.zip && state && !state.ended) this.zip.push(null);
  }
}
