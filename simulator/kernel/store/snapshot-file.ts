// The journal store's snapshot as a lowdb adapter that streams. lowdb's JSONFile serializes the whole store
// into one string before writing it: with half a million records (a 50 MB catalog upload) that string and
// the copy made to build it cost over a gigabyte at compaction time. This adapter writes the same JSON
// document ({ seq, collections: { name: { id: record } } }) record by record in bounded chunks, fsyncs it,
// and renames it over the previous snapshot, which stays valid until then (a crash mid-write leaves only a
// temp file, removed at the next start: journal-files.ts).
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import type { StoredRecord } from './collection.js';
import { fsyncDir, snapshotTemp } from './journal-files.js';
import { readSnapshot, type SnapshotData } from './snapshot-reader.js';

/**
 * The store at one journal position: each collection's records as they were at `seq`. Records are frozen,
 * so arrays of them taken in one synchronous step are a consistent image that later writes cannot change.
 */
export interface SnapshotImage {
  seq: number;
  collections: ReadonlyArray<readonly [name: string, records: readonly StoredRecord[]]>;
}

/** Takes the image of live collections (one array of references per collection, no record copied). */
export const imageOf = (seq: number, collections: Map<string, Map<string, StoredRecord>>): SnapshotImage => ({
  seq,
  collections: [...collections].map(([name, records]) => [name, [...records.values()]] as const),
});

/**
 * How much JSON text is gathered before each write: well under V8's large-object size (128 KB), and turned
 * into bytes before the write's await. A 1 MB string is born in the old generation, and a compaction
 * beside a 50 MB import left its whole text there until the next major GC (issue 15: peak RSS).
 */
const CHUNK_CHARS = 1 << 15;

export class SnapshotFile implements Adapter<SnapshotData> {
  constructor(private readonly file: string) {}

  /** Line by line (snapshot-reader.ts): a snapshot of any size opens again. */
  read(): Promise<SnapshotData | null> {
    return readSnapshot(this.file);
  }

  /** lowdb's adapter entry point: writes the collections as they are now. */
  async write(data: SnapshotData): Promise<void> {
    await this.writeImage(imageOf(data.seq, data.collections));
  }

  /** Streams the image to a temp file, fsyncs it, renames it over the snapshot and fsyncs the directory. */
  async writeImage(image: SnapshotImage): Promise<void> {
    const temp = snapshotTemp(this.file);
    const handle = await open(temp, 'w');
    try {
      let chunk = `{"seq":${image.seq},"collections":{`;
      let firstCollection = true;
      for (const [name, records] of image.collections) {
        chunk += `${firstCollection ? '' : ','}\n${JSON.stringify(name)}:{`;
        firstCollection = false;
        let firstRecord = true;
        for (const record of records) {
          chunk += `${firstRecord ? '' : ','}\n${JSON.stringify(record.id)}:${JSON.stringify(record)}`;
          firstRecord = false;
          if (chunk.length >= CHUNK_CHARS) {
            const bytes = Buffer.from(chunk, 'utf8');
            chunk = '';
            await handle.write(bytes);
          }
        }
        chunk += '}';
      }
      await handle.write(`${chunk}}}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.file);
    await fsyncDir(path.dirname(this.file));
  }
}
