// The simulator's store: every record in memory, made durable by an append-only journal, and compacted
// into a lowdb JSON snapshot. A write costs the size of the change (one journal line, fsynced), not the
// size of the store, which is what a plain lowdb `db.write()` per request would cost.
//
// Durability: `flush()` resolves once every mutation made before the call is fsynced. The HTTP layer
// awaits it before answering, so an acknowledged write survives a SIGKILL. Concurrent flushes share one
// append and one fsync (group commit).
//
// Domains never touch files: they get collections from `store.collection()`. Replacing this file with a
// server database keeps that interface.
import { mkdirSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';

export interface StoredRecord {
  id: string;
}

type IndexKey = (record: never) => string | undefined;

export interface Collection<T extends StoredRecord> {
  readonly name: string;
  get(id: string): T | undefined;
  values(): IterableIterator<T>;
  size(): number;
  /** Inserts or replaces. The record is frozen: change a copy and put it again. */
  put(record: T): T;
  delete(id: string): boolean;
  /** Records whose index key equals `key`, for an index declared when the collection was opened. */
  findBy(index: string, key: string): T[];
  countBy(index: string, key: string): number;
}

export interface Store {
  collection<T extends StoredRecord>(name: string, options?: { indexes?: Record<string, (record: T) => string | undefined> }): Collection<T>;
  /** Resolves when every mutation so far is on disk. */
  flush(): Promise<void>;
  /** Writes a snapshot and drops the journal it covers. */
  compact(): Promise<void>;
  close(): Promise<void>;
  /** Removes every record of every collection (sandbox reset). */
  clear(): void;
  readonly stats: { journalBytes: number; journalWrites: number; snapshotWrites: number };
}

interface Snapshot {
  seq: number;
  collections: Record<string, Record<string, StoredRecord>>;
}

type Mutation = [collection: string, id: string, record: StoredRecord | null];

export interface StoreOptions {
  /** Snapshot path; the journal lives beside it. Omit for a memory-only store (tests). */
  file?: string;
  /** Journal size that triggers a background compaction. */
  compactAfterBytes?: number;
  onError?: (error: unknown) => void;
}

export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const file = options.file ? path.resolve(options.file) : undefined;
  const journalFile = file ? `${file}.journal` : undefined;
  const compactAfterBytes = options.compactAfterBytes ?? 64 * 1024 * 1024;
  const onError = options.onError ?? ((error) => console.error(error));
  if (file) mkdirSync(path.dirname(file), { recursive: true });

  const db = new Low<Snapshot>(file ? new JSONFile<Snapshot>(file) : new Memory<Snapshot>(), { seq: 0, collections: {} });
  await db.read();
  const data = new Map<string, Map<string, StoredRecord>>();
  for (const [name, records] of Object.entries(db.data.collections)) {
    data.set(name, new Map(Object.entries(records).map(([id, record]) => [id, Object.freeze(record)])));
  }
  let seq = db.data.seq;
  const apply = ([name, id, record]: Mutation) => {
    const records = data.get(name) ?? new Map<string, StoredRecord>();
    data.set(name, records);
    if (record) records.set(id, Object.freeze(record));
    else records.delete(id);
  };
  if (journalFile) {
    for (const journal of journalsToReplay(journalFile)) {
      for (const entry of readJournal(journal)) {
        if (entry.s <= seq) continue;
        entry.m.forEach(apply);
        seq = entry.s;
      }
    }
  }

  const stats = { journalBytes: 0, journalWrites: 0, snapshotWrites: 0 };
  let journal: FileHandle | undefined = journalFile ? await open(journalFile, 'a') : undefined;
  if (journalFile && existsSync(journalFile)) stats.journalBytes = (await journal!.stat()).size;
  let pending: Mutation[] = [];
  let tail: Promise<void> = Promise.resolve();
  let scheduled: Promise<void> | undefined;
  let compacting: Promise<void> | undefined;
  const indexes = new Map<string, Map<string, { key: (record: StoredRecord) => string | undefined; buckets: Map<string, Set<string>> }>>();

  const appendBatch = async (batch: Mutation[]) => {
    seq += 1;
    if (!journal) return;
    const line = JSON.stringify({ s: seq, m: batch }) + '\n';
    await journal.appendFile(line);
    await journal.datasync();
    stats.journalBytes += Buffer.byteLength(line);
    stats.journalWrites += 1;
    if (stats.journalBytes > compactAfterBytes && !compacting) {
      compacting = compact().catch(onError).finally(() => (compacting = undefined));
    }
  };

  /** Runs `step` after every earlier journal operation: appends and rotations never interleave. */
  const serialized = <R>(step: () => Promise<R>): Promise<R> => {
    const result = tail.then(step);
    tail = result.then(
      () => undefined,
      (error) => onError(error),
    );
    return result;
  };

  const flush = (): Promise<void> => {
    if (pending.length === 0) return tail;
    scheduled ??= serialized(async () => {
      scheduled = undefined;
      const batch = pending;
      pending = [];
      if (batch.length) await appendBatch(batch);
    });
    return scheduled;
  };

  const compact = async () => {
    await flush();
    const rotated = await serialized(async () => {
      // Rotate, then take the snapshot in the same step: later writes go to the fresh journal, and
      // replaying them over a snapshot that already holds some of them is harmless (whole-record puts).
      let old: string | undefined;
      if (journal && journalFile) {
        await journal.close();
        old = `${journalFile}.${seq}.old`;
        await rename(journalFile, old);
        journal = await open(journalFile, 'a');
        stats.journalBytes = 0;
      }
      const collections: Snapshot['collections'] = {};
      for (const [name, records] of data) collections[name] = Object.fromEntries(records);
      db.data = { seq, collections };
      return old;
    });
    await db.write(); // lowdb writes a temp file and renames it: the old snapshot stays valid until then
    stats.snapshotWrites += 1;
    if (rotated) await rm(rotated, { force: true });
  };

  const indexBucket = (name: string, index: string) => {
    const found = indexes.get(name)?.get(index);
    if (!found) throw new Error(`collection ${name} has no index ${index}`);
    return found.buckets;
  };
  const reindex = (name: string, before: StoredRecord | undefined, after: StoredRecord | undefined) => {
    for (const { key, buckets } of indexes.get(name)?.values() ?? []) {
      if (before) {
        const k = key(before);
        if (k !== undefined) buckets.get(k)?.delete(before.id);
      }
      if (after) {
        const k = key(after);
        if (k !== undefined) (buckets.get(k) ?? buckets.set(k, new Set()).get(k)!).add(after.id);
      }
    }
  };

  return {
    stats,
    collection<T extends StoredRecord>(name: string, options: { indexes?: Record<string, (record: T) => string | undefined> } = {}) {
      const records = data.get(name) ?? new Map<string, StoredRecord>();
      data.set(name, records);
      const declared = indexes.get(name) ?? new Map();
      indexes.set(name, declared);
      for (const [index, key] of Object.entries(options.indexes ?? {})) {
        if (declared.has(index)) continue;
        const entry = { key: key as IndexKey as (record: StoredRecord) => string | undefined, buckets: new Map<string, Set<string>>() };
        declared.set(index, entry);
        for (const record of records.values()) {
          const k = entry.key(record);
          if (k !== undefined) (entry.buckets.get(k) ?? entry.buckets.set(k, new Set()).get(k)!).add(record.id);
        }
      }
      return {
        name,
        get: (id: string) => records.get(id) as T | undefined,
        values: () => records.values() as IterableIterator<T>,
        size: () => records.size,
        put(record: T) {
          const frozen = Object.freeze({ ...record });
          reindex(name, records.get(record.id), frozen);
          records.set(record.id, frozen);
          pending.push([name, record.id, frozen]);
          return frozen;
        },
        delete(id: string) {
          const before = records.get(id);
          if (!before) return false;
          reindex(name, before, undefined);
          records.delete(id);
          pending.push([name, id, null]);
          return true;
        },
        findBy: (index: string, key: string) => [...(indexBucket(name, index).get(key) ?? [])].map((id) => records.get(id) as T),
        countBy: (index: string, key: string) => indexBucket(name, index).get(key)?.size ?? 0,
      };
    },
    flush,
    compact: () => (compacting ??= compact().finally(() => (compacting = undefined))),
    clear() {
      for (const [name, records] of data) {
        for (const record of records.values()) {
          reindex(name, record, undefined);
          pending.push([name, record.id, null]);
        }
        records.clear();
      }
    },
    async close() {
      await flush();
      await compacting;
      await journal?.close();
      journal = undefined;
    },
  };
}

function journalsToReplay(journalFile: string): string[] {
  const dir = path.dirname(journalFile);
  const base = path.basename(journalFile);
  const rotated = readdirSync(dir)
    .map((name) => new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.old$`).exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => path.join(dir, m[0]));
  return existsSync(journalFile) ? [...rotated, journalFile] : rotated;
}

/** Journal entries in order. A torn last line (a crash mid-append) was never acknowledged: it is dropped. */
function readJournal(file: string): Array<{ s: number; m: Mutation[] }> {
  const entries: Array<{ s: number; m: Mutation[] }> = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line));
    } catch (error) {
      if (i < lines.length - 2) throw new Error(`journal ${file} is corrupt at line ${i + 1}: ${(error as Error).message}`);
    }
  }
  return entries;
}

/** Deletes a store's snapshot and journals (tests, `--reset`). */
export function removeStoreFiles(file: string): void {
  const resolved = path.resolve(file);
  if (!existsSync(path.dirname(resolved))) return;
  for (const journal of journalsToReplay(`${resolved}.journal`)) rmSync(journal, { force: true });
  rmSync(resolved, { force: true });
}
