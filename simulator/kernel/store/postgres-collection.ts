// One collection of the PostgreSQL store: a table `c_<snake name>` whose shape follows the declarations
// (columns for fields, indexes for indexes), and the seam's operations on it, each one statement (sql.ts).
//
// `store.collection()` is synchronous, the table is not: a declaration queues its schema change (CREATE
// TABLE / ADD COLUMN / CREATE INDEX IF NOT EXISTS, in a transaction under an advisory lock, so instances
// declaring at once do not collide) and every operation of the collection awaits it. A field declared on a
// table that already has rows gets its column filled from the records in that same transaction: the
// column exists filled or not at all.
import type { Sql, TransactionSql } from 'postgres';
import {
  encodeCursor,
  planQuery,
  type Collection,
  type CollectionSchema,
  type FieldValue,
  type Page,
  type StoredRecord,
  type Where,
  UndeclaredQueryError,
} from './collection.js';
import type { Catalog } from './postgres-catalog.js';
import { LOCK_SCHEMA } from './postgres-migrations.js';
import {
  addColumnSql,
  columnOf,
  countGroupsSql,
  countSql,
  createSql,
  createTableSql,
  deleteSql,
  getSql,
  ident,
  indexName,
  indexStatement,
  jsonParam,
  putSql,
  querySql,
  RESERVED_COLUMNS,
  updateSql,
  type SqlValue,
} from './sql.js';

type Extract = (record: StoredRecord) => FieldValue;
type Row = Record<string, unknown> & { rev: number; data: Record<string, unknown> | null };

/** Lost compare-and-set races a `modify` retries before it gives up (each lost race is another's win). */
const MODIFY_ATTEMPTS = 100;
/** Records read and written at a time when a new column is filled. */
const BACKFILL_BATCH = 1000;

const tableOf = (collection: string) => `c_${columnOf(collection).replace(/[^a-z0-9_]/g, '_')}`;

export interface CollectionContext {
  sql: Sql;
  /** Runs a write, counted as in flight until it settles (`flush()` waits for the writes before it). */
  track<R>(write: Promise<R>): Promise<R>;
  onError(error: unknown): void;
  /** What the database held when the store opened: declarations it holds need no schema change. */
  catalog: Catalog;
}

/** A collection's declarations and the schema changes they still need. */
export class TableState {
  readonly table: string;
  readonly declared: CollectionSchema<StoredRecord, string> = { fields: {}, indexes: {} };
  private created = false;
  private readonly pendingFields = new Set<string>();
  private readonly pendingIndexes = new Set<string>();
  private ready: Promise<void> = Promise.resolve();
  private statements?: { fields: string[]; extracts: Extract[]; put: string; create: string; update: string };
  collection?: Collection<StoredRecord, string>;

  constructor(
    readonly name: string,
    private readonly context: CollectionContext,
  ) {
    this.table = tableOf(name);
    this.schedule();
  }

  /** Adds the new fields and indexes of a declaration (declared ones stay as they are). */
  declare(schema: CollectionSchema<StoredRecord, string> | undefined): void {
    if (!schema) return;
    let changed = false;
    for (const [field, extract] of Object.entries(schema.fields)) {
      if (field in this.declared.fields) continue;
      if (RESERVED_COLUMNS.includes(columnOf(field))) throw new Error(`${this.name}: a field may not be named ${field} (the column ${columnOf(field)} holds the record's own)`);
      this.declared.fields[field] = extract;
      this.pendingFields.add(field);
      changed = true;
    }
    for (const [name, index] of Object.entries(schema.indexes)) {
      if (name in this.declared.indexes) continue;
      this.declared.indexes[name] = index;
      this.pendingIndexes.add(name);
      changed = true;
    }
    if (changed) {
      this.statements = undefined;
      this.schedule();
    }
  }

  /**
   * Resolves once the table has every column and index declared so far (a declaration made while waiting
   * is waited for too: the caller's statement names its columns). A failed change is tried once more.
   */
  async whenReady(): Promise<void> {
    let retried = false;
    for (;;) {
      const step = this.ready;
      try {
        await step;
      } catch (error) {
        if (retried) throw error;
        retried = true;
        if (this.ready === step) this.schedule();
        continue;
      }
      if (this.ready === step) return;
    }
  }

