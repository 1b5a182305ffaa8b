// Each operation of the seam as one SQL statement (PostgreSQL dialect), run by the PostgreSQL store
// (postgres-store.ts): a table per collection with the record as `jsonb` in `data`, the store's revision in
// `rev`, every declared field as a real column named in snake_case, an index per declared index.
//
// Field columns are `jsonb`, since a field's type is not declared (string | number | boolean | null). jsonb
// compares two values of one type as the journal store does (compareValues in collection.ts): numbers
// numerically, false before true, strings by the database's collation (use the C collation: code point
// order, which is the journal store's code unit order except for characters outside the BMP against
// U+E000..U+FFFF). A null field is SQL NULL (never JSON null), so it sorts last ascending and first
// descending, as compareValues does. Values of mixed types in one field sort differently (jsonb: boolean >
// number > string); the domains' fields each hold one type.
//
// Parameters for field columns are JSON text cast to jsonb (`$n::text::jsonb`): the driver then sends text
// and never has to guess a type (a boolean bound where jsonb is expected has no cast).
import { createHash } from 'node:crypto';
import { decodeCursor, InvalidCursorError, type CollectionSchema, type Condition, type FieldValue, type Query, type QueryPlan } from './collection.js';

export type SqlValue = string | number | null;

export interface SqlStatement {
  text: string;
  values: SqlValue[];
}

export const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** Columns every collection table has: a field may not take their names. */
export const RESERVED_COLUMNS = ['id', 'rev', 'data'];

/** A field value as a parameter: JSON text, or NULL for null (and for what JSON has no number for). */
export const jsonParam = (value: FieldValue | undefined): string | null =>
  value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value)) ? null : JSON.stringify(value);

/** The record id is `text COLLATE "C"`: ids tie-break in code point order whatever the database collation. */
export const createTableSql = (table: string) =>
  `CREATE TABLE IF NOT EXISTS ${ident(table)} ("id" text COLLATE "C" PRIMARY KEY, "rev" integer NOT NULL, "data" jsonb NOT NULL)`;

export const addColumnSql = (table: string, field: string) => `ALTER TABLE ${ident(table)} ADD COLUMN IF NOT EXISTS ${ident(columnOf(field))} jsonb`;

/** CREATE INDEX statements matching the declared indexes (keys first, then the order, then id). */
export function indexStatements(table: string, schema: CollectionSchema<never, string>): string[] {
  return Object.keys(schema.indexes).map((name) => indexStatement(table, name, schema));
}

export function indexStatement(table: string, name: string, schema: CollectionSchema<never, string>): string {
  const index = schema.indexes[name];
  const columns = [...index.keys.map((k) => ident(columnOf(k))), ...(index.order ?? []).map(([f, d]) => `${ident(columnOf(f))} ${d.toUpperCase()}`), '"id"'];
  return `CREATE INDEX IF NOT EXISTS ${ident(indexName(table, name))} ON ${ident(table)} (${columns.join(', ')})`;
}

