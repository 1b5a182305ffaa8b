// The journal store: the embedded default behind the store seam (collection.ts). Every record lives in
// memory, made durable by an append-only journal and compacted into a lowdb JSON snapshot (streamed). A write costs
// the size of the change (one journal line, fsynced), not the size of the store, which is what a plain
// lowdb `db.write()` per request would cost.
//
// Durability: `flush()` resolves once every mutation made before the call is fsynced. The HTTP layer
// awaits it before answering, so an acknowledged write survives a SIGKILL. Concurrent flushes share one
// append and one fsync (group commit).
//
// Crash safety: a SIGKILL at any point of a compaction leaves files the next start loads, and that start
// removes what the crash left behind (crash points listed in journal-files.ts). Restart time stays bounded:
// rotated journals a snapshot covers are deleted unread, and a start that had to replay a long journal or
// a half-finished rotation takes a snapshot at once (in the background).
//
// Domains never touch files: they get collections from `store.collection()` and use only the seam.
import { mkdirSync, existsSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Low, Memory } from 'lowdb';
import { countByValue, nextRevision, planQuery, type Collection, type CollectionSchema, type Store, type StoredRecord, type Where } from './collection.js';
import { cutTornTail, fsyncDir, journalOf, readJournal, recoverJournals, rotatedJournal, rotatedJournals, type Mutation } from './journal-files.js';
import { MemoryIndexes } from './memory-index.js';
import { imageOf, SnapshotFile } from './snapshot-file.js';
import type { SnapshotData } from './snapshot-reader.js';

export type { Store } from './collection.js';

/** Default journal size that triggers a compaction (SIM_COMPACT_AFTER_BYTES overrides it). */
const DEFAULT_COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

/** Mutations per journal line: a line is one JSON document, so its size stays bounded. */
const LINE_MUTATIONS = 1000;
/** Bytes of journal lines gathered into one append: few system calls, bounded memory. */
const APPEND_BYTES = 1 << 20;
/** Journal text turned into bytes at a time: well under V8's large-object size (128 KB), see appendBatch. */
const PIECE_CHARS = 1 << 15;

export interface StoreOptions {
  /** Snapshot path; the journal lives beside it. Omit for a memory-only store (tests). */
  file?: string;
  /** Journal size that triggers a background compaction. */
  compactAfterBytes?: number;
  onError?: (error: unknown) => void;
}

