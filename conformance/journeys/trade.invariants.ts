// The cross-operation invariants of workflow B (spec 1 B, 2.5, 3.2, 4.2, 4.4), as pure functions of what the
// journey read: the session's SKUs are the file's, its issue counts are its issues, and the rows an apply
// wrote to the tenant catalog are what a later whole-catalog screening screens, with the applied HS codes.
import type { Breach } from './steps.js';

type Item = Record<string, unknown>;

/** HS codes compare by their digits (`6109.10.00` and `61091000` are one code). */
const digitsOf = (code: unknown) => String(code ?? '').replace(/\D/g, '');

/**
 * spec 2.5, 4.4: normalization lists every SKU of the file, and a SKU whose row gives an HS code carries it
 * as `providedHs` (what the direct-apply shortcut maps to `hsCode`).
 */
export function skusMatchFile(rows: Array<{ sku: string; hsCode: string }>, skus: Item[]): Breach[] {
  const breaches: Breach[] = [];
  for (const row of rows) {
    const sku = skus.find((s) => s.sku === row.sku);
    if (!sku) breaches.push({ rule: 'feed-skus-complete', message: `SKU ${row.sku} of the file is not among the session's ${skus.length} SKU(s) (spec 4.4)` });
    else if (row.hsCode && digitsOf(sku.providedHs) !== digitsOf(row.hsCode)) breaches.push({ rule: 'feed-provided-hs', message: `SKU ${row.sku} has providedHs ${JSON.stringify(sku.providedHs)}; the file gives ${row.hsCode} (spec 2.5)` });
  }
  return breaches;
}

/** spec 2.5: the session's issueCount and blockingIssueCount count the issues its issue list holds. */
export function issueCountsMatchList(session: Item, issues: Item[]): Breach[] {
  const blocking = issues.filter((issue) => issue.isBlocking === true).length;
  const off: string[] = [];
  if (session.issueCount !== issues.length) off.push(`issueCount ${JSON.stringify(session.issueCount)} where ${issues.length} issue(s) are listed`);
  if (session.blockingIssueCount !== blocking) off.push(`blockingIssueCount ${JSON.stringify(session.blockingIssueCount)} where ${blocking} listed issue(s) are blocking`);
  return off.length ? [{ rule: 'feed-issue-counts', message: `the session says ${off.join('; ')} (spec 2.5)` }] : [];
}

/**
 * spec 3.2 (APPLIED: rows written to the tenant catalog), 4.2 (`skus: null` screens all catalog SKUs), 2.4
 * (`currentHs`): after an apply, a whole-catalog screening has a result for every applied row, screened with
 * the row's HS code.
 */
export function appliedRowsScreened(rows: Array<{ sku: string; hsCode: string }>, results: Item[]): Breach[] {
  const breaches: Breach[] = [];
  for (const row of rows) {
    const result = results.find((r) => r.sku === row.sku);
    if (!result) breaches.push({ rule: 'applied-rows-screened', message: `SKU ${row.sku}, applied to the catalog, has no result after the whole-catalog screening (spec 3.2, 4.2)` });
    else if (digitsOf(result.currentHs) !== digitsOf(row.hsCode)) breaches.push({ rule: 'applied-rows-screened', message: `SKU ${row.sku} was screened with HS ${JSON.stringify(result.currentHs)}, not the applied ${row.hsCode} (spec 2.4, 3.2)` });
  }
  return breaches;
}
