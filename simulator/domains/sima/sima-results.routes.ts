// The SIMA read endpoints (spec 2.4, 4.2): results, summary, evidence, report. Query and path values arrive
// validated and typed by the contract (enums, booleans, limit 1..1000, offset >= 0); absent ones take the
// contract defaults here. Every read is a query on the `currentByTenant` or `history` index of
// sima-result.store.ts, never a scan.
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { InvalidCursorError } from '../../kernel/store/collection.js';
import type { CatalogStore } from './catalog.store.js';
import type { MeasuresConfig } from './measures-config.js';
import { simaEvidence } from './sima-evidence.js';
import { csvReport, jsonReport, reportFilter } from './sima-report.js';
import { toSimaResultList } from './sima-result.response.js';
import type { SimaResultFilter, SimaResultRecord, SimaResultStore } from './sima-result.store.js';

/** spec 4.2, 8.6: SIMA results `limit` defaults to 50, `offset` to 0. */
export const SIMA_RESULTS_DEFAULT_LIMIT = 50;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** spec 4.2: the filters shared by results and summary (hs_in_scope and is_stale on results only). */
const filterOf = (query: { outcome?: SimaResultRecord['outcome']; workflow?: SimaResultFilter['workflow']; workflow_not?: SimaResultFilter['workflowNot'] }): SimaResultFilter => ({
  ...(query.outcome ? { outcomes: [query.outcome] } : {}),
  ...(query.workflow ? { workflow: query.workflow } : {}),
  ...(query.workflow_not ? { workflowNot: query.workflow_not } : {}),
});

export function simaResultRoutes(deps: KernelDeps, stores: { results: SimaResultStore; catalog: CatalogStore; config: MeasuresConfig }) {
  const { results, catalog, config } = stores;
  /** defect injection (SIM_DEFECTS): sima.summary-counts-stale keeps each tenant's first summary per filter. */
  const staleSummaries = new Map<string, { totalSkus: number; atRisk: number; needsReview: number; totalExposure: number }>();
  const everyResult = async (tenantId: string, filter: SimaResultFilter) => {
    const records: SimaResultRecord[] = [];
    for await (const record of results.walk(tenantId, filter)) records.push(record);
    return records;
  };

  return {
    async listSimaResults({ principal, query }) {
      const filter: SimaResultFilter = { ...filterOf(query), hsInScope: query.hs_in_scope, isStale: query.is_stale };
      // defect injection (SIM_DEFECTS): sima.results-filter-ignored drops the outcome filter
      if (deps.defects.has('sima.results-filter-ignored')) delete filter.outcomes;
      // defect injection (SIM_DEFECTS): sima.workflow-not-ignored drops the workflow_not filter
      if (deps.defects.has('sima.workflow-not-ignored')) delete filter.workflowNot;
      const limit = query.limit ?? SIMA_RESULTS_DEFAULT_LIMIT;
      // A cursor continues after the last result of the previous page, so results screened between pages
      // neither shift nor repeat the walk; with one, `offset` is ignored (contracts: SimaCursor).
      let paging: { limit: number; offset?: number } = query.cursor === undefined ? { limit, offset: query.offset ?? 0 } : { limit };
      // defect injection (SIM_DEFECTS): sima.filtered-offset-one-short skips one result too few on a filtered
      // list, so each page of a filtered walk repeats the last result of the page before.
      const filtered = [query.outcome, query.workflow, query.workflow_not, query.hs_in_scope, query.is_stale].some((v) => v !== undefined);
      if (deps.defects.has('sima.filtered-offset-one-short') && filtered && paging.offset !== undefined && paging.offset > 0) paging = { limit, offset: paging.offset - 1 };
      try {
        let page = await results.list(principal.tenantId, filter, { ...paging, after: query.cursor });
        // defect injection (SIM_DEFECTS): sima.cursor-repeats-row issues the cursor of the page's last result but one
        if (deps.defects.has('sima.cursor-repeats-row') && page.nextCursor !== null && page.items.length > 1) {
          const shorter = await results.list(principal.tenantId, filter, { ...paging, limit: page.items.length - 1, after: query.cursor });
          page = { ...page, nextCursor: shorter.nextCursor };
        }
        return { status: 200, body: toSimaResultList(page, paging) };
      } catch (error) {
        // defect injection (SIM_DEFECTS): sima.cursor-garbage-accepted reads a bad cursor as the first page
        if (error instanceof InvalidCursorError && deps.defects.has('sima.cursor-garbage-accepted')) {
          return { status: 200, body: toSimaResultList(await results.list(principal.tenantId, filter, { limit, offset: 0 }), { limit }) };
        }
        // spec 7: a validation failure names the field.
        if (error instanceof InvalidCursorError) throw invalidRequest('cursor is not one this service issued: send the cursor of the previous page', 'cursor');
        throw error;
      }
    },

    async getSimaSummary({ principal, query }) {
      const filter = filterOf(query);
      const memoKey = `${principal.tenantId} ${JSON.stringify(filter)}`;
      const memo = deps.defects.has('sima.summary-counts-stale') ? staleSummaries.get(memoKey) : undefined;
      if (memo) return { status: 200, body: memo };
      // Counts by GROUP BY; the exposure needs the records: a walk along the same index, so the summary
      // always equals the sums over the results list under the same filter.
      const counts = await results.countByOutcome(principal.tenantId, filter);
      let totalExposure = 0;
      for await (const record of results.walk(principal.tenantId, filter)) totalExposure += record.exposureAnnual ?? 0;
      const body = {
        totalSkus: Object.values(counts).reduce((sum, n) => sum + n, 0),
        atRisk: counts.AT_RISK ?? 0,
        needsReview: counts.NEEDS_REVIEW ?? 0,
        totalExposure: round2(totalExposure),
      };
      if (deps.defects.has('sima.summary-counts-stale')) staleSummaries.set(memoKey, body);
      return { status: 200, body };
    },

    async getSimaEvidence({ principal, params }) {
      // spec 7: NOT_FOUND when the SKU has no result or is not the tenant's; the two read the same.
      let current = await results.current(principal.tenantId, params.sku);
      // defect injection (SIM_DEFECTS): sima.evidence-unknown-sku-200 serves the tenant's first result for an unknown SKU
      if (!current && deps.defects.has('sima.evidence-unknown-sku-200')) current = (await results.list(principal.tenantId, {}, { limit: 1 })).items[0];
      if (!current) throw notFound('SIMA result');
      const [history, item] = await Promise.all([results.history(principal.tenantId, current.sku), catalog.get(principal.tenantId, current.sku)]);
      return { status: 200, body: simaEvidence(current, history, item) };
    },

    async exportSimaReport({ principal, query }) {
      // defect injection (SIM_DEFECTS): sima.report-flagged-includes-cleared reads filter=flagged as no filter
      const selection = query.filter === 'flagged' && deps.defects.has('sima.report-flagged-includes-cleared') ? undefined : query.filter;
      const records = await everyResult(principal.tenantId, reportFilter(selection, query.status));
      // defect injection (SIM_DEFECTS): sima.csv-no-header leaves the header row out
      const header = !deps.defects.has('sima.csv-no-header');
      if (query.format === 'csv') return { status: 200, body: csvReport(records, { header }), contentType: 'text/csv; charset=utf-8' };
      const generatedAt = deps.clocks.of(principal.tenantId).nowIso();
      return { status: 200, body: jsonReport(records, { tenantId: principal.tenantId, generatedAt, configVersion: await config.versionOf(principal.tenantId) }) };
    },
  } satisfies HandlerTable;
}
