// The trade feed normalizer's rules (spec 2.5, 3.2), each a small named function over one row or the
// header. A blocking issue keeps the session PREVIEW_BLOCKED until the file is fixed and uploaded again; a
// non-blocking one needs an operator's acknowledgement (dashboard only). Issue keys are stable: the same
// file gives the same keys.
import { MAX_SKU_LENGTH } from '../sima/index.js';

/** The columns the normalizer reads (normalized header -> column); any other named column is an attribute. */
const FEED_COLUMN_ALIASES = {
  sku: ['sku', 'skuCode', 'itemSku'],
  productName: ['productName', 'name', 'product', 'title', 'productTitle'],
  providedHs: ['providedHs', 'hsCode', 'hs', 'htsCode', 'hts', 'tariffCode'],
  originCountry: ['originCountry', 'origin', 'countryOfOrigin', 'coo'],
  destinationCountry: ['destinationCountry', 'destination', 'destCountry'],
} as const;

export type FeedColumn = keyof typeof FEED_COLUMN_ALIASES;

export interface RowIssue {
  issueKey: string;
  isBlocking: boolean;
  issueType: string;
  message: string;
  field: string | null;
}

export interface FeedDefaults {
  originCountry: string;
  defaultDestinationCountry: string;
  /** Whether the file has a destination column (a blank cell in it is worth saying; no column is not). */
  hasDestinationColumn: boolean;
  countries: ReadonlySet<string>;
}

const issue = (issueType: string, line: number, isBlocking: boolean, field: string | null, message: string): RowIssue => ({ issueKey: `${issueType}:row:${line}`, issueType, isBlocking, field, message });

/** The column a normalized header names, if it is one the normalizer reads. */
export function feedColumnOf(key: string): FeedColumn | undefined {
  return (Object.keys(FEED_COLUMN_ALIASES) as FeedColumn[]).find((column) => (FEED_COLUMN_ALIASES[column] as readonly string[]).includes(key));
}

/** Header rules: a named column twice (the first is read), a blank header over data (ignored). */
export function headerIssues(keys: readonly string[], labels: readonly string[]): RowIssue[] {
  const issues: RowIssue[] = [];
  const seen = new Map<string, number>();
  keys.forEach((key, i) => {
    const column = feedColumnOf(key) ?? key;
    if (key === '') {
      issues.push({ issueKey: `unnamed_column:col:${i + 1}`, issueType: 'unnamed_column', isBlocking: false, field: null, message: `column ${i + 1} has no header: its values are ignored` });
    } else if (seen.has(column)) {
      issues.push({ issueKey: `duplicate_column:col:${i + 1}`, issueType: 'duplicate_column', isBlocking: false, field: column, message: `column ${i + 1} ("${labels[i]}") repeats column ${seen.get(column)! + 1} (${column}): only the first is read` });
    } else seen.set(column, i);
  });
  return issues;
}

/** sku: required (blocking missing_sku), at most MAX_SKU_LENGTH characters (blocking sku_too_long: the API could not address it). */
export function skuRule(value: string, line: number): { sku: string | null; issues: RowIssue[] } {
  const sku = value.trim();
  if (!sku) return { sku: null, issues: [issue('missing_sku', line, true, 'sku', `row ${line} has no SKU`)] };
  if (sku.length > MAX_SKU_LENGTH) return { sku: null, issues: [issue('sku_too_long', line, true, 'sku', `row ${line} has a SKU of ${sku.length} characters (at most ${MAX_SKU_LENGTH})`)] };
  return { sku, issues: [] };
}

/** productName: required (blocking missing_product_name); surrounding or repeated spaces trimmed (non-blocking name_trimmed). */
export function productNameRule(value: string, line: number): { productName: string | null; issues: RowIssue[] } {
  const productName = value.replace(/\s+/g, ' ').trim();
  if (!productName) return { productName: null, issues: [issue('missing_product_name', line, true, 'productName', `row ${line} has no product name`)] };
  if (productName !== value) return { productName, issues: [issue('name_trimmed', line, false, 'productName', `row ${line}: product name trimmed to "${productName}"`)] };
  return { productName, issues: [] };
}

