// The journal store's in-memory indexes: per declared index, one bucket per key and the bucket's records
// kept sorted in the index order (id last). A query reads one bucket: a count without residual filters is
// its length, a page is a slice found by position or by binary search for a cursor. This is the work an
// SQL index does, so the journal store and a database answer the same queries with the same cost shape.
import {
  compareValues,
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  pageOfMatches,
  residualMatcher,
  type CollectionSchema,
  type FieldValue,
  type IndexDeclaration,
  type OrderBy,
  type Page,
  type QueryPlan,
  type StoredRecord,
} from './collection.js';

type Extract = (record: StoredRecord) => FieldValue;

interface MemoryIndex {
  keys: Extract[];
  order: Array<{ field: Extract; sign: 1 | -1 }>;
  buckets: Map<string, StoredRecord[]>;
}

const bucketKey = (values: FieldValue[]) => JSON.stringify(values);

/** A bucket's records in walking order: the index order, or its reverse. */
function* walking(bucket: readonly StoredRecord[], reverse: boolean): Generator<StoredRecord> {
  for (let i = 0; i < bucket.length; i++) yield bucket[reverse ? bucket.length - 1 - i : i]!;
}

export class MemoryIndexes {
  private readonly indexes = new Map<string, MemoryIndex>();
  private readonly fields = new Map<string, Extract>();

  /** Declares fields and indexes (new names only) and builds new indexes from the current records. */
  declare(schema: CollectionSchema<never, string>, current: Iterable<StoredRecord>): void {
    const records = [...current];
    for (const [name, extract] of Object.entries(schema.fields)) if (!this.fields.has(name)) this.fields.set(name, extract as Extract);
    for (const [name, declaration] of Object.entries(schema.indexes) as Array<[string, IndexDeclaration<string>]>) {
      if (this.indexes.has(name)) continue;
      const index: MemoryIndex = {
        keys: declaration.keys.map((key) => this.field(key)),
        order: (declaration.order ?? []).map(([field, direction]) => ({ field: this.field(field), sign: direction === 'asc' ? 1 : -1 })),
        buckets: new Map(),
      };
      for (const record of records) this.bucketOf(index, record, true).push(record);
      for (const bucket of index.buckets.values()) bucket.sort((a, b) => this.compare(index, a, b));
      this.indexes.set(name, index);
    }
  }

  field(name: string): Extract {
    const extract = this.fields.get(name);
    if (!extract) throw new Error(`field ${name} is not declared`);
    return extract;
  }

  /** Keeps every index current when a record is replaced (before and after may each be absent). */
  replace(before: StoredRecord | undefined, after: StoredRecord | undefined): void {
    for (const index of this.indexes.values()) {
      if (before) {
        const bucket = this.bucketOf(index, before, false);
        if (bucket) {
          const at = this.position(index, bucket, before);
          if (bucket[at]?.id === before.id) bucket.splice(at, 1);
        }
      }
      if (after) {
        const bucket = this.bucketOf(index, after, true);
        bucket.splice(this.position(index, bucket, after), 0, after);
      }
    }
  }

  clear(): void {
    for (const index of this.indexes.values()) index.buckets.clear();
  }

  /** The records of the plan's bucket, in index order. */
  bucket(plan: QueryPlan<string>): readonly StoredRecord[] {
    return this.indexes.get(plan.index)!.buckets.get(bucketKey(plan.keyValues)) ?? [];
  }

  count(plan: QueryPlan<string>): number {
    const bucket = this.bucket(plan);
    if (plan.residual.length === 0) return bucket.length;
    const matches = this.matcher(plan);
    let count = 0;
    for (const record of bucket) if (matches(record)) count += 1;
    return count;
  }

