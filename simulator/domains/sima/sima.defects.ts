// The SIMA domain's deviations (README "Defect injection"), as data: rules at the hook points of
// sima.hooks.ts (the review machine has none), and below them the ones that only change what is sent,
// applied to the final listSimaResults / getSimaSummary responses.
import { rewriteListItems, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { round2 } from '../../kernel/numbers.js';
import type { SimaResultFilter } from './sima-result.store.js';
import type { ReportColumn } from './sima-report.js';
import { SIMA_HOOKS } from './sima.hooks.js';

/** The filter without one of its fields; the same filter when it has none (nothing changed). */
const without = (filter: SimaResultFilter, field: keyof SimaResultFilter): SimaResultFilter => {
  if (filter[field] === undefined) return filter;
  const { [field]: _dropped, ...rest } = filter;
  return rest;
};

export const SIMA_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'sima.results-filter-ignored', area: 'sima', description: 'the `outcome` filter of listSimaResults is ignored', hooks: [at(SIMA_HOOKS.resultsFilter, (filter) => without(filter, 'outcomes'))] },
  { kind: 'defect', id: 'sima.workflow-not-ignored', area: 'sima', description: 'the `workflow_not` filter of listSimaResults is ignored', hooks: [at(SIMA_HOOKS.resultsFilter, (filter) => without(filter, 'workflowNot'))] },
  { kind: 'defect', id: 'sima.filtered-offset-one-short', area: 'sima', description: 'listSimaResults skips one result too few at offset > 0 when a filter is given (a filtered walk repeats a result at each page boundary)', hooks: [at(SIMA_HOOKS.resultsOffset, (offset, { filtered }) => (filtered && offset > 0 ? offset - 1 : offset))] },
  { kind: 'defect', id: 'sima.results-default-limit-100', area: 'sima', description: 'listSimaResults without `limit` answers pages of 100 (spec 8.6: default 50)', hooks: [at(SIMA_HOOKS.resultsDefaultLimit, () => 100)] },
  { kind: 'defect', id: 'sima.cursor-repeats-row', area: 'sima', description: "a results page's next cursor starts at its last result again", hooks: [at(SIMA_HOOKS.resultsCursorPasses, (passed) => (passed > 1 ? passed - 1 : passed))] },
  { kind: 'defect', id: 'sima.cursor-garbage-accepted', area: 'sima', description: 'a results cursor the service never issued reads as the first page', hooks: [at(SIMA_HOOKS.unknownCursorRefused, () => false)] },
  { kind: 'defect', id: 'sima.summary-workflow-ignored', area: 'sima', description: 'getSimaSummary ignores its `workflow` and `workflow_not` filters (counts and sums every result)', hooks: [at(SIMA_HOOKS.summaryFilter, (filter) => without(without(filter, 'workflow'), 'workflowNot'))] },
  { kind: 'defect', id: 'sima.summary-exposure-off', area: 'sima', description: 'getSimaSummary reports totalExposure x10' },
  { kind: 'defect', id: 'sima.exposure-on-cleared', area: 'sima', description: 'listSimaResults gives CLEARED results exposureAnnual 1000' },
  { kind: 'defect', id: 'sima.exposure-negative', area: 'sima', description: 'listSimaResults gives AT_RISK results a negative exposureAnnual' },
  { kind: 'defect', id: 'sima.combined-rate-one-absent-null', area: 'sima', description: 'listSimaResults reports combinedRate null when only one of adRate and cvdRate is stated (an SQL NULL + x)' },
  { kind: 'defect', id: 'sima.combined-rate-ad-only', area: 'sima', description: 'listSimaResults reports combinedRate as the AD rate alone when a CVD rate is also given' },
  { kind: 'defect', id: 'sima.csv-no-header', area: 'sima', description: 'the CSV report has no header row', hooks: [at(SIMA_HOOKS.csvReportHeader, () => false)] },
  { kind: 'defect', id: 'sima.report-flagged-includes-cleared', area: 'sima', description: 'the report under `filter=flagged` includes CLEARED results', hooks: [at(SIMA_HOOKS.reportSelection, (selection) => (selection === 'flagged' ? undefined : selection))] },
  { kind: 'defect', id: 'sima.evidence-first-screening', area: 'sima', description: "a SKU's evidence shows its first screening, not its current result, once it was screened again", hooks: [at(SIMA_HOOKS.evidenceShows, (current, { history }) => history[0] ?? current)] },
  { kind: 'defect', id: 'sima.upload-receipt-stored-file-name', area: 'sima', description: 'the 202 receipt of POST /api/upload names the stored file (`upload-<jobId>.csv`), not the file uploaded' },
  { kind: 'defect', id: 'sima.csv-exposure-in-cents', area: 'sima', description: "the CSV report writes each result's exposureAnnual in minor units (cents, an integer column), not the result's amount", hooks: [at(SIMA_HOOKS.csvReportRecords, (records) => records.map((r) => (typeof r.exposureAnnual === 'number' ? { ...r, exposureAnnual: Math.round(r.exposureAnnual * 100) } : r)))] },
  { kind: 'defect', id: 'sima.catalog-adapter-default-extended', area: 'sima', description: 'POST /api/catalog/upload without `sourceAdapter` reads the file with extended-excel (not the `catalog-excel` default) and names it in the receipt', hooks: [at(SIMA_HOOKS.catalogAdapterAsRead, (adapter, { sent }) => (sent === undefined ? 'extended-excel' : adapter))] },
  { kind: 'defect', id: 'sima.upload-run-policy-default-skip', area: 'sima', description: 'POST /api/upload without `runPolicy` screens under skip_exact_duplicates (not the `always` default): an identical file screens nothing again', hooks: [at(SIMA_HOOKS.uploadRunPolicy, (policy, { sent }) => (sent === undefined ? 'skip_exact_duplicates' : policy))] },
  { kind: 'defect', id: 'sima.upload-run-policy-ignored', area: 'sima', description: 'POST /api/upload ignores its `runPolicy` field: every upload screens under `always`', hooks: [at(SIMA_HOOKS.uploadRunPolicy, () => 'always' as const)] },
  { kind: 'defect', id: 'sima.rescreen-resets-review', area: 'sima', description: "a re-screening with the same outcome and measure resets a reviewer's decision to OPEN (simulator/README.md: decisions survive it)", hooks: [at(SIMA_HOOKS.reviewKeptOnRescreen, () => false)] },
  { kind: 'defect', id: 'sima.evidence-unknown-sku-200', area: 'sima', description: "the evidence of a SKU without a result is 200 with another SKU's evidence", hooks: [at(SIMA_HOOKS.evidenceNeedsResult, () => false)] },
  { kind: 'defect', id: 'sima.job-outcomes-off', area: 'sima', description: 'a sima_validation job reports outcomes.atRisk one higher than it screened', hooks: [at(SIMA_HOOKS.jobOutcomes, (outcomes) => ({ ...outcomes, atRisk: outcomes.atRisk + 1 }))] },
  { kind: 'defect', id: 'sima.screening-authority-strict', area: 'sima', description: 'screeningAuthority is read as sent (not trimmed, case-sensitive): " US " or "us" is 400', hooks: [at(SIMA_HOOKS.screeningAuthorityAsRead, (_read, { sent }) => sent)] },
  { kind: 'defect', id: 'sima.screening-authority-blank-refused', area: 'sima', description: 'a blank screeningAuthority is 400 instead of defaulting to CA', hooks: [at(SIMA_HOOKS.blankScreeningAuthorityDefaults, () => false)] },
  { kind: 'defect', id: 'sima.authority-default-us', area: 'sima', description: 'an omitted or blank screeningAuthority screens under US (spec 4.2: defaults to CA)', hooks: [at(SIMA_HOOKS.defaultScreeningAuthority, () => 'US' as const)] },
  { kind: 'defect', id: 'sima.listed-batch-whole-catalog', area: 'sima', description: 'a batch with a list of `skus` screens the whole catalog', hooks: [at(SIMA_HOOKS.batchSkus, () => null)] },
  { kind: 'defect', id: 'sima.summary-counts-stale', area: 'sima', description: "getSimaSummary answers a tenant's first summary under a filter again after later screenings change the results", hooks: [at(SIMA_HOOKS.summaryCountedNow, () => false)] },
  { kind: 'defect', id: 'sima.exposure-not-percent', area: 'sima', description: 'a screening records exposureAnnual as annual import value x combinedRate, without the / 100 of a percentage (100 times too large)', hooks: [at(SIMA_HOOKS.recordedExposure, (exposure) => (exposure === null ? exposure : round2(exposure * 100)))] },
];

