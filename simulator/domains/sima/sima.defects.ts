// The SIMA domain's deviations (README "Defect injection"), as data: rules at the hook points of
// sima.hooks.ts (the review machine has none), and below them the ones that only change what is sent,
// applied to the final listSimaResults / getSimaSummary responses.
import { rewriteListItems, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { round2 } from '../../kernel/numbers.js';
import type { SimaResultFilter } from './sima-result.store.js';
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
  { kind: 'defect', id: 'sima.cursor-repeats-row', area: 'sima', description: "a results page's next cursor starts at its last result again", hooks: [at(SIMA_HOOKS.resultsCursorPasses, (passed) => (passed > 1 ? passed - 1 : passed))] },
  { kind: 'defect', id: 'sima.cursor-garbage-accepted', area: 'sima', description: 'a results cursor the service never issued reads as the first page', hooks: [at(SIMA_HOOKS.unknownCursorRefused, () => false)] },
  { kind: 'defect', id: 'sima.summary-exposure-off', area: 'sima', description: 'getSimaSummary reports totalExposure x10' },
  { kind: 'defect', id: 'sima.exposure-on-cleared', area: 'sima', description: 'listSimaResults gives CLEARED results exposureAnnual 1000' },
  { kind: 'defect', id: 'sima.exposure-negative', area: 'sima', description: 'listSimaResults gives AT_RISK results a negative exposureAnnual' },
  { kind: 'defect', id: 'sima.combined-rate-ad-only', area: 'sima', description: 'listSimaResults reports combinedRate as the AD rate alone when a CVD rate is also given' },
  { kind: 'defect', id: 'sima.csv-no-header', area: 'sima', description: 'the CSV report has no header row', hooks: [at(SIMA_HOOKS.csvReportHeader, () => false)] },
  { kind: 'defect', id: 'sima.report-flagged-includes-cleared', area: 'sima', description: 'the report under `filter=flagged` includes CLEARED results', hooks: [at(SIMA_HOOKS.reportSelection, (selection) => (selection === 'flagged' ? undefined : selection))] },
  { kind: 'defect', id: 'sima.evidence-unknown-sku-200', area: 'sima', description: "the evidence of a SKU without a result is 200 with another SKU's evidence", hooks: [at(SIMA_HOOKS.evidenceNeedsResult, () => false)] },
  { kind: 'defect', id: 'sima.job-outcomes-off', area: 'sima', description: 'a sima_validation job reports outcomes.atRisk one higher than it screened', hooks: [at(SIMA_HOOKS.jobOutcomes, (outcomes) => ({ ...outcomes, atRisk: outcomes.atRisk + 1 }))] },
  { kind: 'defect', id: 'sima.screening-authority-strict', area: 'sima', description: 'screeningAuthority is read as sent (not trimmed, case-sensitive): " US " or "us" is 400', hooks: [at(SIMA_HOOKS.screeningAuthorityAsRead, (_read, { sent }) => sent)] },
  { kind: 'defect', id: 'sima.screening-authority-blank-refused', area: 'sima', description: 'a blank screeningAuthority is 400 instead of defaulting to CA', hooks: [at(SIMA_HOOKS.blankScreeningAuthorityDefaults, () => false)] },
  { kind: 'defect', id: 'sima.summary-counts-stale', area: 'sima', description: "getSimaSummary answers a tenant's first summary under a filter again after later screenings change the results", hooks: [at(SIMA_HOOKS.summaryCountedNow, () => false)] },
  { kind: 'defect', id: 'sima.exposure-not-percent', area: 'sima', description: 'a screening records exposureAnnual as annual import value x combinedRate, without the / 100 of a percentage (100 times too large)', hooks: [at(SIMA_HOOKS.recordedExposure, (exposure) => (exposure === null ? exposure : round2(exposure * 100)))] },
];

/** A defect applied to each result item of a listSimaResults success. */
const eachResult = (id: string, change: (item: Record<string, unknown>) => Record<string, unknown>) => rewriteListItems(id, ['listSimaResults'], 'outcomes', change);

export const SIMA_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  rewriteSuccessBody('sima.summary-exposure-off', ['getSimaSummary'], (body) => (typeof body.totalExposure === 'number' ? { ...body, totalExposure: Math.round(body.totalExposure * 1000) / 100 } : undefined)),
  eachResult('sima.exposure-on-cleared', (item) => (item.outcome === 'CLEARED' ? { ...item, exposureAnnual: 1000 } : item)),
  eachResult('sima.combined-rate-ad-only', (item) => (typeof item.adRate === 'number' && typeof item.cvdRate === 'number' && item.cvdRate > 0 ? { ...item, combinedRate: item.adRate } : item)),
  eachResult('sima.exposure-negative', (item) => (item.outcome === 'AT_RISK' && typeof item.exposureAnnual === 'number' ? { ...item, exposureAnnual: -Math.abs(item.exposureAnnual) - 1 } : item)),
];
