// The one place SIMA read bodies are shaped (spec 2.4): the results list envelope, and the exposure
// computation shared by the evidence and the report. An item itself is `toSimaResultItem` (the record
// without the sandbox's bookkeeping).
import type { Schema } from '../../../contracts/generated/index.js';
import type { Page } from '../../kernel/store/collection.js';
import { toSimaResultItem, type SimaResultRecord } from './sima-result.store.js';

/**
 * spec 2.4 results list. `cursor` is the cursor of the next page (null on the last one), also on an offset
 * page so a client can switch to cursors; `offset` only on offset paging (contracts: SimaCursor).
 */
export function toSimaResultList(page: Page<SimaResultRecord>, paging: { limit: number; offset?: number }): Schema<'SimaResultList'> {
  return {
    outcomes: page.items.map(toSimaResultItem),
    total: page.total,
    limit: paging.limit,
    ...(paging.offset === undefined ? {} : { offset: paging.offset }),
    cursor: page.nextCursor,
    hasMore: page.nextCursor !== null,
  };
}

/** What the AT_RISK screening read (screening.ts puts the import value and currency in its evidence). */
const screenedValue = (record: SimaResultRecord) => {
  const evidence = record.evidence ?? {};
  return {
    annualImportValue: typeof evidence.annualImportValue === 'number' ? evidence.annualImportValue : null,
    currency: typeof evidence.currency === 'string' ? evidence.currency : null,
  };
};

/**
 * The exposure computation of a result, as screening.ts defines it: exposureAnnual = annual import value x
 * combinedRate / 100 (rates are percentages), rounded to cents; only an AT_RISK result has one. `catalogValue`
 * stands in for the import value when the screening did not record it (results that are not AT_RISK).
 */
export function exposureOf(record: SimaResultRecord, catalogValue?: { annualImportValue: number | null; currency: string | null }) {
  const screened = screenedValue(record);
  const value = record.outcome === 'AT_RISK' ? screened : (catalogValue ?? screened);
  return {
    sku: record.sku,
    measureCode: record.measureCode,
    caseNumber: record.caseNumber,
    annualImportValue: value.annualImportValue,
    currency: value.currency,
    adRate: record.adRate,
    cvdRate: record.cvdRate,
    combinedRate: record.combinedRate,
    exposureAnnual: record.exposureAnnual,
    formula: 'exposureAnnual = annualImportValue x combinedRate / 100, rounded to cents (AT_RISK results only)',
  };
}