/** Another cursor encoding (sima.cursor-other-encoding): a version prefix and the store's cursor in hex. */
const HEX_CURSOR = 'r1.';
const toHexCursor = (cursor: string) => `${HEX_CURSOR}${Buffer.from(cursor, 'utf8').toString('hex')}`;
/** The store's cursor a hex cursor names; anything else is no cursor the store issued (400 naming `cursor`). */
const fromHexCursor = (cursor: string) => (cursor.startsWith(HEX_CURSOR) && /^[0-9a-f]+$/.test(cursor.slice(HEX_CURSOR.length)) ? Buffer.from(cursor.slice(HEX_CURSOR.length), 'hex').toString('utf8') : 'not-issued');

/** The evidence's six free-form objects each wrapped as `{ schema, data }` (sima.evidence-other-shape). */
const EVIDENCE_OBJECTS = ['result', 'classification', 'attributes', 'measureApplicability', 'thresholds', 'exposure'] as const;

/** Legitimate variants of the SIMA domain (README "Variants"): choices the spec leaves open. */
export const SIMA_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'sima.cursor-other-encoding', area: 'sima', description: 'results cursors are `r1.` and the position in hex (not base64url JSON); anything else is 400 naming `cursor`', spec: 'spec 2.4 Results list: "cursor: string or null"; spec 4.2: "`cursor` string": no format is given', hooks: [at(SIMA_HOOKS.cursorIssued, toHexCursor), at(SIMA_HOOKS.cursorRead, fromHexCursor)] },
  { kind: 'variant', id: 'sima.csv-columns-reordered', area: 'sima', description: 'the CSV report lists its columns in another order (analysisDate and outcome first) and adds `confidence` and `isStale`', spec: 'spec 4.2 GET /api/sima/report: "200 JSON report, or CSV text when `format=csv`": no columns or order are given', hooks: [at(SIMA_HOOKS.csvReportColumns, (columns): ReportColumn[] => ['analysisDate', 'outcome', ...columns.filter((c) => c !== 'analysisDate' && c !== 'outcome'), 'confidence', 'isStale'])] },
  { kind: 'variant', id: 'sima.evidence-other-shape', area: 'sima', description: 'each of the evidence\'s six objects is `{ schema, data }` around what the sandbox puts there; history and auditTrail entries carry a `kind`', spec: 'spec 2.4 Evidence: "object with required keys `result`, `classification`, `attributes`, `measureApplicability`, `thresholds`, `exposure` (free-form objects), `history`, `auditTrail` (arrays of free-form objects)"' },
  { kind: 'variant', id: 'sima.results-extra-fields', area: 'sima', description: 'result items also carry `screeningAuthority` and `resultVersion`', spec: 'spec 9.3: "additive changes only by default (new optional request fields, new response fields, new endpoints)"; spec 2.4 lists the fields an item must carry' },
  { kind: 'variant', id: 'sima.receipt-message-reworded', area: 'sima', description: 'the 202 receipts of SIMA batches and SIMA/catalog uploads carry another `message` wording', spec: 'spec 2.3 Job accepted: "`message` string": no wording is given' },
];

