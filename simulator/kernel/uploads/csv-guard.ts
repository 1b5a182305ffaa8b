// The column bound of a CSV upload (table-bounds.ts) checked on the bytes, before csv-parse builds a record:
// csv-parse holds a record's fields until its line ends, and a line of a million columns costs it seconds
// and tens of MB before any check on the finished record could run. The guard counts the delimiters of each
// line outside double quotes (a quoted newline does not end the line) and stops the file past the bound.
// It only ever counts too few (a stray quote inside an unquoted field, which the parser reads literally,
// hides what follows until the next quote), never too many: the exact check stays checkRowCells on the
// parsed record.
import { Transform, type TransformCallback } from 'node:stream';
import { TABLE_BOUNDS, UploadBoundError, type TableBounds } from './table-bounds.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d; // a line may end in CR alone (csv-parse detects it)

export function csvColumnGuard(delimiter: string, bounds: TableBounds = TABLE_BOUNDS): Transform {
  const delim = delimiter.charCodeAt(0);
  let quoted = false;
  let delimiters = 0;
  let line = 1;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === QUOTE) quoted = !quoted;
        else if (quoted) continue;
        else if (byte === delim) {
          if (++delimiters >= bounds.maxColumns) {
            return done(new UploadBoundError('maxColumns', `line ${line} has more than ${bounds.maxColumns} columns`));
          }
        } else if (byte === LF || byte === CR) {
          delimiters = 0;
          if (byte === LF) line++;
        }
      }
      done(null, chunk);
    },
  });
}