  page(plan: QueryPlan<string>, options: { limit?: number; offset?: number; after?: string | null }): Page<StoredRecord> {
    const index = this.indexes.get(plan.index)!;
    const bucket = this.bucket(plan);
    // Out-of-range paging (a lenient caller) reads as the nearest valid value, as the SQL rendering does.
    const limit = Math.max(0, options.limit ?? Number.POSITIVE_INFINITY);
    const offset = Math.max(0, options.offset ?? 0);
    const matches = this.matcher(plan);
    // Walking order: the index order, or its reverse.
    const at = (i: number) => bucket[plan.reverse ? bucket.length - 1 - i : i];
    let start = 0;
    if (options.after) {
      const cursor = decodeCursor(options.after, plan.order.length);
      if (!cursor) throw new InvalidCursorError('cursor is not one this store issued');
      start = this.after(index, bucket, cursor, plan.reverse);
    }
    if (plan.residual.length === 0) {
      const items: StoredRecord[] = [];
      const from = start + offset;
      for (let i = from; i < bucket.length && items.length < limit; i++) items.push(at(i));
      const more = from + items.length < bucket.length;
      return { items, total: bucket.length, nextCursor: more && items.length ? this.cursorOf(plan.order, items[items.length - 1]) : null };
    }
    return pageOfMatches(walking(bucket, plan.reverse), matches, (_, position) => position >= start, { offset, limit }, (record) => this.cursorOf(plan.order, record));
  }

  /** The first matching record in the walking order, the walk stopping there (`page` counts every match). */
  first(plan: QueryPlan<string>): StoredRecord | undefined {
    const matches = this.matcher(plan);
    for (const record of walking(this.bucket(plan), plan.reverse)) if (matches(record)) return record;
    return undefined;
  }

  private cursorOf(order: OrderBy<string>, record: StoredRecord): string {
    return encodeCursor(
      order.map(([field]) => this.field(field)(record)),
      record.id,
    );
  }

  private matcher(plan: QueryPlan<string>): (record: StoredRecord) => boolean {
    return residualMatcher(plan, (name) => this.field(name));
  }

  private bucketOf(index: MemoryIndex, record: StoredRecord, create: true): StoredRecord[];
  private bucketOf(index: MemoryIndex, record: StoredRecord, create: false): StoredRecord[] | undefined;
  private bucketOf(index: MemoryIndex, record: StoredRecord, create: boolean): StoredRecord[] | undefined {
    const key = bucketKey(index.keys.map((extract) => extract(record) ?? null));
    let bucket = index.buckets.get(key);
    if (!bucket && create) index.buckets.set(key, (bucket = []));
    return bucket;
  }

  private compareKey(index: MemoryIndex, values: FieldValue[], id: string, record: StoredRecord): number {
    for (const [i, { field, sign }] of index.order.entries()) {
      const c = compareValues(values[i], field(record) ?? null) * sign;
      if (c !== 0) return c;
    }
    return id < record.id ? -1 : id > record.id ? 1 : 0;
  }

  private compare(index: MemoryIndex, a: StoredRecord, b: StoredRecord): number {
    return this.compareKey(
      index,
      index.order.map(({ field }) => field(a) ?? null),
      a.id,
      b,
    );
  }

  /** The first position whose record sorts at or after `record` (binary search). */
  private position(index: MemoryIndex, bucket: StoredRecord[], record: StoredRecord): number {
    const values = index.order.map(({ field }) => field(record) ?? null);
    let lo = 0;
    let hi = bucket.length;
    // Appending in order is the common case (new records are the newest): check the end first.
    if (hi > 0 && this.compareKey(index, values, record.id, bucket[hi - 1]) > 0) return hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareKey(index, values, record.id, bucket[mid]) > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** How many records of the walk come at or before the cursor (the walk resumes after them). */
  private after(index: MemoryIndex, bucket: readonly StoredRecord[], cursor: { values: FieldValue[]; id: string }, reverse: boolean): number {
    let lo = 0;
    let hi = bucket.length;
    // First position in index order strictly after the cursor.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareKey(index, cursor.values, cursor.id, bucket[mid]) >= 0) lo = mid + 1;
      else hi = mid;
    }
    if (!reverse) return lo;
    // Walking backwards: skip the records at or after the cursor in index order.
    const atOrAfter = bucket.length - lo + (lo > 0 && this.compareKey(index, cursor.values, cursor.id, bucket[lo - 1]) === 0 ? 1 : 0);
    return atOrAfter;
  }
}
