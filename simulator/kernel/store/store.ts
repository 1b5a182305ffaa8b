// The journal store: the embedded default behind the store seam (collection.ts). Every record lives in
// memory, made durable by an append-only journal and compacted into a lowdb JSON snapshot (streamed). A write costs
// the size of the change (one journal line, fsynced), not the size of the store, which is what a plain
// lowdb `db.write()` per request would cost.
//
// Durability: `flush()` resolves once every mutation made before the call is fsynced. The HTTP layer
// awaits it before answering, so an acknowledged write survives a SIGKILL. Concurrent flushes share one
// append and one fsync (group commit).
//
// Domains never touch files: they get collections from `store.collection()` and use only the seam.
import { mkdirSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Low, Memory } from 'lowdb';
import { planQuery, type Collection, type CollectionSchema, type Store, type StoredRecord, type Where } from './collection.js';
import { MemoryIndexes } from './memory-index.js';
import { SnapshotFile, type SnapshotData } from './snapshot-file.js';

export type { Collection, CollectionSchema, Page, Query, Store, StoredRecord, Where } from './collection.js';

type Mutation = [collection: string, id: string, record: StoredRecord | null];

/** Mutations per journal line: a line is one JSON string, so its size stays bounded. */
const LINE_MUTATIONS = 1000;

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

  const db = new Low<SnapshotData>(file ? new SnapshotFile(file) : new Memory<SnapshotData>(), { seq: 0, collections: new Map() });
  await db.read();
  // The snapshot's maps are the live collections from here on (no copy).
  const data = db.data.collections;
  for (const records of data.values()) for (const record of records.values()) Object.freeze(record);
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
  const indexes = new Map<string, MemoryIndexes>();
  const schemas = new Map<string, CollectionSchema<never, string>>();

  const appendBatch = async (batch: Mutation[]) => {
    if (!journal) {
      seq += 1;
      return;
    }
    // A job writing half a million records between two flushes makes one batch: it goes out as lines of a
    // bounded number of mutations (one string per line, never one for the batch), then one fsync. Each
    // line is replayed whole; a batch is a group of independent writes, not a transaction.
    for (let start = 0; start < batch.length; start += LINE_MUTATIONS) {
      seq += 1;
      const line = JSON.stringify({ s: seq, m: batch.slice(start, start + LINE_MUTATIONS) }) + '\n';
      await journal.appendFile(line);
      stats.journalBytes += Buffer.byteLength(line);
    }
    await journal.datasync();
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
      db.data = { seq, collections: data };
      return old;
    });
    await db.write(); // streamed to a temp file, renamed over the old snapshot (snapshot-file.ts)
    stats.snapshotWrites += 1;
    if (rotated) await rm(rotated, { force: true });
  };

  const recordsOf = (name: string) => {
    let records = data.get(name);
    if (!records) data.set(name, (records = new Map()));
    return records;
  };

  /** The one write path: revision, freeze, indexes, journal. Synchronous, so a compare-and-set is atomic. */
  const write = (name: string, before: StoredRecord | undefined, record: StoredRecord): StoredRecord => {
    const stored = Object.freeze({ ...record, rev: (before?.rev ?? 0) + 1 });
    indexes.get(name)?.replace(before, stored);
    recordsOf(name).set(stored.id, stored);
    pending.push([name, stored.id, stored]);
    return stored;
  };

  function openCollection<T extends StoredRecord, F extends string>(name: string, schema?: CollectionSchema<T, F>): Collection<T, F> {
    const records = recordsOf(name);
    const declared = schemas.get(name) ?? { fields: {}, indexes: {} };
    if (schema) {
      Object.assign(declared.fields, schema.fields);
      Object.assign(declared.indexes, schema.indexes);
    }
    schemas.set(name, declared);
    const memory = indexes.get(name) ?? new MemoryIndexes();
    indexes.set(name, memory);
    memory.declare(declared, records.values());
    const typedSchema = declared as unknown as CollectionSchema<T, F>;

    const collection: Collection<T, F> = {
      name,
      get: async (id) => records.get(id) as T | undefined,
      put: async (record) => write(name, records.get(record.id), record) as T,
      async create(record) {
        if (records.has(record.id)) return null;
        return write(name, undefined, record) as T;
      },
      async update(record) {
        const before = records.get(record.id);
        if (!before || before.rev !== record.rev) return null;
        return write(name, before, record) as T;
      },
      // Read, change and write with no await between them: atomic in one process, so no race is lost.
      async modify(id, change) {
        const current = records.get(id) as T | undefined;
        if (!current) return undefined;
        const next = change(current);
        if (next === undefined) return undefined;
        return write(name, current, { ...next, id }) as T;
      },
      async delete(id) {
        const before = records.get(id);
        if (!before) return false;
        memory.replace(before, undefined);
        records.delete(id);
        pending.push([name, id, null]);
        return true;
      },
      async query(query) {
        const plan = planQuery(name, typedSchema, query.where, query.orderBy);
        return memory.page(plan, query) as { items: T[]; total: number; nextCursor: string | null };
      },
      async count(where: Where<F> = {}) {
        if (Object.keys(where).length === 0) return records.size;
        return memory.count(planQuery(name, typedSchema, where));
      },
      async countGroups(where, field) {
        const plan = planQuery(name, typedSchema, where);
        const extract = memory.field(field);
        const groups: Record<string, number> = {};
        for (const record of memory.page(plan, {}).items) {
          const value = extract(record);
          if (value !== null && value !== undefined) groups[String(value)] = (groups[String(value)] ?? 0) + 1;
        }
        return groups;
      },
    };
    return collection;
  }

  return {
    stats,
    collection: openCollection,
    flush,
    compact: () => (compacting ??= compact().finally(() => (compacting = undefined))),
    async clear() {
      for (const [name, records] of data) {
        for (const id of records.keys()) pending.push([name, id, null]);
        records.clear();
        indexes.get(name)?.clear();
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
