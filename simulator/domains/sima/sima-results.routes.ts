// The SIMA read endpoints (spec 2.4, 4.2): results, summary, evidence, report. Query and path values arrive
// validated and typed by the contract (enums, booleans, limit 1..1000, offset >= 0); absent ones take the
// contract defaults here. Every read is a query on the `currentByTenant` or `history` index of
// sima-result.store.ts, never a scan. What a deviation may change (a filter, an offset, a cursor, the
// summary's freshness, the report's selection) is decided at the SIMA_HOOKS points named below.
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidRequest, notFound } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { round2 } from '../../kernel/numbers.js';
import { InvalidCursorError } from '../../kernel/store/collection.js';
import type { CatalogStore } from './catalog.store.js';
import type { MeasuresConfig } from './measures-config.js';
import { simaEvidence } from './sima-evidence.js';
import { csvReport, jsonReport, REPORT_CSV_COLUMNS, reportFilter } from './sima-report.js';
import { toSimaResultList } from './sima-result.response.js';
import type { SimaResultFilter, SimaResultRecord, SimaResultStore } from './sima-result.store.js';
import { SIMA_HOOKS } from './sima.hooks.js';

/** spec 4.2, 8.6: SIMA results `limit` defaults to 50, `offset` to 0. */
const SIMA_RESULTS_DEFAULT_LIMIT = 50;


/** spec 4.2: the filters shared by results and summary (hs_in_scope and is_stale on results only). */
const filterOf = (query: { outcome?: SimaResultRecord['outcome']; workflow?: SimaResultFilter['workflow']; workflow_not?: SimaResultFilter['workflowNot'] }): SimaResultFilter => ({
  ...(query.outcome ? { outcomes: [query.outcome] } : {}),
  ...(query.workflow ? { workflow: query.workflow } : {}),
  ...(query.workflow_not ? { workflowNot: query.workflow_not } : {}),
});

export function simaResultRoutes(deps: KernelDeps, stores: { results: SimaResultStore; catalog: CatalogStore; config: MeasuresConfig }) {
  const { results, catalog, config } = stores;
  /** Each tenant's first summary per filter, answered again while SIMA_HOOKS.summaryCountedNow says not to count now. */
  const staleSummaries = new Map<string, { totalSkus: number; atRisk: number; needsReview: number; totalExposure: number }>();
  const everyResult = async (tenantId: string, filter: SimaResultFilter) => {
    const records: SimaResultRecord[] = [];
    for await (const record of results.walk(tenantId, filter)) records.push(record);
    return records;
  };

  return {
    async listSimaResults({ principal, query }) {
      const filter = deps.defects.at(SIMA_HOOKS.resultsFilter, { ...filterOf(query), hsInScope: query.hs_in_scope, isStale: query.is_stale });
      const limit = query.limit ?? deps.defects.at(SIMA_HOOKS.resultsDefaultLimit, SIMA_RESULTS_DEFAULT_LIMIT);
      // A cursor continues after the last result of the previous page, so results screened between pages
      // neither shift nor repeat the walk; with one, `offset` is ignored (contracts: SimaCursor).
      const filtered = [query.outcome, query.workflow, query.workflow_not, query.hs_in_scope, query.is_stale].some((v) => v !== undefined);
      const paging: { limit: number; offset?: number } = query.cursor === undefined ? { limit, offset: deps.defects.at(SIMA_HOOKS.resultsOffset, query.offset ?? 0, { filtered }) } : { limit };
      const after = query.cursor === undefined ? undefined : deps.defects.at(SIMA_HOOKS.cursorRead, query.cursor);
      try {
        let page = await results.list(principal.tenantId, filter, { ...paging, after });
        // The next cursor continues after every result of the page unless the point decides fewer: then it is
        // the cursor of the shorter page.
        const passed = page.nextCursor === null ? page.items.length : deps.defects.at(SIMA_HOOKS.resultsCursorPasses, page.items.length);
        if (passed !== page.items.length) {
          const shorter = await results.list(principal.tenantId, filter, { ...paging, limit: passed, after });
          page = { ...page, nextCursor: shorter.nextCursor };
        }
        if (page.nextCursor !== null) page = { ...page, nextCursor: deps.defects.at(SIMA_HOOKS.cursorIssued, page.nextCursor) };
        return { status: 200, body: toSimaResultList(page, paging) };
      } catch (error) {
        // A cursor the service never issued is refused below, unless the point says not: then it reads as the first page.
        if (error instanceof InvalidCursorError && !deps.defects.at(SIMA_HOOKS.unknownCursorRefused, true)) {
          return { status: 200, body: toSimaResultList(await results.list(principal.tenantId, filter, { limit, offset: 0 }), { limit }) };
        }
        // spec 7: a validation failure names the field.
        if (error instanceof InvalidCursorError) throw invalidRequest('cursor is not one this service issued: send the cursor of the previous page', 'cursor');
        throw error;
      }
    },

    async getSimaSummary({ principal, query }) {
      const filter = deps.defects.at(SIMA_HOOKS.summaryFilter, filterOf(query));
      const memoKey = `${principal.tenantId} ${JSON.stringify(filter)}`;
      const countedNow = deps.defects.at(SIMA_HOOKS.summaryCountedNow, true);
      const memo = countedNow ? undefined : staleSummaries.get(memoKey);
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
      if (!countedNow) staleSummaries.set(memoKey, body);
      return { status: 200, body };
    },

    async getSimaEvidence({ principal, params }) {
      // spec 7: NOT_FOUND when the SKU has no result or is not the tenant's; the two read the same.
      let current = await results.current(principal.tenantId, params.sku);
      // Unless the point says a result is not needed: then an unknown SKU is served the tenant's first result.
      if (!current && !deps.defects.at(SIMA_HOOKS.evidenceNeedsResult, true)) current = (await results.list(principal.tenantId, {}, { limit: 1 })).items[0];
      if (!current) throw notFound('SIMA result');
      const [history, item] = await Promise.all([results.history(principal.tenantId, current.sku), catalog.get(principal.tenantId, current.sku)]);
      return { status: 200, body: simaEvidence(deps.defects.at(SIMA_HOOKS.evidenceShows, current, { history }), history, item) };
    },

    async exportSimaReport({ principal, query }) {
      const selection = deps.defects.at(SIMA_HOOKS.reportSelection, query.filter);
      const records = await everyResult(principal.tenantId, reportFilter(selection, query.status));
      if (query.format === 'csv') return { status: 200, body: csvReport(deps.defects.at(SIMA_HOOKS.csvReportRecords, records), { header: deps.defects.at(SIMA_HOOKS.csvReportHeader, true), columns: deps.defects.at(SIMA_HOOKS.csvReportColumns, REPORT_CSV_COLUMNS) }), contentType: 'text/csv; charset=utf-8' };
      const generatedAt = deps.clocks.of(principal.tenantId).nowIso();
      return { status: 200, body: jsonReport(records, { tenantId: principal.tenantId, generatedAt, configVersion: await config.versionOf(principal.tenantId) }) };
    },
  } satisfies HandlerTable;
}
