// The PostgreSQL store behind the store seam (collection.ts), for several simulator instances sharing one
// database (issue 17; SIM_STORE=postgres://...), or one sandbox's own server (SIM_STORE=local, issue 30:
// a start reads no record, so a large store restarts as fast as an empty one). The journal store stays
// the default of `npm start`.
//
// - Schema: the store's own tables by versioned migrations at open (postgres-migrations.ts); a table per
//   collection shaped by its declarations (postgres-collection.ts); each operation one statement (sql.ts).
// - Durability: every statement commits before its promise resolves (autocommit, synchronous_commit as the
//   server has it: on by default), so an acknowledged write is already durable. `flush()` only waits for
//   writes still in flight when it is called (a caller that did not await its write), like the journal
//   store's flush does; `compact()` has nothing to do.
// - Ordering: string fields sort by the database's collation: use the C collation (a warning at open
//   otherwise; the test server and the cluster create their databases with it).
// - Coordination between instances: `shared` (postgres-shared.ts).
// - Client: `postgres` (porsager) with a pool of `poolSize` connections, plus a pool of as many for the
//   sessions that hold `exclusive()` locks. Statements are prepared once per connection.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Collection, CollectionSchema, Store, StoredRecord } from './collection.js';
import { readCatalog, type Catalog } from './postgres-catalog.js';
import { postgresCollection, TableState, type CollectionContext } from './postgres-collection.js';
import { collationProblem, migrate } from './postgres-migrations.js';
import { postgresShared } from './postgres-shared.js';
import { ident } from './sql.js';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database (query parameters are connection settings). */
  url: string;
  /** This instance's name in leases (default: host, pid and a random suffix). */
  instanceId?: string;
  /** Connections of the main pool (default 10), opened as they are needed. */
  poolSize?: number;
  /** Failures no caller awaits (a collection's schema change) and warnings (a non-C collation). */
  onError?: (error: unknown) => void;
  /** One process owns the database (SIM_STORE=local, behind the sandbox's store lock): no `shared`, so
   *  every lease is this process's and a restart resumes its work at once, as on the journal store,
   *  instead of waiting for the leases of its previous life to expire. */
  ownedByOneProcess?: boolean;
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const onError = options.onError ?? ((error) => console.error(error));
  const instanceId = options.instanceId ?? `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const max = options.poolSize ?? 10;
  // Notices are chatter here (`CREATE TABLE IF NOT EXISTS` skipping a table that exists).
  const settings = { onnotice: () => {}, connection: { application_name: `simulator ${instanceId}`.slice(0, 63) } };
  // The client is loaded here, not when the bundle loads: a start on the journal store never needs it.
  const { default: postgres } = await import('postgres');
  const sql = postgres(options.url, { ...settings, max });
  // The pool of exclusive() locks: only several instances sharing the database coordinate.
  const lockSql = options.ownedByOneProcess ? undefined : postgres(options.url, { ...settings, max });
  const end = (timeout: number) => Promise.all([sql.end({ timeout }), lockSql?.end({ timeout })]);
  let catalog: Catalog;
  try {
    await migrate(sql);
    const problem = await collationProblem(sql);
    if (problem) onError(new Error(problem));
    catalog = await readCatalog(sql);
  } catch (error) {
    await end(1);
    throw error;
  }

  const inflight = new Set<Promise<unknown>>();
  const context: CollectionContext = {
    sql,
    onError,
    catalog,
    track(write) {
      inflight.add(write);
      const done = () => inflight.delete(write);
      write.then(done, done);
      return write;
    },
  };
  const tables = new Map<string, TableState>();

  return {
    shared: lockSql && postgresShared(sql, lockSql, instanceId, onError),
    stats: { journalBytes: 0, journalWrites: 0, snapshotWrites: 0 },
    collection<T extends StoredRecord, F extends string = never>(name: string, schema?: CollectionSchema<T, F>): Collection<T, F> {
      let state = tables.get(name);
      if (!state) tables.set(name, (state = new TableState(name, context)));
      state.declare(schema as unknown as CollectionSchema<StoredRecord, string> | undefined);
      state.collection ??= postgresCollection(state, context);
      return state.collection as unknown as Collection<T, F>;
    },
    async flush() {
      if (inflight.size) await Promise.allSettled([...inflight]);
    },
    async compact() {},
    // Every collection table of the database (another instance's too), with the leases and rate windows;
    // the migrations stay.
    async clear() {
      await Promise.all([...tables.values()].map((state) => state.whenReady()));
      const rows = await sql.unsafe<Array<{ name: string }>>(
        `SELECT tablename AS "name" FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'c\\_%'`,
      );
      const names = [...rows.map((r) => r.name), 'sim_leases', 'sim_rate_windows'];
      await sql.unsafe(`TRUNCATE ${names.map(ident).join(', ')}`);
    },
    async close() {
      await Promise.allSettled([...inflight]);
      await end(5);
    },
  };
}
