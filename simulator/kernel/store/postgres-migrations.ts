// The PostgreSQL store's own schema, created and migrated at start-up: versioned migrations, each applied
// once, in a transaction, under an advisory lock, so N instances starting at once on a fresh database
// neither race nor apply a migration twice. Collection tables are not migrations: a collection's table,
// columns and indexes follow its declaration (postgres-collection.ts).
import type { Sql } from 'postgres';

/** Advisory lock namespaces (the two-int form): schema changes, and the locks `exclusive()` hands out. */
export const LOCK_SCHEMA = 1;
export const LOCK_EXCLUSIVE = 2;

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Append only: a released migration is never edited, a change is a new version. */
const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'leases and rate windows',
    statements: [
      // Leases of work items (a job, a webhook delivery) by kind; expiry in the database's time.
      `CREATE TABLE sim_leases ("kind" text NOT NULL, "id" text NOT NULL, "owner" text NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("kind", "id"))`,
      `CREATE INDEX sim_leases_expiry ON sim_leases ("kind", "expires_at")`,
      // Fixed rate windows: the count of calls in the window starting at start_ms (epoch milliseconds).
      `CREATE TABLE sim_rate_windows ("key" text PRIMARY KEY, "start_ms" bigint NOT NULL, "count" integer NOT NULL)`,
    ],
  },
  {
    version: 2,
    name: 'instance heartbeats',
    statements: [
      // One row per instance: a lease lives while its holder's heartbeat does, so renewing is one row per
      // instance, not one per lease (a webhook retry hours away holds its lease all that time).
      `CREATE TABLE sim_instances ("owner" text PRIMARY KEY, "alive_until" timestamptz NOT NULL)`,
    ],
  },
];

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS sim_schema_migrations ("version" integer PRIMARY KEY, "name" text NOT NULL, "applied_at" timestamptz NOT NULL DEFAULT now())`;

/** Applies the migrations this database lacks; answers the versions applied by this call. */
export async function migrate(sql: Sql, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of migrations) {
    await sql.begin(async (tx) => {
      // The lock comes before the CREATE TABLE IF NOT EXISTS: two sessions creating one table at once can
      // both pass the "not exists" test, and one then fails on the catalog's unique index.
      await tx.unsafe('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LOCK_SCHEMA, 'sim_schema_migrations']);
      await tx.unsafe(MIGRATIONS_TABLE);
      const done = await tx.unsafe('SELECT 1 FROM sim_schema_migrations WHERE "version" = $1', [migration.version]);
      if (done.length) return;
      for (const statement of migration.statements) await tx.unsafe(statement);
      await tx.unsafe('INSERT INTO sim_schema_migrations ("version", "name") VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    });
  }
  return applied;
}

/**
 * Why this database would order strings differently from the journal store, or null. String fields are
 * jsonb, which compares strings with the database's collation: C (or POSIX, C.UTF-8) is code point order.
 * Create the database with `--locale=C` (initdb) or `CREATE DATABASE ... LC_COLLATE 'C' TEMPLATE template0`.
 */
export async function collationProblem(sql: Sql): Promise<string | null> {
  const [row] = await sql.unsafe<Array<{ collate: string; encoding: string }>>(
    'SELECT datcollate AS "collate", pg_encoding_to_char(encoding) AS "encoding" FROM pg_database WHERE datname = current_database()',
  );
  const problems: string[] = [];
  if (!/^(C|POSIX|C\.utf-?8)$/i.test(row.collate)) problems.push(`collation ${row.collate} (string fields sort by it; the journal store sorts by code point: use C)`);
  if (row.encoding !== 'UTF8') problems.push(`encoding ${row.encoding} (records are JSON text: use UTF8)`);
  return problems.length ? `PostgreSQL store: the database has ${problems.join(' and ')}` : null;
}