/** The standard written forms of an HS / tariff code: NNNN.NN, then optional groups, or digits only. */
const STANDARD_HS = /^(?:\d{6,10}|\d{4}\.\d{2}(?:\.\d{2}(?:\.\d{2,4})?|\.\d{4})?)$/;

/** The dotted form of 6 to 10 digits, in groups of two after the HS six: 6109.10, 6109.10.00, 8541.40.60.25. */
export function dottedHs(digits: string): string {
  const groups = [digits.slice(0, 4), digits.slice(4, 6)];
  for (let i = 6; i < digits.length; i += 2) groups.push(digits.slice(i, i + 2));
  return groups.join('.');
}

/**
 * providedHs: blank is no code (the SKU needs classification); anything but digits and separators, or more
 * than 10 digits, is blocking (invalid_hs_code); fewer than 6 digits is ignored with a non-blocking
 * hs_code_incomplete; a code written with spaces, dashes or odd dots is rewritten in the dotted form
 * (non-blocking hs_code_normalized). A standard form is kept as written.
 */
export function hsRule(value: string, line: number): { providedHs: string | null; issues: RowIssue[] } {
  const written = value.trim();
  if (!written) return { providedHs: null, issues: [] };
  if (!/^[\d.\s-]+$/.test(written)) return { providedHs: null, issues: [issue('invalid_hs_code', line, true, 'providedHs', `row ${line}: HS code "${written}" is not a number`)] };
  const digits = written.replace(/\D/g, '');
  if (digits.length > 10) return { providedHs: null, issues: [issue('invalid_hs_code', line, true, 'providedHs', `row ${line}: HS code "${written}" has ${digits.length} digits; at most 10`)] };
  if (digits.length < 6) {
    return { providedHs: null, issues: [issue('hs_code_incomplete', line, false, 'providedHs', `row ${line}: HS code "${written}" has fewer than 6 digits; it is ignored and the SKU needs classification`)] };
  }
  if (STANDARD_HS.test(written)) return { providedHs: written, issues: [] };
  const providedHs = dottedHs(digits);
  return { providedHs, issues: [issue('hs_code_normalized', line, false, 'providedHs', `row ${line}: HS code "${written}" normalized to ${providedHs}`)] };
}

/**
 * originCountry / destinationCountry: blank takes the feed-level default (for the destination, with a
 * non-blocking destination_defaulted when the file has the column); letters are upper-cased; a code not in
 * the ISO 3166-1 list is blocking (invalid_country).
 */
export function countryRule(field: 'originCountry' | 'destinationCountry', value: string, line: number, defaults: FeedDefaults): { country: string | null; issues: RowIssue[] } {
  const code = value.trim().toUpperCase();
  if (!code) {
    if (field === 'originCountry') return { country: defaults.originCountry, issues: [] };
    const issues = defaults.hasDestinationColumn ? [issue('destination_defaulted', line, false, field, `row ${line} has no destination; the feed default ${defaults.defaultDestinationCountry} is used`)] : [];
    return { country: defaults.defaultDestinationCountry, issues };
  }
  if (!defaults.countries.has(code)) return { country: null, issues: [issue('invalid_country', line, true, field, `row ${line}: ${field} "${value.trim()}" is not an ISO 3166-1 alpha-2 country code`)] };
  return { country: code, issues: [] };
}

/** What two rows of one SKU say: equal fingerprints are the same row given twice. */
export const rowFingerprint = (row: { productName: string | null; providedHs: string | null; originCountry: string | null; destinationCountry: string | null }) =>
  JSON.stringify([row.productName, row.providedHs, row.originCountry, row.destinationCountry]);

/** A SKU seen before: the same data again is dropped (non-blocking duplicate_row); other data is blocking (duplicate_sku). */
export function duplicateRule(sku: string, line: number, first: { line: number; fingerprint: string }, fingerprint: string): RowIssue {
  return fingerprint === first.fingerprint
    ? issue('duplicate_row', line, false, 'sku', `row ${line} repeats row ${first.line} (SKU ${sku}, same data): dropped`)
    : { ...issue('duplicate_sku', line, true, 'sku', `SKU ${sku} appears on rows ${first.line} and ${line} with different data`), issueKey: `duplicate_sku:${sku}:${line}` };
}
