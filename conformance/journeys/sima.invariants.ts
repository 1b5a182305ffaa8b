// The cross-operation invariants of workflow A (spec 1 A, 2.2, 2.4, 4.2), as pure functions of what the
// journey read. Results are the tenant's latest result per SKU (spec 4.2), so equalities between a job, the
// results, the summary and the report hold only in a tenant where nothing else screens (a fresh tenant of the
// control API); the journey calls the exact ones only there.
import type { Breach } from './steps.js';

export interface ResultsRead {
  items: Array<{ sku?: unknown; outcome?: unknown }>;
  /** `total` of the first page. */
  total: number;
  /** Every result was read. */
  complete: boolean;
}

export interface JobRead {
  reconciliation?: { skusScreened?: unknown };
  outcomes?: { atRisk?: unknown; needsReview?: unknown; cleared?: unknown; falsePositive?: unknown };
}

export interface SummaryRead {
  totalSkus?: unknown;
  atRisk?: unknown;
  needsReview?: unknown;
}

const count = (results: ResultsRead, outcome: string) => results.items.filter((item) => item.outcome === outcome).length;
const int = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/**
 * spec 2.2, 4.2: in a tenant whose only screening is this job, the results are exactly what it wrote: one per
 * screened SKU, and its outcome counts are the results' counts by outcome. `falsePositive` is no outcome of a
 * result item (spec 2.4): with any, the mapping is not certain and only the total is compared.
 */
export function jobMatchesResults(job: JobRead, results: ResultsRead): Breach[] {
  const screened = int(job.reconciliation?.skusScreened);
  if (screened === undefined) return [{ rule: 'job-reconciliation', message: `the COMPLETED job has no integer reconciliation.skusScreened (spec 2.2)` }];
  const breaches: Breach[] = [];
  if (results.total !== screened) breaches.push({ rule: 'journey-results-match-job', message: `the job's reconciliation.skusScreened is ${screened}, but the results list ${results.total} (spec 2.2, 4.2: one latest result per screened SKU)` });
  const outcomes = job.outcomes ?? {};
  if (int(outcomes.falsePositive) !== 0 || !results.complete) return breaches;
  const pairs = [['atRisk', 'AT_RISK'], ['needsReview', 'NEEDS_REVIEW'], ['cleared', 'CLEARED']] as const;
  const off = pairs.filter(([field, outcome]) => int(outcomes[field]) !== count(results, outcome));
  if (off.length) {
    breaches.push({
      rule: 'journey-outcomes-match-results',
      message: `the job reports ${off.map(([field, outcome]) => `outcomes.${field} = ${JSON.stringify(outcomes[field])} where the results hold ${count(results, outcome)} ${outcome}`).join('; ')} (spec 2.2, 2.4)`,
    });
  }
  return breaches;
}

/**
 * spec 2.4, 4.2: the summary describes the results: totalSkus is the results' total, atRisk and needsReview
 * their counts by outcome (read in full). At every step of the journey, not only once.
 */
export function summaryMatchesResults(summary: SummaryRead, results: ResultsRead): Breach[] {
  const off: string[] = [];
  if (summary.totalSkus !== results.total) off.push(`totalSkus ${JSON.stringify(summary.totalSkus)} where the results list ${results.total}`);
  if (results.complete) {
    if (summary.atRisk !== count(results, 'AT_RISK')) off.push(`atRisk ${JSON.stringify(summary.atRisk)} where ${count(results, 'AT_RISK')} results are AT_RISK`);
    if (summary.needsReview !== count(results, 'NEEDS_REVIEW')) off.push(`needsReview ${JSON.stringify(summary.needsReview)} where ${count(results, 'NEEDS_REVIEW')} results are NEEDS_REVIEW`);
  }
  return off.length ? [{ rule: 'journey-summary-matches-results', message: `the summary says ${off.join('; ')} (spec 2.4, 4.2)` }] : [];
}

/**
 * spec 2.4, 4.2: the unfiltered JSON report exports the tenant's outcomes: when its rows name their SKU, they
 * name exactly the results' SKUs. Rows without a string `sku` (free-form objects) are not judged.
 */
export function reportMatchesResults(report: { outcomes?: unknown }, results: ResultsRead): Breach[] {
  if (!Array.isArray(report.outcomes) || !results.complete) return [];
  const rows = report.outcomes as Array<{ sku?: unknown }>;
  if (!rows.every((row) => typeof row?.sku === 'string')) return [];
  const reported = new Set(rows.map((row) => row.sku as string));
  const listed = new Set(results.items.map((item) => String(item.sku)));
  const missing = [...listed].filter((sku) => !reported.has(sku));
  const extra = [...reported].filter((sku) => !listed.has(sku));
  if (!missing.length && !extra.length) return [];
  const parts = [missing.length ? `leaves out ${missing.length} SKU(s) of the results (first ${missing[0]})` : '', extra.length ? `names ${extra.length} SKU(s) without a result (first ${extra[0]})` : ''].filter(Boolean);
  return [{ rule: 'journey-report-matches-results', message: `the unfiltered JSON report ${parts.join(' and ')} (spec 2.4, 4.2)` }];
}

/** Every SKU in `skus` has a result (what a whole-catalog screening must cover). */
export function skusHaveResults(skus: string[], results: ResultsRead, rule: string, why: string): Breach[] {
  if (!results.complete) return [];
  const listed = new Set(results.items.map((item) => String(item.sku)));
  const missing = skus.filter((sku) => !listed.has(sku));
  return missing.length ? [{ rule, message: `${missing.length} of ${skus.length} SKU(s) have no result after the whole-catalog screening (first ${missing[0]}; ${why})` }] : [];
}
