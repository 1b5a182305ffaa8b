// Reads a snapshot back line by line. The writer (snapshot-file.ts) puts every collection's opening and
// every record on a line of its own; read whole, a snapshot is one string, and V8 has no string over
// 512 MiB (2^29 characters): a store past that size could be written but never opened again (issue 30
// item 4: a 1 GB store). Line by line, memory holds the records and one line, whatever the file's size.
// A document in another layout (one line, as lowdb's own adapter wrote it) is still parsed whole.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { StoredRecord } from './collection.js';

/** The snapshot in memory: the store's live collections (record id -> record) and the journal position. */
export interface SnapshotData {
  seq: number;
  collections: Map<string, Map<string, StoredRecord>>;
}

/** The writer's first line: `{"seq":N,"collections":{` (an empty store is one line, parsed whole). */
const OPENING = /^\{"seq":(\d+),"collections":\{$/;
/** A collection's opening line's value: `{`, or `{}` and the closers of the document for an empty one. */
const EMPTY_COLLECTION = /^\{\}+$/;

export async function readSnapshot(file: string): Promise<SnapshotData | null> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const opened = new Promise<boolean>((resolve, reject) => {
    input.once('open', () => resolve(true));
    input.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!(await opened)) return null;
  const lines = createInterface({ input, crlfDelay: Infinity });
  const collections = new Map<string, Map<string, StoredRecord>>();
  let seq: number | undefined;
  let current: Map<string, StoredRecord> | undefined;
  let number = 0;
  try {
    for await (const raw of lines) {
      number += 1;
      if (seq === undefined) {
        const opening = OPENING.exec(raw);
        if (!opening) return await readWhole(file);
        seq = Number(opening[1]);
        continue;
      }
      const line = raw.endsWith(',') ? raw.slice(0, -1) : raw;
      if (line === '' || /^\}+$/.test(line)) continue;
      const keyEnd = endOfString(line);
      if (keyEnd < 0 || line[keyEnd] !== ':') throw new Error(`line ${number} is not "key":value`);
      const key = JSON.parse(line.slice(0, keyEnd)) as string;
      const value = line.slice(keyEnd + 1);
      if (current === undefined) {
        if (value !== '{' && !EMPTY_COLLECTION.test(value)) throw new Error(`line ${number} opens no collection`);
        current = new Map();
        collections.set(key, current);
        if (value !== '{') current = undefined;
        continue;
      }
      const { record, closed } = recordOf(value, number);
      current.set(key, record);
      if (closed) current = undefined;
    }
  } catch (error) {
    throw new Error(`the store's snapshot ${file} could not be read: ${(error as Error).message}`);
  } finally {
    lines.close();
    input.destroy();
  }
  if (seq === undefined) return await readWhole(file);
  return { seq, collections };
}

/** A record's line value: the record's JSON, followed by a `}` closing its collection (and `}}` the document). */
function recordOf(value: string, line: number): { record: StoredRecord; closed: boolean } {
  // A record is an object: its text ends with `}` too, so the closers are told apart by parsing.
  for (let closers = 0; closers <= 3; closers++) {
    try {
      return { record: JSON.parse(closers ? value.slice(0, -closers) : value) as StoredRecord, closed: closers > 0 };
    } catch {
      // one closer more
    }
  }
  throw new Error(`line ${line} holds no record`);
}

/** The index just past the JSON string `text` starts with, or -1. */
function endOfString(text: string): number {
  if (text[0] !== '"') return -1;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** A snapshot in another layout (one line): parsed whole, as before line-by-line reading existed. */
async function readWhole(file: string): Promise<SnapshotData> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as { seq: number; collections: Record<string, Record<string, StoredRecord>> };
  return { seq: parsed.seq, collections: new Map(Object.entries(parsed.collections).map(([name, records]) => [name, new Map(Object.entries(records))])) };
}
