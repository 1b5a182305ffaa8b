// The on-disk embedded store, the default of `npm start` (SIM_DB): LMDB (the `lmdb` package, a B-tree in one
// memory-mapped file, prebuilt for the platform) behind the store seam (collection.ts). A start reads no
// record: opening a 1 GB store costs what opening an empty one does (issue 30: restart time independent of
// the store's size), and memory holds only what is being read or not yet committed.
//
// - Files: the store at `file`, LMDB's reader table at `<file>-lock`.
// - Records: one LMDB database keyed (collection, id), JSON values with the store's revision.
// - Indexes: every declared index is kept as keys (collection, index, key values, order values, id) in byte
//   order (ordered-key.ts), so a page is a range walk; the number of records per index key is kept beside,
//   so a total without residual filters is one read, as in the journal store's buckets.
// - Writes: visible at once (a process-local overlay of the records not yet committed, lmdb-overlay.ts),
//   committed as one LMDB transaction per event-loop turn (or every WRITES_PER_TRANSACTION writes), off the
//   main thread. Compare-and-set reads the overlay and writes with no await between: atomic in the one
//   process that owns the store (the sandbox's store lock). Queries never wait for a commit: they walk the
//   committed index entries and the overlay's together, and counts are kept as written.
// - Durability: `flush()` resolves once every write made before it is committed and flushed to disk; a
//   SIGKILL or a power loss after that loses none of them, and LMDB's copy-on-write pages never leave a
//   torn store.
// - Index declarations are remembered with their definition (keys and order): an index declared differently
//   from what the store holds, or one a previous process did not keep up to date, is rebuilt from the
//   records when declared.
import { existsSync, mkdirSync, openSync, readSync, closeSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import {
  countByValue,
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  nextRevision,
  pageOfMatches,
  planQuery,
  residualMatcher,
  type Collection,
  type CollectionSchema,
  type FieldValue,
  type IndexDeclaration,
  type Page,
  type QueryPlan,
  type Store,
  type StoredRecord,
  type Where,
} from './collection.js';
import { CollectionOverlay, type OverlaySlot } from './lmdb-overlay.js';
import { afterPrefix, encodeKey, keyOf, type KeyPart } from './ordered-key.js';

export interface LmdbStoreOptions {
  /** The store's file (created with its directory when absent). */
  file: string;
  /** Failures no caller awaits (a commit of writes whose callers did not flush). */
  onError?: (error: unknown) => void;
}

/** Writes gathered into one transaction at most: a bulk import commits as it goes, in bounded memory. */
const WRITES_PER_TRANSACTION = 5000;
/** Address space reserved for the file (not disk: the file grows as it fills). lmdb-js otherwise starts at
 *  128 KB and maps the file again at each doubling, keeping the earlier maps, so the pages read through
 *  each map counted in the resident set again: 100,000 shipments (a 275 MB file) showed 680 MB of file pages. */
const MAP_SIZE = 2 ** 36;
/** Committed records kept decoded in memory at most (about 20 MB of typical records). */
const DECODED_RECORDS = 10_000;
/** Batches sent and not yet committed at most before a writer waits: a bulk import faster than LMDB's
 *  writer thread would otherwise pile its uncommitted records up in memory (bench:large peaked near 1 GB). */
const BATCHES_IN_FLIGHT = 2;

type Extract = (record: StoredRecord) => FieldValue;

interface IndexShape {
  name: string;
  keys: Extract[];
  order: Array<{ field: Extract; desc: boolean }>;
  definition: string;
}

interface CollectionState {
  name: string;
  schema: CollectionSchema<never, string>;
  fields: Map<string, Extract>;
  indexes: Map<string, IndexShape>;
  /** Whether indexes a previous process kept, and this one does not declare, were forgotten yet. */
  staleForgotten: boolean;
  /** This collection's writes not yet committed. */
  overlay: CollectionOverlay;
}

interface Change {
  name: string;
  id: string;
  /** The record as committed before this change (the entries to remove). */
  before: StoredRecord | undefined;
  after: StoredRecord | undefined;
  /** The entry keys of `after` in each index, made when written. */
  keys: Map<string, Buffer>;
}

const pendingKey = (name: string, id: string) => `${name}\u0000${id}`;
const recordKey = (name: string, id: string) => keyOf(name, id);
const totalKey = (name: string) => keyOf('#total', name);
const definitionKey = (name: string, index: string) => keyOf('#index', name, index);
const bucketPrefix = (name: string, index: string, keyValues: FieldValue[]) => keyOf(name, index, ...keyValues);
const countKey = (name: string, index: string, keyValues: FieldValue[]) => keyOf('#count', name, index, ...keyValues);

/** The file holds another kind of store: the message says which, and how to start on it. */
export class StoreFormatError extends Error {
  override name = 'StoreFormatError';
}

/** What is wrong with opening `file` as this store, or null: the journal store of earlier versions kept a JSON
 *  snapshot at the same path (and its journal beside it), which LMDB would refuse as an invalid file. */
function foreignStoreAt(file: string): string | null {
  const journal = `${file}.journal`;
  let first = '';
  if (existsSync(file)) {
    const fd = openSync(file, 'r');
    const head = Buffer.alloc(64);
    const read = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    first = head.subarray(0, read).toString('latin1').trimStart()[0] ?? '';
  }
  if (first === '{' || existsSync(journal)) {
    return `${file} holds a journal store (the embedded store of earlier versions): start on it with SIM_STORE=journal:${file}, or move it away for a new store`;
  }
  return null;
}

export async function openLmdbStore(options: LmdbStoreOptions): Promise<Store> {
  const onError = options.onError ?? ((error) => console.error(error));
  const file = path.resolve(options.file);
  const foreign = foreignStoreAt(file);
  if (foreign) throw new StoreFormatError(foreign);
  mkdirSync(path.dirname(file), { recursive: true });
  const env: RootDatabase = open({ path: file, noSubdir: true, maxDbs: 4, mapSize: MAP_SIZE });
  const records: Database<StoredRecord, Buffer> = env.openDB({ name: 'records', keyEncoding: 'binary', encoding: 'json' });
  const entries: Database<string, Buffer> = env.openDB({ name: 'entries', keyEncoding: 'binary', encoding: 'string' });
  const meta: Database<number | string, Buffer> = env.openDB({ name: 'meta', keyEncoding: 'binary', encoding: 'json' });

  const collections = new Map<string, CollectionState>();
  /** Every write not yet sent to LMDB, by collection and id. */
  let pending = new Map<string, Change>();
  let batchNumber = 0;
  let scheduled = false;
  /** The commits of the batches sent and not yet committed, oldest first (never rejecting). */
  const inFlight: Array<Promise<unknown>> = [];
  const stats = { journalBytes: 0, journalWrites: 0, snapshotWrites: 0 };

  /** Committed records read lately, decoded (a read of a hot record, a job polled, a tenant's settings on
   *  every request, costs a Map lookup, not a JSON parse): least recently read first. A write forgets its
   *  record here; until its commit, the overlay answers for it. */
  const decoded = new Map<string, StoredRecord>();
  const readRecord = (name: string, id: string): StoredRecord | undefined => {
    const key = pendingKey(name, id);
    const hit = decoded.get(key);
    if (hit) {
      decoded.delete(key);
      decoded.set(key, hit);
      return hit;
    }
    const record = records.get(recordKey(name, id));
    if (!record) return undefined;
    decoded.set(key, Object.freeze(record));
    if (decoded.size > DECODED_RECORDS) decoded.delete(decoded.keys().next().value!);
    return record;
  };
  const current = (state: CollectionState, id: string): StoredRecord | undefined => {
    const seen = state.overlay.get(id);
    return seen ? seen.record : readRecord(state.name, id);
  };

  const entryKey = (name: string, index: IndexShape, record: StoredRecord) =>
    encodeKey([
      { value: name },
      { value: index.name },
      ...index.keys.map((key): KeyPart => ({ value: key(record) ?? null })),
      ...index.order.map(({ field, desc }): KeyPart => ({ value: field(record) ?? null, desc })),
      { value: record.id },
    ]);
  const keyValuesOf = (index: IndexShape, record: StoredRecord) => index.keys.map((key) => key(record) ?? null);
  const sameValues = (a: FieldValue[], b: FieldValue[]) => a.every((value, i) => value === b[i]);

  /** The number of records per index key as written: LMDB holds it as committed, this map the keys a write
   *  not yet committed changed (with the batch that carries their latest change). */
  const counts = new Map<string, { key: Buffer; n: number; batch: number }>();
  /** The counts the pending writes changed: the batch sends their values. */
  let pendingCounts = new Map<string, { key: Buffer; n: number }>();
  /** Counts are told apart by their key's bytes as a string (a Map compares strings, not Buffers). */
  const countId = (key: Buffer) => key.toString('latin1');
  const countOf = (key: Buffer) => counts.get(countId(key))?.n ?? ((meta.get(key) as number | undefined) ?? 0);
  const addCount = (key: Buffer, delta: number) => {
    const id = countId(key);
    let entry = counts.get(id);
    if (!entry) counts.set(id, (entry = { key, n: (meta.get(key) as number | undefined) ?? 0, batch: batchNumber }));
    entry.n += delta;
    entry.batch = batchNumber;
    pendingCounts.set(id, entry);
  };

  /** Sends the pending writes to LMDB: records, index entries and counts, as asynchronous writes of one event
   *  turn, which LMDB commits as one transaction on its writer thread. They stay visible from memory until
   *  it commits. */
  const dispatch = () => {
    scheduled = false;
    if (pending.size === 0) return;
    const batch = pending;
    const batchCounts = pendingCounts;
    const number = batchNumber++;
    pending = new Map();
    pendingCounts = new Map();
    let last: Promise<unknown> = Promise.resolve();
    for (const change of batch.values()) {
      const state = collections.get(change.name)!;
      forgetStaleIndexes(state);
      for (const index of state.indexes.values()) {
        const before = change.before && entryKey(change.name, index, change.before);
        const after = change.after && (change.keys.get(index.name) ?? entryKey(change.name, index, change.after));
        // Most updates leave most indexes where they were (a status change moves the status indexes only).
        if (before && after && before.equals(after)) continue;
        if (before) entries.remove(before);
        if (after) entries.put(after, change.id);
      }
      last = change.after ? records.put(recordKey(change.name, change.id), change.after) : records.remove(recordKey(change.name, change.id));
    }
    // Every write made so far is in this batch or an earlier one: the counts as written are this batch's.
    for (const { key, n } of batchCounts.values()) last = n > 0 ? meta.put(key, n) : meta.remove(key);
    const commit = last.then(
      () => {
        inFlight.splice(inFlight.indexOf(done), 1);
        stats.journalWrites += 1;
        // Reads from here on must see this commit: a new read snapshot before the overlay lets go of it.
        env.resetReadTxn();
        const ids = new Map<string, string[]>();
        for (const change of batch.values()) {
          let list = ids.get(change.name);
          if (!list) ids.set(change.name, (list = []));
          list.push(change.id);
        }
        for (const [name, list] of ids) collections.get(name)!.overlay.release(list, number);
        // Committed: LMDB holds these counts now, unless a later batch changed them again.
        for (const id of batchCounts.keys()) if (counts.get(id)?.batch === number) counts.delete(id);
        committedBatch = number;
        settleWaiters(number);
        // The writes made while this batch was committing go out together: one transaction (and one flush
        // to disk) for every request that wrote meanwhile, not one each (group commit).
        if (inFlight.length === 0) dispatch();
      },
      (error: unknown) => {
        inFlight.splice(inFlight.indexOf(done), 1);
        onError(error);
        // Done, not committed: a later flush must not wait for it, and one that covers it fails.
        committedBatch = number;
        lastFailure = { batch: number, error };
        settleWaiters(number, error);
        if (inFlight.length === 0) dispatch();
        throw error;
      },
    );
    const done = commit.catch(() => {});
    inFlight.push(done);
  };

  const write = (state: CollectionState, before: StoredRecord | undefined, after: StoredRecord | undefined) => {
    const { name } = state;
    const id = (after ?? before)!.id;
    const keys = new Map<string, Buffer>();
    for (const index of state.indexes.values()) {
      if (after) keys.set(index.name, entryKey(name, index, after));
      const was = before && keyValuesOf(index, before);
      const is = after && keyValuesOf(index, after);
      if (was && is && sameValues(was, is)) continue;
      if (was) addCount(countKey(name, index.name, was), -1);
      if (is) addCount(countKey(name, index.name, is), 1);
    }
    if (!before !== !after) addCount(totalKey(name), after ? 1 : -1);
    state.overlay.set(id, after, batchNumber, keys);
    const key = pendingKey(name, id);
    decoded.delete(key);
    const earlier = pending.get(key);
    pending.set(key, { name, id, before: earlier ? earlier.before : before, after, keys });
    if (pending.size >= WRITES_PER_TRANSACTION) dispatch();
    // While a batch commits, writes gather for the next one, sent when it is committed.
    else if (!scheduled && inFlight.length === 0) {
      scheduled = true;
      setImmediate(dispatch);
    }
    // The write is made (visible, compare-and-set done); its caller waits while LMDB's writer catches up.
    return inFlight.length > BATCHES_IN_FLIGHT ? inFlight[0] : undefined;
  };

  /** The last batch LMDB committed (batches commit in the order sent), and who waits for which batch. */
  let committedBatch = -1;
  let lastFailure: { batch: number; error: unknown } | null = null;
  let waiters: Array<{ batch: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  /** Answers the waiters of batches up to `batch`: committed, or failed with `error`. */
  function settleWaiters(batch: number, error?: unknown) {
    const answered = waiters.filter((waiter) => waiter.batch <= batch);
    waiters = waiters.filter((waiter) => waiter.batch > batch);
    for (const waiter of answered) (error === undefined ? waiter.resolve() : waiter.reject(error));
  }
  /** Resolves once every write made before the call is committed: the pending writes are sent at once
   *  unless a batch is committing, which sends them when done. */
  const settled = (): Promise<void> => {
    const batch = pending.size > 0 ? batchNumber : batchNumber - 1;
    if (lastFailure?.batch === batch) return Promise.reject(lastFailure.error);
    if (committedBatch >= batch) return Promise.resolve();
    if (pending.size > 0 && inFlight.length === 0) dispatch();
    return new Promise((resolve, reject) => waiters.push({ batch, resolve, reject }));
  };

  /** Removes the entries and counts of one index (before a rebuild, or when no longer kept). */
  const dropIndex = (name: string, index: string) => {
    for (const key of entries.getKeys({ start: keyOf(name, index), end: afterPrefix(keyOf(name, index)) })) entries.removeSync(key);
    const countsOfIndex = keyOf('#count', name, index);
    for (const key of meta.getKeys({ start: countsOfIndex, end: afterPrefix(countsOfIndex) })) meta.removeSync(key);
    meta.removeSync(definitionKey(name, index));
  };

  /** A previous process may have written this collection without keeping an index this one does not
   *  declare: such an index is dropped, so a later declaration rebuilds it instead of trusting it. */
  function forgetStaleIndexes(state: CollectionState) {
    if (state.staleForgotten) return;
    state.staleForgotten = true;
    const prefix = keyOf('#index', state.name);
    const declared = [...state.indexes.keys()].map((index) => definitionKey(state.name, index));
    // At once, not with the batch: a declaration later in this turn must find the index forgotten.
    for (const key of [...meta.getKeys({ start: prefix, end: afterPrefix(prefix) })]) {
      if (!declared.some((kept) => kept.equals(key))) meta.removeSync(key);
    }
  }

  /** Builds an index the store does not hold as declared, from the records. A synchronous transaction comes
   *  after the writes already sent to LMDB's writer (a batch in flight, encoded without this index), so it
   *  reads them too; pending writes are sent later with the index in place. */
  const ensureIndex = (name: string, index: IndexShape) => {
    if (meta.get(definitionKey(name, index.name)) === index.definition) return;
    env.transactionSync(() => {
      dropIndex(name, index.name);
      const built = new Map<string, { key: Buffer; n: number }>();
      for (const { value } of records.getRange({ start: keyOf(name), end: afterPrefix(keyOf(name)) })) {
        entries.putSync(entryKey(name, index, value), value.id);
        const key = countKey(name, index.name, keyValuesOf(index, value));
        const entry = built.get(countId(key)) ?? { key, n: 0 };
        entry.n += 1;
        built.set(countId(key), entry);
      }
      for (const { key, n } of built.values()) meta.putSync(key, n);
      meta.putSync(definitionKey(name, index.name), index.definition);
    });
  };

  const declare = (name: string, schema: CollectionSchema<never, string> | undefined): CollectionState => {
    let state = collections.get(name);
    if (!state) {
      state = { name, schema: { fields: {}, indexes: {} }, fields: new Map(), indexes: new Map(), staleForgotten: false, overlay: new CollectionOverlay() };
      collections.set(name, state);
    }
    if (!schema) return state;
    Object.assign(state.schema.fields, schema.fields);
    Object.assign(state.schema.indexes, schema.indexes);
    for (const [field, extract] of Object.entries(schema.fields)) if (!state.fields.has(field)) state.fields.set(field, extract as Extract);
    for (const [indexName, declaration] of Object.entries(schema.indexes) as Array<[string, IndexDeclaration<string>]>) {
      if (state.indexes.has(indexName)) continue;
      const field = (f: string) => state!.fields.get(f)!;
      const index: IndexShape = {
        name: indexName,
        keys: declaration.keys.map(field),
        order: (declaration.order ?? []).map(([f, direction]) => ({ field: field(f), desc: direction === 'desc' })),
        // Names and directions, not the fields' code (a bundle and its sources spell it differently): as on
        // PostgreSQL, where a column keeps the values written, a field that computes something else needs a
        // new name.
        definition: JSON.stringify({ keys: declaration.keys, order: declaration.order ?? [] }),
      };
      // The writes made so far go to LMDB's writer first, without this index: the rebuild, ordered after
      // them, reads them all, and the counts it stores are the counts as written.
      dispatch();
      ensureIndex(name, index);
      state.indexes.set(indexName, index);
      state.overlay.addIndex(indexName, (record) => entryKey(name, index, record));
    }
    return state;
  };

  function openCollection<T extends StoredRecord, F extends string>(name: string, schema?: CollectionSchema<T, F>): Collection<T, F> {
    const state = declare(name, schema as CollectionSchema<never, string> | undefined);
    const typedSchema = state.schema as unknown as CollectionSchema<T, F>;
    const field = (f: string): Extract => {
      const extract = state.fields.get(f);
      if (!extract) throw new Error(`field ${f} is not declared`);
      return extract;
    };
    const matcher = (plan: QueryPlan<string>) => residualMatcher(plan, field);
    const indexOf = (plan: QueryPlan<string>) => state.indexes.get(plan.index)!;

    /** The entries of the plan's index key in walking order, after `from` (a cursor's key): the committed
     *  entries of records no write has changed since (their id), and the overlay's (their record), merged. */
    function* entriesOf(plan: QueryPlan<string>, from?: Buffer): Generator<string | StoredRecord> {
      const prefix = bucketPrefix(name, plan.index, plan.keyValues);
      const end = afterPrefix(prefix);
      const range = plan.reverse ? { start: from ?? end, end: prefix, reverse: true } : { start: from ?? prefix, end };
      const overlay = state.overlay;
      const written: OverlaySlot[] = overlay.size ? overlay.range(plan.index, prefix, end, from, plan.reverse) : [];
      const precedes = (a: Buffer, b: Buffer) => (plan.reverse ? Buffer.compare(a, b) > 0 : Buffer.compare(a, b) < 0);
      let next = 0;
      for (const { key, value: id } of entries.getRange(range)) {
        if (from && key.equals(from)) continue;
        while (next < written.length && precedes(written[next].key, key)) yield written[next++].record;
        if (overlay.size && overlay.get(id)) continue;
        yield id;
      }
      while (next < written.length) yield written[next++].record;
    }
    /** The records of the plan's index key in walking order, after `from`; skipped ones are not read. */
    function* walk(plan: QueryPlan<string>, from?: Buffer, offset = 0, limit?: number): Generator<StoredRecord> {
      let skip = offset;
      let left = limit ?? Number.POSITIVE_INFINITY;
      for (const entry of entriesOf(plan, from)) {
        if (skip > 0) {
          skip -= 1;
          continue;
        }
        if (left <= 0) return;
        const record = typeof entry === 'string' ? readRecord(name, entry) : entry;
        if (!record) continue;
        left -= 1;
        yield record;
      }
    }
    /** The records of the plan's index key that meet its residual conditions, in walking order. */
    function* matching(plan: QueryPlan<string>): Generator<StoredRecord> {
      const matches = matcher(plan);
      for (const record of walk(plan)) if (matches(record)) yield record;
    }
    const cursorKey = (plan: QueryPlan<string>, after: string) => {
      const cursor = decodeCursor(after, plan.order.length);
      if (!cursor) throw new InvalidCursorError('cursor is not one this store issued');
      const index = indexOf(plan);
      return encodeKey([
        { value: name },
        { value: plan.index },
        ...plan.keyValues.map((value): KeyPart => ({ value })),
        ...index.order.map(({ desc }, i): KeyPart => ({ value: cursor.values[i] ?? null, desc })),
        { value: cursor.id },
      ]);
    };
    const bucketCount = (plan: QueryPlan<string>) => countOf(countKey(name, plan.index, plan.keyValues));

    const page = (plan: QueryPlan<string>, query: { limit?: number; offset?: number; after?: string | null }): Page<StoredRecord> => {
      const limit = Math.max(0, query.limit ?? Number.POSITIVE_INFINITY);
      const offset = Math.max(0, query.offset ?? 0);
      const from = query.after ? cursorKey(plan, query.after) : undefined;
      const cursorOf = (record: StoredRecord) => encodeCursor(plan.order.map(([f]) => field(f)(record) ?? null), record.id);
      if (plan.residual.length === 0) {
        // One more than the page tells whether more follow.
        const items = [...walk(plan, from, offset, limit === Number.POSITIVE_INFINITY ? undefined : limit + 1)];
        const more = items.length > limit;
        if (more) items.length = limit;
        return { items, total: bucketCount(plan), nextCursor: more && items.length ? cursorOf(items[items.length - 1]) : null };
      }
      // The total counts every match of the index key, the page only those after the cursor.
      const pastCursor = (record: StoredRecord) => {
        if (!from) return true;
        const order = Buffer.compare(entryKey(name, indexOf(plan), record), from);
        return plan.reverse ? order < 0 : order > 0;
      };
      return pageOfMatches(walk(plan), matcher(plan), pastCursor, { offset, limit }, cursorOf);
    };

    return {
      name,
      get: async (id) => current(state, id) as T | undefined,
      async put(record) {
        const before = current(state, record.id);
        const next = nextRevision(before, record);
        await write(state, before, next);
        return next as T;
      },
      async create(record) {
        if (current(state, record.id)) return null;
        const next = nextRevision(undefined, record);
        await write(state, undefined, next);
        return next as T;
      },
      async update(record) {
        const before = current(state, record.id);
        if (!before || before.rev !== record.rev) return null;
        const next = nextRevision(before, record);
        await write(state, before, next);
        return next as T;
      },
      // Read, change and write with no await between them: atomic in the process that owns the store.
      async modify(id, change) {
        const before = current(state, id) as T | undefined;
        if (!before) return undefined;
        const changed = change(before);
        if (changed === undefined) return undefined;
        const next = nextRevision(before, { ...changed, id });
        await write(state, before, next);
        return next as T;
      },
      async delete(id) {
        const before = current(state, id);
        if (!before) return false;
        await write(state, before, undefined);
        return true;
      },
      async query(query) {
        const plan = planQuery(name, typedSchema, query.where, query.orderBy);
        return page(plan, query) as Page<T>;
      },
      async first(query) {
        const plan = planQuery(name, typedSchema, query.where, query.orderBy);
        for (const record of matching(plan)) return record as T;
        return undefined;
      },
      async count(where: Where<F> = {}) {
        if (Object.keys(where).length === 0) return countOf(totalKey(name));
        const plan = planQuery(name, typedSchema, where);
        if (plan.residual.length === 0) return bucketCount(plan);
        let n = 0;
        for (const record of matching(plan)) n += 1;
        return n;
      },
      async countGroups(where, groupBy) {
        const plan = planQuery(name, typedSchema, where);
        return countByValue(matching(plan), field(groupBy));
      },
    };
  }

  let closed = false;
  return {
    stats,
    collection: openCollection,
    async flush() {
      await settled();
      await env.flushed;
    },
    compact: async () => {},
    async clear() {
      await settled();
      pending = new Map();
      pendingCounts = new Map();
      decoded.clear();
      for (const state of collections.values()) state.overlay.clear();
      counts.clear();
      env.transactionSync(() => {
        records.clearSync();
        entries.clearSync();
        meta.clearSync();
        for (const state of collections.values()) {
          for (const index of state.indexes.values()) meta.putSync(definitionKey(state.name, index.name), index.definition);
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await settled();
      await env.flushed;
      await env.close();
    },
  };
}
