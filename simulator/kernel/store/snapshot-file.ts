// The journal store's snapshot as a lowdb adapter that streams. lowdb's JSONFile serializes the whole store
// into one string before writing it: with half a million records (a 50 MB catalog upload) that string and
// the copy made to build it cost over a gigabyte at compaction time. This adapter writes the same JSON
// document ({ seq, collections: { name: { id: record } } }) record by record in bounded chunks, fsyncs it,
// and renames it over the previous snapshot, which stays valid until then.
import { open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import type { StoredRecord } from './collection.js';

/** The snapshot in memory: the store's live collections (record id -> record) and the journal position. */
export interface SnapshotData {
  seq: number;
  collections: Map<string, Map<string, StoredRecord>>;
}

/** How much JSON text is gathered before each write. */
const CHUNK_CHARS = 1 << 20;

export class SnapshotFile implements Adapter<SnapshotData> {
  constructor(private readonly file: string) {}

  async read(): Promise<SnapshotData | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const parsed = JSON.parse(text) as { seq: number; collections: Record<string, Record<string, StoredRecord>> };
    return { seq: parsed.seq, collections: new Map(Object.entries(parsed.collections).map(([name, records]) => [name, new Map(Object.entries(records))])) };
  }

  /**
   * Writes the collections as they are while it walks them. Records written meanwhile may or may not be in
   * the file: they are also in the journal after `seq`, whose replay (whole-record puts and deletes, in
   * order) ends on the same state either way.
   */
  async write(data: SnapshotData): Promise<void> {
    const temp = `${this.file}.${process.pid}.tmp`;
    const handle = await open(temp, 'w');
    try {
      let chunk = `{"seq":${data.seq},"collections":{`;
      let firstCollection = true;
      for (const [name, records] of data.collections) {
        chunk += `${firstCollection ? '' : ','}\n${JSON.stringify(name)}:{`;
        firstCollection = false;
        let firstRecord = true;
        for (const [id, record] of records) {
          chunk += `${firstRecord ? '' : ','}\n${JSON.stringify(id)}:${JSON.stringify(record)}`;
          firstRecord = false;
          if (chunk.length >= CHUNK_CHARS) {
            await handle.write(chunk);
            chunk = '';
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
    // The rename itself is durable once the directory is synced.
    const dir = await open(path.dirname(this.file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