/** PostgreSQL cuts names at 63 bytes, and IF NOT EXISTS would then skip a second index cut to the same name. */
export function indexName(table: string, index: string): string {
  const name = `${table}_${columnOf(index)}`;
  if (Buffer.byteLength(name) <= 63) return name;
  return `${name.slice(0, 48)}_${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

class Params {
  readonly values: SqlValue[] = [];
  add(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** A field value compared with a jsonb column (never null: callers test nulls with IS NULL). */
  json(value: FieldValue): string {
    return `${this.add(jsonParam(value))}::text::jsonb`;
  }
}

const isNull = (value: FieldValue | undefined) => jsonParam(value ?? null) === null;

/** A condition as the journal store's filter (`meets`) reads it, nulls included (SQL's IN never matches NULL). */
function conditionSql(field: string, condition: Condition, params: Params): string {
  const column = ident(columnOf(field));
  if (condition === null || typeof condition !== 'object') return isNull(condition) ? `${column} IS NULL` : `${column} = ${params.json(condition)}`;
  const listed = 'in' in condition ? condition.in : condition.notIn;
  const values = listed.filter((v) => !isNull(v));
  const withNull = values.length < listed.length;
  const list = values.length ? `${column} IN (${values.map((v) => params.json(v)).join(', ')})` : 'FALSE';
  if ('in' in condition) return withNull ? `(${list} OR ${column} IS NULL)` : list;
  // NOT IN keeps NULL rows unless null is excluded, as the journal store's filter does.
  return withNull ? `(${column} IS NOT NULL AND NOT (${list}))` : `(${column} IS NULL OR NOT (${list}))`;
}

function whereSql(plan: QueryPlan<string>, params: Params): string {
  const filters = [...plan.keys.map((key, i) => conditionSql(key, plan.keyValues[i], params)), ...plan.residual.map(([field, condition]) => conditionSql(field, condition, params))];
  return filters.length ? filters.join(' AND ') : 'TRUE';
}

/**
 * A page and the total before paging in one statement: the count is a one-row subquery the page joins
 * laterally, so an empty page still answers the total (one row with a null page). The page reads one row
 * past `limit`: when it comes back, more records follow and the page's last record makes the cursor (from
 * its order columns, which the page answers with the record).
 */
export function querySql(table: string, plan: QueryPlan<string>, query: Query<string>, options: { total: boolean } = { total: true }): SqlStatement {
  const params = new Params();
  const where = whereSql(plan, params);
  const direction = (d: 'asc' | 'desc') => ((d === 'asc') !== plan.reverse ? 'ASC' : 'DESC');
  const order = [...plan.order.map(([f, d]) => ({ column: ident(columnOf(f)), dir: direction(d) })), { column: '"id"', dir: direction('asc') }];
  let keyset = '';
  if (query.after) {
    const cursor = decodeCursor(query.after, plan.order.length);
    if (!cursor) throw new InvalidCursorError('cursor is not one this store issued');
    const values = [...cursor.values, cursor.id];
    const isId = (i: number) => i === order.length - 1;
    const placeholders = values.map((v, i) => (isId(i) ? params.add(v as string) : isNull(v) ? null : params.json(v)));
    const equal = (i: number) => (placeholders[i] === null ? `${order[i].column} IS NULL` : `${order[i].column} = ${placeholders[i]}`);
    // Past the cursor's value in the walking order: nulls come last ascending and first descending.
    const beyond = (i: number) => {
      const { column, dir } = order[i];
      const value = placeholders[i];
      if (isId(i)) return `${column} ${dir === 'ASC' ? '>' : '<'} ${value}`;
      if (dir === 'ASC') return value === null ? 'FALSE' : `(${column} > ${value} OR ${column} IS NULL)`;
      return value === null ? `${column} IS NOT NULL` : `${column} < ${value}`;
    };
    // Mixed directions rule out a row comparison: (a > x) OR (a = x AND b < y) OR ...
    const terms = order.map((_, i) => [...order.slice(0, i).map((__, j) => equal(j)), beyond(i)].join(' AND '));
    keyset = ` AND (${terms.map((t) => `(${t})`).join(' OR ')})`;
  }
  const limit = query.limit === undefined ? undefined : Math.max(0, Math.trunc(query.limit));
  const offset = Math.max(0, Math.trunc(query.offset ?? 0));
  const paging = `${limit === undefined ? '' : ` LIMIT ${params.add(limit + 1)}`}${offset ? ` OFFSET ${params.add(offset)}` : ''}`;
  const orderColumns = [...new Set(order.map((o) => o.column))];
  const pageSql =
    `SELECT "rev", "data", ${orderColumns.filter((c) => c !== '"id"').map((c) => `${c}, `).join('')}"id" FROM ${ident(table)}` +
    ` WHERE ${where}${keyset} ORDER BY ${order.map((o) => `${o.column} ${o.dir}`).join(', ')}${paging}`;
  // Without the total: the page alone, an index walk that stops at its limit.
  if (!options.total) return { text: pageSql, values: params.values };
  const text =
    `SELECT "c"."sim_total", "p".* FROM (SELECT count(*)::int AS "sim_total" FROM ${ident(table)} WHERE ${where}) AS "c"` +
    ` LEFT JOIN LATERAL (${pageSql}) AS "p" ON TRUE` +
    ` ORDER BY ${order.map((o) => `"p".${o.column} ${o.dir}`).join(', ')}`;
  return { text, values: params.values };
}

export function countSql(table: string, plan: QueryPlan<string> | undefined): SqlStatement {
  const params = new Params();
  return { text: `SELECT count(*)::int AS "total" FROM ${ident(table)}${plan ? ` WHERE ${whereSql(plan, params)}` : ''}`, values: params.values };
}

export function countGroupsSql(table: string, plan: QueryPlan<string>, field: string): SqlStatement {
  const params = new Params();
  const where = whereSql(plan, params);
  const column = ident(columnOf(field));
  return {
    text: `SELECT ${column} AS "value", count(*)::int AS "count" FROM ${ident(table)} WHERE ${where} AND ${column} IS NOT NULL GROUP BY ${column}`,
    values: params.values,
  };
}

export const getSql = (table: string) => `SELECT "rev", "data" FROM ${ident(table)} WHERE "id" = $1`;
export const deleteSql = (table: string) => `DELETE FROM ${ident(table)} WHERE "id" = $1`;

/** Parameters of every write: $1 id, $2 the record's JSON, $3 (update only: the revision read), then the fields. */
const fieldPlaceholders = (fields: string[], first: number) => fields.map((_, i) => `$${i + first}::text::jsonb`);

/** A new row with revision 1; what a conflict on the id does follows it. */
const insertSql = (table: string, fields: string[]) =>
  `INSERT INTO ${ident(table)} ("id", "rev", "data"${fields.map((f) => `, ${ident(columnOf(f))}`).join('')}) VALUES ($1, 1, $2::text::jsonb${fieldPlaceholders(fields, 3).map((p) => `, ${p}`).join('')})`;

/** Last write wins: inserts with revision 1, or replaces and counts the revision up. */
export function putSql(table: string, fields: string[]): string {
  const columns = fields.map((f) => ident(columnOf(f)));
  return `${insertSql(table, fields)} ON CONFLICT ("id") DO UPDATE SET "rev" = ${ident(table)}."rev" + 1, "data" = EXCLUDED."data"${columns.map((c) => `, ${c} = EXCLUDED.${c}`).join('')} RETURNING "rev"`;
}

/** Inserts only: no row comes back when the id exists. */
export function createSql(table: string, fields: string[]): string {
  return `${insertSql(table, fields)} ON CONFLICT ("id") DO NOTHING RETURNING "rev"`;
}

/** Compare-and-set: the write happens only when the stored revision is the one read. */
export function updateSql(table: string, fields: string[]): string {
  const sets = ['"data" = $2::text::jsonb', '"rev" = "rev" + 1', ...fields.map((f, i) => `${ident(columnOf(f))} = $${i + 4}::text::jsonb`)];
  return `UPDATE ${ident(table)} SET ${sets.join(', ')} WHERE "id" = $1 AND "rev" = $3 RETURNING "rev"`;
}
