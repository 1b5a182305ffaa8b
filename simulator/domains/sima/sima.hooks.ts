// The SIMA domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in sima.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { JobOutcomeCounts } from '../jobs/index.js';
import type { SimaResultFilter, SimaResultRecord } from './sima-result.store.js';
import type { ReportColumn } from './sima-report.js';
import type { CatalogAdapter } from './catalog-columns.js';

export const SIMA_HOOKS = {
  /** spec 4.2: the screeningAuthority as read (trimmed, upper-cased); the context is the value as sent. */
  screeningAuthorityAsRead: hookPoint<string, { sent: string }>('validation', 'sima.screening-authority-as-read'),
  /** spec 4.3 (`runPolicy`: `always` default / `skip_exact_duplicates`): the policy an upload's screening runs under; `sent` is the form's. */
  uploadRunPolicy: hookPoint<'always' | 'skip_exact_duplicates', { sent: string | undefined }>('validation', 'sima.upload-run-policy'),
  /** spec 4.3 (`sourceAdapter`: `catalog-excel` default / `extended-excel`): the adapter a catalog upload is read with; `sent` is the form's. */
  catalogAdapterAsRead: hookPoint<CatalogAdapter, { sent: CatalogAdapter | undefined }>('validation', 'sima.catalog-adapter-as-read'),
  /** spec 4.2 ("omitted or blank defaults to CA in workers"): the authority an omitted or blank screeningAuthority screens under. */
  defaultScreeningAuthority: hookPoint<'CA' | 'US', { sent: 'omitted' | 'blank' }>('validation', 'sima.default-screening-authority'),
  /** spec 4.2 (`skus`: "null means all catalog SKUs"): the SKUs a batch asked to screen (null: the whole catalog). */
  batchSkus: hookPoint<readonly string[] | null>('worker', 'sima.batch-skus'),
  /** spec 4.2: whether a blank screeningAuthority means CA (else it is refused like an unknown one). */
  blankScreeningAuthorityDefaults: hookPoint<boolean>('validation', 'sima.blank-screening-authority-defaults'),
  /** spec 4.2: the filters listSimaResults applies (outcome, workflow, workflow_not, hs_in_scope, is_stale). */
  resultsFilter: hookPoint<SimaResultFilter>('store', 'sima.results-filter'),
  /** spec 8.6: the results a listSimaResults page skips (its `offset`); `filtered`: a filter was given. */
  resultsOffset: hookPoint<number, { filtered: boolean }>('store', 'sima.results-offset'),
  /** spec 8.6: the results page size when the request names no `limit` (default 50). */
  resultsDefaultLimit: hookPoint<number>('response', 'sima.results-default-limit'),
  /** spec 8.6: how many results of a page its next cursor continues after (all of them: no repeat, no gap). */
  resultsCursorPasses: hookPoint<number>('response', 'sima.results-cursor-passes'),
  /** spec 7: whether a results cursor the service never issued is refused (400 naming `cursor`). */
  unknownCursorRefused: hookPoint<boolean>('validation', 'sima.unknown-cursor-refused'),
  /** spec 4.2 (summary: "query `outcome`, `workflow`, `workflow_not` as above"): the filters getSimaSummary applies. */
  summaryFilter: hookPoint<SimaResultFilter>('store', 'sima.summary-filter'),
  /** spec 4.2: whether getSimaSummary counts the results as they are now (else it answers a kept summary). */
  summaryCountedNow: hookPoint<boolean>('store', 'sima.summary-counted-now'),
  /** spec 7: whether the evidence of a SKU without a result is 404 NOT_FOUND. */
  evidenceNeedsResult: hookPoint<boolean>('rule', 'sima.evidence-needs-result'),
  /** spec 2.4, 4.2: the screening a SKU's evidence shows (its current result); `history` is every screening, oldest first. */
  evidenceShows: hookPoint<SimaResultRecord, { history: readonly SimaResultRecord[] }>('store', 'sima.evidence-shows'),
  /** spec 4.2: the `filter` of exportSimaReport (flagged, covered, or none). */
  reportSelection: hookPoint<'flagged' | 'covered' | undefined>('store', 'sima.report-selection'),
  /** spec 4.2: whether the CSV report starts with its header row. */
  csvReportHeader: hookPoint<boolean>('response', 'sima.csv-report-header'),
  /** spec 4.2: the results the CSV report writes, one row each (the tenant's current results under its query). */
  csvReportRecords: hookPoint<readonly SimaResultRecord[]>('response', 'sima.csv-report-records'),
  /** spec 4.2 ("CSV text when `format=csv`", no columns given): the columns of the CSV report, in order. */
  csvReportColumns: hookPoint<readonly ReportColumn[]>('response', 'sima.csv-report-columns'),
  /** spec 2.4 (`cursor: string or null`, no format given): the cursor a results page sends, from the store's. */
  cursorIssued: hookPoint<string>('response', 'sima.cursor-issued'),
  /** spec 2.4, 4.2: the store's cursor a `cursor` sent back names (the inverse of cursorIssued). */
  cursorRead: hookPoint<string>('validation', 'sima.cursor-read'),
  /** spec 2.4: the exposureAnnual a screening records (annual import value x combined rate / 100). */
  recordedExposure: hookPoint<number | null>('worker', 'sima.recorded-exposure'),
  /** Sandbox-defined (spec 3.5: transitions not shown; simulator/README.md): whether a reviewer's decision survives a re-screening with the same outcome and measure. */
  reviewKeptOnRescreen: hookPoint<boolean>('worker', 'sima.review-kept-on-rescreen'),
  /** spec 2.2: the outcome counts a sima_validation job reports. */
  jobOutcomes: hookPoint<JobOutcomeCounts>('worker', 'sima.job-outcomes'),
} as const;
