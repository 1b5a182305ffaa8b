// One string instance per distinct value of a column, for the rows a large upload keeps in the store
// (issue 15: a 50 MB upload under 600 MB peak RSS). A parser makes a new string for every cell, so half a
// million catalog rows hold half a million copies of `CN`, `CAD` or `9401.61.10.90`: ~100 bytes a row
// the store keeps until the records go. Columns such as a country, a currency, a material or an HS code
// repeat, and sharing their strings changes no value. The table is bounded: once it holds `limit` values
// (a column of mostly distinct values), later new values pass through unshared.

export interface InternedValues {
  /** The first equal string this table was given, else `value` itself (null passes through). */
  of<V extends string | null>(value: V): V;
  /**
   * Puts the table's string in place of each string value of `record` under `keys` (other values, null
   * or absent, stay as they are) and answers the record: the columns of a row kept in the store.
   */
  fields<T extends object>(record: T, keys: readonly (keyof T)[]): T;
  /** Distinct values remembered (at most the limit). */
  size(): number;
}

export function internedValues(limit = 4096): InternedValues {
  const table = new Map<string, string>();
  const of = <V extends string | null>(value: V): V => {
    if (value === null) return value;
    const known = table.get(value);
    if (known !== undefined) return known as V;
    if (table.size < limit) table.set(value, value);
    return value;
  };
  return {
    of,
    fields(record, keys) {
      const fields = record as Record<keyof typeof record, unknown>;
      for (const key of keys) if (typeof fields[key] === 'string') fields[key] = of(fields[key] as string);
      return record;
    },
    size: () => table.size,
  };
}

export interface InternedRecords {
  /** A frozen record equal to `record` (same keys in the same order, same values): shared by every equal one. */
  of(record: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
  size(): number;
}

/**
 * The same for small string records, such as a feed row's extra columns (`{ material: 'cotton' }`): rows
 * with equal extras share one frozen object. Frozen, so no holder can change what the others see.
 */
export function internedRecords(limit = 4096): InternedRecords {
  const table = new Map<string, Readonly<Record<string, string>>>();
  const values = internedValues(limit);
  return {
    of(record) {
      const key = JSON.stringify(record);
      const known = table.get(key);
      if (known) return known;
      const shared = Object.freeze(Object.fromEntries(Object.entries(record).map(([k, v]) => [k, values.of(v)])));
      if (table.size < limit) table.set(key, shared);
      return shared;
    },
    size: () => table.size,
  };
}
