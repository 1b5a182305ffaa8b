// Spec 4.2: the SIMA endpoints (workflow A).
import { defineRules } from './rule.js';

export const section42Rules = defineRules([
  { id: '4.2.batch.accepted', section: '4.2', kind: 'state', sentence: 'POST /api/sima/batch answers 202 job accepted.', checks: ['jobs.lifecycle-model', 'operations.enqueueSimaBatch.accepts-valid-input'] },
  { id: '4.2.batch.skus-null-whole-catalog', section: '4.2', kind: 'state', sentence: 'skus null means all catalog SKUs.', checks: ['journeys.b', 'journeys.a'], note: 'after an apply, a whole-catalog screening has a result for every applied row, with its HS code' },
  { id: '4.2.batch.skus-listed-screened', section: '4.2', kind: 'state', sentence: 'skus (an array of strings) screens those SKUs.', checks: ['sima.listed-skus-screened'], note: 'every listed SKU gets a result of that screening; that no other SKU does is judged in a fresh tenant only (simulator profile)' },
  { id: '4.2.batch.run-policy-values', section: '4.2', kind: 'error', sentence: 'runPolicy is always or skip_exact_duplicates (else 400).', checks: ['operations.enqueueSimaBatch.rejects-invalid-input', 'operations.enqueueSimaBatch.accepts-valid-input'] },
  { id: '4.2.batch.run-policy-default-always', section: '4.2', kind: 'state', sentence: 'runPolicy defaults to always: an omitted runPolicy screens every SKU asked for, as always does.', checks: ['sima.evidence-current-result'] },
  { id: '4.2.batch.authority-normalized', section: '4.2', kind: 'error', sentence: 'A provided screeningAuthority must normalize to CA or US, else 400.', checks: ['operations.enqueueSimaBatch.rejects-invalid-input', 'operations.normalizations', 'idempotency.normalized-payload'] },
  { id: '4.2.batch.authority-default-ca', section: '4.2', kind: 'state', sentence: 'An omitted or blank screeningAuthority defaults to CA in workers.', checks: ['sima.authority-defaults-to-ca'], note: 'judged on the SKUs whose CA and US screenings differ (skipped when none does); blank is sent as ""' },
  { id: '4.2.batch.idempotency-conflict', section: '4.2', kind: 'error', sentence: 'The batch answers 409 on an idempotency conflict.', checks: ['idempotency.conflict'] },

  { id: '4.2.results.filters', section: '4.2', kind: 'state', sentence: 'GET /api/sima/results filters by outcome, workflow, workflow_not, hs_in_scope and is_stale: only and all matching results.', checks: ['sima.results-filters-hold'] },
  { id: '4.2.results.filter-values', section: '4.2', kind: 'error', sentence: 'The results filters take only their enum and boolean values (else 400).', checks: ['operations.listSimaResults.rejects-invalid-input'] },
  { id: '4.2.results.limit-range', section: '4.2', kind: 'error', sentence: 'Results limit is 1..1000 and offset >= 0 (else 400).', checks: ['operations.listSimaResults.rejects-invalid-input'] },
  { id: '4.2.results.offset', section: '4.2', kind: 'state', sentence: 'offset skips that many matching results.', checks: ['sima.results-filters-hold'] },
  { id: '4.2.results.cursor', section: '4.2', kind: 'state', sentence: 'cursor continues the list: following it visits every result once; a cursor never issued is 400.', checks: ['sima.results-cursor-walks-once'] },
  { id: '4.2.results.tenant-only', section: '4.2', kind: 'security', sentence: "The results list holds only the tenant's results.", checks: ['sima.evidence-isolated'] },

  { id: '4.2.summary.served', section: '4.2', kind: 'shape', sentence: 'GET /api/sima/summary answers 200 with the summary.', checks: ['sima.summary-matches-results', 'operations.getSimaSummary.accepts-valid-input'] },
  { id: '4.2.summary.outcome-filter', section: '4.2', kind: 'arithmetic', sentence: 'The summary under outcome counts and sums the results under the same outcome.', checks: ['sima.summary-matches-results'] },
  { id: '4.2.summary.same-filters', section: '4.2', kind: 'arithmetic', sentence: 'The summary under workflow and workflow_not counts and sums the results under the same filter.', checks: ['sima.summary-matches-results'] },

  { id: '4.2.evidence.served', section: '4.2', kind: 'shape', sentence: "GET /api/sima/results/:sku/evidence answers 200 with the SKU's evidence.", checks: ['sima.evidence-served', 'journeys.a'] },
  { id: '4.2.evidence.unknown-404', section: '4.2', kind: 'error', sentence: 'Evidence of a SKU without a result is 404.', checks: ['sima.evidence-served', 'sima.evidence-isolated'] },
  { id: '4.2.evidence.after-rescreen', section: '4.2', kind: 'state', sentence: "Which of a SKU's screenings the results list and the evidence show after a re-screening.", unheld: { reason: 'the spec does not say (no "latest" in 2.4 or 4.2): the sandbox shows the latest screening, and a check asserting it would hold vendors to our reading; if the spec is read as "the current result", this becomes a gap' } },

  { id: '4.2.report.json-default', section: '4.2', kind: 'shape', sentence: 'GET /api/sima/report answers the JSON report by default (format json).', checks: ['sima.report-formats'] },
  { id: '4.2.report.csv', section: '4.2', kind: 'header', sentence: 'format=csv answers CSV text.', checks: ['sima.report-formats'] },
  { id: '4.2.report.csv-rows-equal-json', section: '4.2', kind: 'arithmetic', sentence: 'The CSV report lists the outcomes of the JSON report under the same query, one row each.', checks: ['sima.report-formats'], note: 'the row count; the numbers in the rows are rule 4.2.report.csv-values' },
  { id: '4.2.report.csv-values', section: '4.2', kind: 'arithmetic', sentence: 'The numbers of each CSV row are those of the result it lists.', checks: ['sima.report-rows-match-results'] },
  { id: '4.2.report.filter-values', section: '4.2', kind: 'state', sentence: 'filter flagged yields only AT_RISK and NEEDS_REVIEW outcomes; format and filter take only their values (else 400).', checks: ['sima.report-formats', 'operations.exportSimaReport.rejects-invalid-input'] },
  { id: '4.2.report.rows-are-results', section: '4.2', kind: 'arithmetic', sentence: "The unfiltered report exports the tenant's outcomes: its rows name exactly the results' SKUs.", checks: ['journeys.a'] },
]);