  /** The write statements for the fields declared now, built once per declaration. */
  writes() {
    if (!this.statements) {
      const fields = Object.keys(this.declared.fields);
      this.statements = {
        fields,
        extracts: fields.map((f) => this.declared.fields[f] as Extract),
        put: putSql(this.table, fields),
        create: createSql(this.table, fields),
        update: updateSql(this.table, fields),
      };
    }
    return this.statements;
  }

  private schedule(): void {
    const step = this.ready.catch(() => undefined).then(() => this.change());
    this.ready = step;
    step.catch((error) => this.context.onError(error));
  }

  private async change(): Promise<void> {
    const fields = [...this.pendingFields];
    const indexes = [...this.pendingIndexes];
    if (this.created && fields.length === 0 && indexes.length === 0) return;
    const columns = [...RESERVED_COLUMNS, ...fields.map(columnOf)];
    if (this.context.catalog.holds(this.table, columns, indexes.map((i) => indexName(this.table, i)))) {
      this.created = true;
      for (const f of fields) this.pendingFields.delete(f);
      for (const i of indexes) this.pendingIndexes.delete(i);
      return;
    }
    await this.context.sql.begin(async (tx) => {
      await tx.unsafe('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LOCK_SCHEMA, this.table]);
      await tx.unsafe(createTableSql(this.table));
      const existing = await tx.unsafe<Array<{ name: string }>>(
        'SELECT attname AS "name" FROM pg_attribute WHERE attrelid = to_regclass(quote_ident($1)) AND attnum > 0 AND NOT attisdropped',
        [this.table],
      );
      const columns = new Set(existing.map((c) => c.name));
      const added = fields.filter((f) => !columns.has(columnOf(f)));
      for (const field of added) await tx.unsafe(addColumnSql(this.table, field));
      if (added.length) await this.backfill(tx, added);
      for (const index of indexes) await tx.unsafe(indexStatement(this.table, index, this.declared as CollectionSchema<never, string>));
    });
    this.created = true;
    for (const f of fields) this.pendingFields.delete(f);
    for (const i of indexes) this.pendingIndexes.delete(i);
  }

  /** Fills new columns from the records (the extract is JavaScript), in id order, a batch at a time. */
  private async backfill(tx: TransactionSql, fields: string[]): Promise<void> {
    const extracts = fields.map((f) => this.declared.fields[f] as Extract);
    const sets = fields.map((f, i) => `${ident(columnOf(f))} = NULLIF("u"."v"->${i + 1}, 'null'::jsonb)`);
    const update = `UPDATE ${ident(this.table)} AS "t" SET ${sets.join(', ')} FROM jsonb_array_elements($1::text::jsonb) AS "u"("v") WHERE "t"."id" = "u"."v"->>0`;
    let after = '';
    for (;;) {
      const rows = await tx.unsafe<Row[]>(`SELECT "id", "rev", "data" FROM ${ident(this.table)} WHERE "id" > $1 ORDER BY "id" LIMIT ${BACKFILL_BATCH}`, [after]);
      if (rows.length === 0) return;
      const values = rows.map((row) => {
        const record = recordOf(row);
        // JSON null in the batch is SQL NULL in the column (NULLIF above), as jsonParam makes it on a write.
        return [record.id, ...extracts.map((extract) => {
          const value = extract(record) ?? null;
          return jsonParam(value) === null ? null : value;
        })];
      });
      await tx.unsafe(update, [JSON.stringify(values)]);
      after = rows[rows.length - 1].id as string;
    }
  }
}

/** A row's record, frozen, its revision set (the data column holds the record without it). */
function recordOf(row: Row): StoredRecord {
  const record = row.data as unknown as StoredRecord;
  record.rev = row.rev;
  return Object.freeze(record);
}

export function postgresCollection<T extends StoredRecord, F extends string>(state: TableState, context: CollectionContext): Collection<T, F> {
  const { sql, track } = context;
  const table = state.table;
  const schema = state.declared as unknown as CollectionSchema<T, F>;
  const run = async <R extends readonly unknown[]>(text: string, values: SqlValue[]): Promise<R> => {
    await state.whenReady();
    return (await sql.unsafe(text, values, { prepare: true })) as unknown as R;
  };

  /** $1 id, $2 the record's JSON (its revision is the store's, not data), then $first.. the field columns. */
  const writeValues = (record: StoredRecord, extracts: Extract[], rev?: SqlValue): SqlValue[] => [
    record.id,
    JSON.stringify({ ...record, rev: undefined }),
    ...(rev === undefined ? [] : [rev]),
    ...extracts.map((extract) => jsonParam(extract(record) ?? null)),
  ];
  /** The stored record as the journal store hands it out: the written object, its new revision, frozen. */
  const stored = (record: StoredRecord, rev: number): T => {
    const result: StoredRecord = { rev: 0, ...record };
    result.rev = rev;
    return Object.freeze(result) as T;
  };

  /** One write statement over the fields declared now; its rows (none when a create or update did not write). */
  const write = async (kind: 'put' | 'create' | 'update', record: StoredRecord, rev?: SqlValue) => {
    await state.whenReady();
    const statements = state.writes();
    return sql.unsafe<Array<{ rev: number }>>(statements[kind], writeValues(record, statements.extracts, rev), { prepare: true });
  };
  const storedIfWritten = (record: T, rows: Array<{ rev: number }>): T | null => (rows.length ? stored(record, rows[0].rev) : null);

  const update = async (record: T): Promise<T | null> => storedIfWritten(record, await write('update', record, record.rev ?? null));

  const get = async (id: string): Promise<T | undefined> => {
    const rows = await run<Row[]>(getSql(table), [id]);
    return rows.length ? (recordOf(rows[0]) as T) : undefined;
  };

  return {
    name: state.name,
    get,
    put: (record) => track(write('put', record).then(([row]) => stored(record, row.rev))),
    create: (record) => track(write('create', record).then((rows) => storedIfWritten(record, rows))),
    update: (record) => track(update(record)),
    // Another instance may write between the read and the write: the compare-and-set then fails and the
    // change is applied again to the record that won.
    modify: (id, change) =>
      track(
        (async () => {
          for (let attempt = 1; attempt <= MODIFY_ATTEMPTS; attempt++) {
            const current = await get(id);
            if (!current) return undefined;
            const next = change(current);
            if (next === undefined) return undefined;
            const written = await update({ ...next, id, rev: current.rev });
            if (written) return written;
            // Many writers on one record: spread the retries a little so they stop colliding in lockstep.
            if (attempt > 5) await new Promise((resolve) => setTimeout(resolve, Math.random() * attempt));
          }
          throw new Error(`${state.name}/${id}: modify lost ${MODIFY_ATTEMPTS} compare-and-set races in a row`);
        })(),
      ),
    delete: (id) => track(run<Row[]>(deleteSql(table), [id]).then((result) => (result as unknown as { count: number }).count === 1)),
    async query(query): Promise<Page<T>> {
      const plan = planQuery(state.name, schema, query.where, query.orderBy);
      const statement = querySql(table, plan, query);
      const rows = await run<Row[]>(statement.text, statement.values);
      const total = (rows[0]?.sim_total as number) ?? 0;
      const page = rows.filter((row) => row.data !== null);
      const limit = query.limit === undefined ? undefined : Math.max(0, Math.trunc(query.limit));
      const more = limit !== undefined && page.length > limit;
      if (more) page.length = limit;
      const last = page[page.length - 1];
      const nextCursor = more && last ? encodeCursor(plan.order.map(([field]) => (last[columnOf(field)] ?? null) as FieldValue), last.id as string) : null;
      return { items: page.map((row) => recordOf(row) as T), total, nextCursor };
    },
    async first(query) {
      const plan = planQuery(state.name, schema, query.where, query.orderBy);
      const statement = querySql(table, plan, { ...query, limit: 1 }, { total: false });
      const [row] = await run<Row[]>(statement.text, statement.values);
      return row ? (recordOf(row) as T) : undefined;
    },
    async count(where: Where<F> = {}) {
      const plan = Object.keys(where).length === 0 ? undefined : planQuery(state.name, schema, where);
      const statement = countSql(table, plan);
      const [row] = await run<Array<{ total: number }>>(statement.text, statement.values);
      return row.total;
    },
    async countGroups(where, field) {
      if (!(field in schema.fields)) throw new UndeclaredQueryError(`${state.name}: field ${field} is not declared`);
      const statement = countGroupsSql(table, planQuery(state.name, schema, where), field);
      const rows = await run<Array<{ value: FieldValue; count: number }>>(statement.text, statement.values);
      const groups: Record<string, number> = {};
      for (const row of rows) groups[String(row.value)] = row.count;
      return groups;
    },
  };
}