/** A defect rewriting the 202 receipt of `operations` (undefined: left as it is). */
const rewrite202 = (id: string, operations: string[], change: (body: Record<string, unknown>) => Record<string, unknown> | undefined): ResponseDefect => ({
  id,
  operations,
  apply: (res) => {
    if (res.status !== 202 || typeof res.body !== 'object' || res.body === null) return;
    const changed = change(res.body as Record<string, unknown>);
    if (changed) res.body = changed;
  },
});

/** A defect applied to each result item of a listSimaResults success. */
const eachResult = (id: string, change: (item: Record<string, unknown>) => Record<string, unknown>) => rewriteListItems(id, ['listSimaResults'], 'outcomes', change);

export const SIMA_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('sima.summary-exposure-off', ['getSimaSummary'], (body) => (typeof body.totalExposure === 'number' ? { ...body, totalExposure: Math.round(body.totalExposure * 1000) / 100 } : undefined)),
  eachResult('sima.results-extra-fields', (item) => ({ ...item, screeningAuthority: 'CA', resultVersion: 1 })),
  rewriteSuccessBody('sima.evidence-other-shape', ['getSimaEvidence'], (body) => ({
    ...body,
    ...Object.fromEntries(EVIDENCE_OBJECTS.map((key) => [key, { schema: `evidence.${key}.v2`, data: body[key] }])),
    history: Array.isArray(body.history) ? body.history.map((entry) => ({ kind: 'screening', ...(entry as object) })) : body.history,
    auditTrail: Array.isArray(body.auditTrail) ? body.auditTrail.map((entry) => ({ kind: 'audit', ...(entry as object) })) : body.auditTrail,
  })),
  {
    id: 'sima.receipt-message-reworded',
    operations: ['enqueueSimaBatch', 'uploadSimaScreeningFile', 'uploadCatalogFile'],
    apply: (res) => void (res.status === 202 && typeof (res.body as Record<string, unknown>).message === 'string' && (res.body = { ...(res.body as object), message: 'Your request is queued; poll the job for its outcome.' })),
  },
  rewrite202('sima.upload-receipt-stored-file-name', ['uploadSimaScreeningFile'], (body) => (typeof body.fileName === 'string' && typeof body.jobId === 'string' ? { ...body, fileName: `upload-${body.jobId}.csv` } : undefined)),
  eachResult('sima.exposure-on-cleared', (item) => (item.outcome === 'CLEARED' ? { ...item, exposureAnnual: 1000 } : item)),
  eachResult('sima.combined-rate-ad-only', (item) => (typeof item.adRate === 'number' && typeof item.cvdRate === 'number' && item.cvdRate > 0 ? { ...item, combinedRate: item.adRate } : item)),
  eachResult('sima.combined-rate-one-absent-null', (item) => ((typeof item.adRate === 'number') !== (typeof item.cvdRate === 'number') ? { ...item, combinedRate: null } : item)),
  eachResult('sima.exposure-negative', (item) => (item.outcome === 'AT_RISK' && typeof item.exposureAnnual === 'number' ? { ...item, exposureAnnual: -Math.abs(item.exposureAnnual) - 1 } : item)),
];
