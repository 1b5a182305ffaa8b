// Each query of the seam as one SQL statement (PostgreSQL dialect): records as `jsonb` in `data`, every
// declared field as a real column named in snake_case, an index per declared index. The journal store does
// not use this; it shows (and its tests check) that every query a domain writes is one statement, and it is
// what a database implementation of the seam runs.
import { decodeCursor, InvalidCursorError, type CollectionSchema, type Condition, type FieldValue, type Query, type QueryPlan } from './collection.js';

export interface SqlStatement {
  text: string;
  values: FieldValue[];
}

export const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** CREATE INDEX statements matching the declared indexes (keys first, then the order, then id). */
export function indexStatements(table: string, schema: CollectionSchema<never, string>): string[] {
  return Object.entries(schema.indexes).map(([name, index]) => {
    const columns = [...index.keys.map((k) => ident(columnOf(k))), ...(index.order ?? []).map(([f, d]) => `${ident(columnOf(f))} ${d.toUpperCase()}`), '"id"'];
    return `CREATE INDEX IF NOT EXISTS ${ident(`${table}_${columnOf(name)}`)} ON ${ident(table)} (${columns.join(', ')})`;
  });
}

class Params {
  readonly values: FieldValue[] = [];
  add(value: FieldValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function conditionSql(field: string, condition: Condition, params: Params): string {
  const column = ident(columnOf(field));
  if (condition === null) return `${column} IS NULL`;
  if (typeof condition !== 'object') return `${column} = ${params.add(condition)}`;
  if ('in' in condition) return condition.in.length ? `${column} IN (${condition.in.map((v) => params.add(v)).join(', ')})` : 'FALSE';
  // NOT IN keeps NULL rows, as the journal store's filter does.
  return condition.notIn.length ? `(${column} IS NULL OR ${column} NOT IN (${condition.notIn.map((v) => params.add(v)).join(', ')}))` : 'TRUE';
}

/** The page and the total in one statement: the total is a scalar subquery over the same filter. */
export function querySql(table: string, plan: QueryPlan<string>, query: Query<string>): SqlStatement {
  const params = new Params();
  const filters = [...plan.keys.map((key, i) => conditionSql(key, plan.keyValues[i], params)), ...plan.residual.map(([field, condition]) => conditionSql(field, condition, params))];
  const where = filters.length ? filters.join(' AND ') : 'TRUE';
  const direction = (d: 'asc' | 'desc') => ((d === 'asc') !== plan.reverse ? 'ASC' : 'DESC');
  const order = [...plan.order.map(([f, d]) => ({ column: ident(columnOf(f)), dir: direction(d) })), { column: '"id"', dir: direction('asc') }];
  let keyset = '';
  if (query.after) {
    const cursor = decodeCursor(query.after, plan.order.length);
    if (!cursor) throw new InvalidCursorError('cursor is not one this store issued');
    const values = [...cursor.values, cursor.id].map((v) => params.add(v));
    // Mixed directions rule out a row comparison: (a > x) OR (a = x AND b < y) OR ...
    const terms = order.map((o, i) => [...order.slice(0, i).map((p, j) => `${p.column} = ${values[j]}`), `${o.column} ${o.dir === 'ASC' ? '>' : '<'} ${values[i]}`].join(' AND '));
    keyset = ` AND (${terms.map((t) => `(${t})`).join(' OR ')})`;
  }
  const limit = query.limit === undefined ? undefined : Math.max(0, Math.trunc(query.limit));
  const offset = Math.max(0, Math.trunc(query.offset ?? 0));
  const paging = `${limit === undefined ? '' : ` LIMIT ${limit}`}${offset ? ` OFFSET ${offset}` : ''}`;
  const text =
    `SELECT "data", (SELECT count(*) FROM ${ident(table)} WHERE ${where}) AS "total" FROM ${ident(table)} WHERE ${where}${keyset}` +
    ` ORDER BY ${order.map((o) => `${o.column} ${o.dir}`).join(', ')}${paging}`;
  return { text, values: params.values };
}

export function countGroupsSql(table: string, plan: QueryPlan<string>, field: string): SqlStatement {
  const params = new Params();
  const filters = [...plan.keys.map((key, i) => conditionSql(key, plan.keyValues[i], params)), ...plan.residual.map(([f, c]) => conditionSql(f, c, params))];
  const column = ident(columnOf(field));
  return {
    text: `SELECT ${column} AS "value", count(*) AS "count" FROM ${ident(table)} WHERE ${filters.length ? filters.join(' AND ') : 'TRUE'} AND ${column} IS NOT NULL GROUP BY ${column}`,
    values: params.values,
  };
}

/** Compare-and-set: the write happens only when the stored revision is the one read. */
export function updateSql(table: string, columns: string[]): string {
  const sets = ['"data" = $2', '"rev" = "rev" + 1', ...columns.map((c, i) => `${ident(columnOf(c))} = $${i + 4}`)];
  return `UPDATE ${ident(table)} SET ${sets.join(', ')} WHERE "id" = $1 AND "rev" = $3 RETURNING "rev"`;
}
