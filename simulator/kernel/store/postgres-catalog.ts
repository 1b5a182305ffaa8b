// What the database already has of the collection tables, read once when the store opens: the columns of
// every table of the schema and the names of its indexes. A declaration the database already holds then
// costs no statement. Without it every start ran a schema transaction per collection (lock, CREATE TABLE,
// a column query, a CREATE INDEX per index: some 500 statements), a third of a second of every restart
// after a kill (issue 30 item 4), whatever the data.
//
// The catalog only grows under the store (columns and indexes are added, never dropped), so what it held
// at open stays true; anything it lacks goes through the schema transaction as before, which re-checks
// under the advisory lock (another instance may have added it since).
import type { Sql } from 'postgres';

export interface Catalog {
  /** Whether the table exists with every one of these columns and indexes. */
  holds(table: string, columns: readonly string[], indexes: readonly string[]): boolean;
}

export async function readCatalog(sql: Sql): Promise<Catalog> {
  const [columnRows, indexRows] = await Promise.all([
    sql.unsafe<Array<{ table: string; column: string }>>(
      `SELECT c.relname AS "table", a.attname AS "column" FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')`,
    ),
    sql.unsafe<Array<{ name: string }>>(`SELECT indexname AS "name" FROM pg_indexes WHERE schemaname = current_schema()`),
  ]);
  const columns = new Map<string, Set<string>>();
  for (const { table, column } of columnRows) {
    let set = columns.get(table);
    if (!set) columns.set(table, (set = new Set()));
    set.add(column);
  }
  const indexNames = new Set(indexRows.map((r) => r.name));
  return {
    holds(table, wanted, indexes) {
      const has = columns.get(table);
      return has !== undefined && wanted.every((c) => has.has(c)) && indexes.every((i) => indexNames.has(i));
    },
  };
}
