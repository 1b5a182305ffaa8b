// Which header key names each column a domain reads, from that column's aliases (normalized headers, as
// table-file.ts writes them), and a row's cell of a column: what an upload's importer asks of a header.

/** Column -> the header key naming it: the first key of the header that is one of the column's aliases. */
export function headerColumns(keys: readonly string[], aliases: Readonly<Record<string, readonly string[]>>): Map<string, string> {
  const columns = new Map<string, string>();
  for (const [column, names] of Object.entries(aliases)) {
    const key = keys.find((k) => names.includes(k));
    if (key) columns.set(column, key);
  }
  return columns;
}

/** A row's cell of `column`, trimmed; '' when the header has no such column. */
export const cellOf = (columns: ReadonlyMap<string, string>, values: Readonly<Record<string, string>>, column: string): string => {
  const key = columns.get(column);
  return key === undefined ? '' : (values[key] ?? '').trim();
};
