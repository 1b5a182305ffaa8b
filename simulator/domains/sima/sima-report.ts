// GET /api/sima/report (spec 2.4, 4.2): the tenant's current results as a JSON report or as CSV text. The
// spec names `filter` (flagged, covered) and `status` (a string) without saying what they select: the
// sandbox reads `flagged` as AT_RISK or NEEDS_REVIEW, `covered` as an HS code in scope of a measure, and
// `status` as one result status (contracts: SimaReportFilter, SimaReportStatus); both together must hold.
import { stringify } from 'csv-stringify/sync';
import { invalidRequest } from '../../kernel/errors.js';
import type { SimaOutcome } from './screening.js';
import { exposureOf } from './sima-result.response.js';
import { toSimaResultItem, type SimaResultFilter, type SimaResultRecord } from './sima-result.store.js';

const OUTCOMES: readonly SimaOutcome[] = ['AT_RISK', 'NEEDS_REVIEW', 'CLEARED'];
const FLAGGED: readonly SimaOutcome[] = ['AT_RISK', 'NEEDS_REVIEW'];

/** The CSV columns: those of the contract's example (the column set is sandbox-defined). */
export const REPORT_CSV_COLUMNS = ['sku', 'outcome', 'workflowStatus', 'currentHs', 'countryOfOrigin', 'caseNumber', 'adRate', 'cvdRate', 'combinedRate', 'exposureAnnual', 'analysisDate'] as const;

/** A result field the CSV report can carry as a column. */
export type ReportColumn = keyof SimaResultRecord & string;

/**
 * The results a report covers. `status` is matched trimmed and case-insensitively; a value that is no
 * status at all is refused (400 naming `status`) rather than answered with an empty report a typo would hide.
 */
export function reportFilter(filter: 'flagged' | 'covered' | undefined, status: string | undefined): SimaResultFilter {
  let outcomes: readonly SimaOutcome[] | undefined = filter === 'flagged' ? FLAGGED : undefined;
  if (status !== undefined) {
    const wanted = OUTCOMES.find((o) => o === status.trim().toUpperCase());
    if (!wanted) throw invalidRequest(`status must be one of ${OUTCOMES.join(', ')}`, 'status', { allowed: OUTCOMES });
    outcomes = (outcomes ?? OUTCOMES).filter((o) => o === wanted);
  }
  return { ...(outcomes ? { outcomes } : {}), ...(filter === 'covered' ? { hsInScope: true } : {}) };
}

/** spec 2.4 JSON report: every covered result, and the exposure computation of the AT_RISK ones; `configVersion` is the tenant's in force. */
export function jsonReport(records: readonly SimaResultRecord[], meta: { tenantId: string; generatedAt: string; configVersion: string }) {
  const outcomes = records.map(toSimaResultItem);
  const exposures = records.filter((r) => r.outcome === 'AT_RISK').map((r) => exposureOf(r));
  return {
    generatedAt: meta.generatedAt,
    tenantId: meta.tenantId,
    configVersion: meta.configVersion,
    totalOutcomes: outcomes.length,
    totalExposures: exposures.length,
    outcomes,
    exposures,
  };
}

/** A header row, then one row per result; null is an empty cell. Formula-like cells are escaped for spreadsheets. */
export function csvReport(records: readonly SimaResultRecord[], options: { header?: boolean; columns?: readonly ReportColumn[] } = {}): string {
  const columns = options.columns ?? REPORT_CSV_COLUMNS;
  return stringify(
    records.map((r) => Object.fromEntries(columns.map((column) => [column, r[column]]))),
    { header: options.header ?? true, columns: [...columns], escape_formulas: true },
  );
}
