// Locating data in bodies whose shape the spec leaves open. Spec 4.4 says "SKU page" and "issue page" and
// spec 4.5 "finding page with status counts; response field list: not shown": the keys `skus`, `issues`,
// `findings`, `statusCounts` and their shapes are the contract's choices (contracts/README.md decisions 14,
// 16; marked x-sandbox-defined). The checks find
// the data by what it is, whatever the deployment named it, in every profile: our key first, so our sandbox
// is read as before, and in the simulator profile the response check (contracts/lib/response-check.ts, the
// full contract) still fails a sandbox that renamed or reshaped them.
import { isObject } from '../../contracts/lib/bundle.js';

/** The rows of a page: an array of objects (an empty array counts). */
const isRows = (value: unknown): value is Array<Record<string, unknown>> => Array.isArray(value) && value.every(isObject);

/**
 * The items of a page: `body[key]` when it holds rows, else the page's one property holding rows (the one
 * non-empty one when several do; none, or several non-empty: undefined), else the body itself when it is an
 * array of rows.
 */
export function pageItems(body: unknown, key: string): Array<Record<string, unknown>> | undefined {
  if (isObject(body) && isRows(body[key])) return body[key] as Array<Record<string, unknown>>;
  if (isRows(body)) return body;
  if (!isObject(body)) return undefined;
  const candidates = (Object.values(body) as unknown[]).filter(isRows);
  const nonEmpty = candidates.filter((rows) => rows.length > 0);
  if (nonEmpty.length === 1) return nonEmpty[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * Counts per status, from a page "with status counts" (spec 4.5), keyed by the spec's status names: a map of
 * status to count (under `key` or any property, also nested one level as `{ counts: {...} }`; status names
 * matched without regard to case), or an array of records each naming one status and one count.
 */
export function statusCounts(body: unknown, statuses: readonly string[], key: string): Record<string, number> | undefined {
  const named = (text: string) => statuses.find((s) => s.toLowerCase() === text.toLowerCase());
  const asMap = (value: unknown): Record<string, number> | undefined => {
    if (!isObject(value)) return undefined;
    const entries = Object.entries(value).flatMap(([name, count]) => (named(name) !== undefined && Number.isInteger(count) ? [[named(name)!, count as number] as const] : []));
    return entries.length ? (Object.fromEntries(entries) as Record<string, number>) : undefined;
  };
  const asRows = (value: unknown): Record<string, number> | undefined => {
    if (!isRows(value) || !value.length) return undefined;
    const out: Record<string, number> = {};
    for (const row of value) {
      // A count row is small: one status name and one integer (a finding row, which also names its status
      // and carries amounts, is not one).
      const values = Object.values(row);
      const names = values.filter((v): v is string => typeof v === 'string' && named(v) !== undefined);
      const counts = values.filter((v): v is number => Number.isInteger(v));
      if (values.length > 3 || names.length !== 1 || counts.length !== 1) return undefined;
      out[named(names[0])!] = counts[0];
    }
    return out;
  };
  if (!isObject(body)) return undefined;
  for (const value of [body[key], ...Object.values(body)]) {
    const found = asMap(value) ?? asRows(value) ?? (isObject(value) ? Object.values(value).map((inner) => asMap(inner) ?? asRows(inner)).find(Boolean) : undefined);
    if (found) return found;
  }
  return undefined;
}

/**
 * A finding's identifier. Spec 2.6 names the finding fields it fixes (workflowStatus, claimEligibility,
 * claimBlockerReason, actionability, headline) and says "Remaining fields of the finding record: not shown":
 * the record's `id` is the contract's name (marked x-sandbox-defined). Our name first, then the spec's own
 * name for the identifier (the path parameter `:findingId` of spec 4.5, and `findingId` in 2.7's details).
 */
export function findingIdOf(row: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'findingId']) if (typeof row[key] === 'string' && row[key]) return row[key] as string;
  return undefined;
}

/** Finding rows with their identifier under `id` (findingIdOf), whatever the deployment named it; rows are copied, never changed. */
export const withFindingIds = <T extends Record<string, unknown>>(rows: readonly T[]): Array<T & { id: string }> =>
  rows.map((row) => (typeof row.id === 'string' ? (row as T & { id: string }) : { ...row, id: findingIdOf(row) ?? String(row.id) }));

/**
 * Whether an entry of an error's details names `value` (a finding, a submission). Spec 4.5 rules 2-3 say the
 * `invalidFindingStates` and `duplicateLinks` arrays "name" each finding and the conflicting submission, not
 * under which keys (the contract's `findingId`, `submissionId` are marked x-sandbox-defined): any of the
 * entry's values, one level deep.
 */
export function namesValue(entry: unknown, value: string): boolean {
  if (!isObject(entry)) return false;
  return Object.values(entry).some((v) => v === value || (isObject(v) && Object.values(v).includes(value)));
}