export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const file = options.file ? path.resolve(options.file) : undefined;
  const journalFile = file ? journalOf(file) : undefined;
  const compactAfterBytes = options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES;
  const onError = options.onError ?? ((error) => console.error(error));
  if (file) mkdirSync(path.dirname(file), { recursive: true });

  const snapshotFile = file ? new SnapshotFile(file) : undefined;
  const db = new Low<SnapshotData>(snapshotFile ?? new Memory<SnapshotData>(), { seq: 0, collections: new Map() });
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
  let replayedBytes = 0;
  let halfRotation = false;
  if (file && journalFile) {
    const recovered = recoverJournals(file, seq);
    halfRotation = recovered.halfRotation;
    for (const journal of recovered.replay) {
      const { entries, wholeBytes } = readJournal(journal);
      replayedBytes += wholeBytes;
      for (const entry of entries) {
        if (entry.s <= seq) continue;
        entry.m.forEach(apply);
        seq = entry.s;
      }
      if (journal === journalFile) cutTornTail(journal, wholeBytes);
    }
  }

  const stats = { journalBytes: 0, journalWrites: 0, snapshotWrites: 0 };
  const journalExisted = journalFile !== undefined && existsSync(journalFile);
  let journal: FileHandle | undefined = journalFile ? await open(journalFile, 'a') : undefined;
  if (journal && journalExisted) stats.journalBytes = (await journal.stat()).size;
  else if (file) await fsyncDir(path.dirname(file)); // the new journal's name is durable
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
    // bounded number of mutations, then one fsync. Each line is replayed whole; a batch is a group of
    // independent writes, not a transaction. A line is the text JSON.stringify gives `{ s, m }`, built
    // mutation by mutation and turned into bytes every PIECE_CHARS: a whole line of 1,000 catalog records
    // is ~350 KB, and a string that large is born in V8's old generation, where a 50 MB import's journal
    // text piled up between major GCs (issue 15: peak RSS).
    const pieces: Buffer[] = [];
    let bytes = 0;
    let text = '';
    const cut = () => {
      const piece = Buffer.from(text, 'utf8');
      pieces.push(piece);
      bytes += piece.length;
      text = '';
    };
    for (let start = 0; start < batch.length; start += LINE_MUTATIONS) {
      seq += 1;
      const end = Math.min(batch.length, start + LINE_MUTATIONS);
      text += `{"s":${seq},"m":[`;
      for (let i = start; i < end; i++) {
        text += (i > start ? ',' : '') + JSON.stringify(batch[i]);
        if (text.length >= PIECE_CHARS) cut();
      }
      text += ']}\n';
      if (bytes + text.length >= APPEND_BYTES || end === batch.length) {
        cut();
        const chunk = Buffer.concat(pieces, bytes);
        pieces.length = 0;
        bytes = 0;
        await journal.appendFile(chunk);
        stats.journalBytes += chunk.length;
      }
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

  /** Appends every pending mutation; runs only inside `serialized`. */
  const appendPending = async () => {
    const batch = pending;
    pending = [];
    if (batch.length) await appendBatch(batch);
  };

  const flush = (): Promise<void> => {
    if (pending.length === 0) return tail;
    scheduled ??= serialized(async () => {
      scheduled = undefined;
      await appendPending();
    });
    return scheduled;
  };

  const compact = async () => {
    const image = await serialized(async () => {
      // Memory is always the journal plus `pending`. Taking the image and the pending writes in one
      // synchronous step, then journaling those writes before the rotation, makes the image exactly the
      // journal up to `seq`: a snapshot never holds a write the journal lacks.
      const batch = pending;
      pending = [];
      const taken = imageOf(0, data);
      if (batch.length) await appendBatch(batch);
      const image = { ...taken, seq };
      // An empty journal is not rotated: its name could be that of a rotated journal a crash left at the
      // same seq, still needed until this snapshot is written.
      if (journal && journalFile && stats.journalBytes > 0) {
        await journal.close();
        await rename(journalFile, rotatedJournal(journalFile, seq));
        journal = await open(journalFile, 'a');
        await fsyncDir(path.dirname(journalFile));
        stats.journalBytes = 0;
      }
      return image;
    });
    if (!snapshotFile || !journalFile) return;
    await snapshotFile.writeImage(image); // temp file, fsync, rename, directory fsync (snapshot-file.ts)
    stats.snapshotWrites += 1;
    // The snapshot covers every journal rotated up to its seq: this rotation's, and any a crash left.
    const covered = rotatedJournals(journalFile).filter((r) => r.seq <= image.seq);
    for (const { file: old } of covered) await rm(old, { force: true });
    if (covered.length > 0) await fsyncDir(path.dirname(journalFile));
  };

  const recordsOf = (name: string) => {
    let records = data.get(name);
    if (!records) data.set(name, (records = new Map()));
    return records;
  };

  /** The one write path: revision, freeze, indexes, journal. Synchronous, so a compare-and-set is atomic. */
  const write = (name: string, before: StoredRecord | undefined, record: StoredRecord): StoredRecord => {
    const stored = nextRevision(before, record);
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
      async first(query) {
        return memory.first(planQuery(name, typedSchema, query.where, query.orderBy)) as T | undefined;
      },
      async count(where: Where<F> = {}) {
        if (Object.keys(where).length === 0) return records.size;
        return memory.count(planQuery(name, typedSchema, where));
      },
      async countGroups(where, field) {
        return countByValue(memory.page(planQuery(name, typedSchema, where), {}).items, memory.field(field));
      },
    };
    return collection;
  }

  // Restart time: a start that replayed a half-finished rotation or a journal past the threshold snapshots
  // at once, so the next start reads a snapshot and a short journal.
  if (journalFile && (halfRotation || replayedBytes > compactAfterBytes)) {
    compacting = compact().catch(onError).finally(() => (compacting = undefined));
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
