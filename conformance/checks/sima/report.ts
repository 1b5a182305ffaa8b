// sima.report-formats (spec 2.4, 4.2): the JSON report carries generatedAt, tenantId and configVersion (the
// tenant's own id when it is known); format=csv answers text/csv with a header row and one data row per
// outcome of the JSON report under the same query; filter=flagged yields only AT_RISK and NEEDS_REVIEW
// outcomes, in both formats. The CSV column set is not the spec's: an outcome column is read only when the
// header names one.
import { parse } from 'csv-parse/sync';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { num, query, read, REPORT_PATH, simaTenant } from './support.js';

/** The queries each format is asked with. `status` is only a string in the spec: compared across formats only. */
const QUERIES: Array<Record<string, string>> = [{}, { filter: 'flagged' }, { filter: 'covered' }, { status: 'AT_RISK' }];
const FLAGGED = new Set(['AT_RISK', 'NEEDS_REVIEW']);

interface JsonReport {
  generatedAt?: unknown;
  tenantId?: unknown;
  configVersion?: unknown;
  totalOutcomes?: unknown;
  outcomes?: Array<Record<string, unknown>>;
}

const reportPath = (params: Record<string, string>) => `${REPORT_PATH}?${query(params)}`;
const outcomeOf = (row: Record<string, unknown>) => (typeof row.outcome === 'string' ? row.outcome : typeof row.status === 'string' ? row.status : undefined);

/** The JSON report is served; its required fields (and tenant) are judged once, on the unfiltered report. */
function judgeJson(ctx: CheckContext, exchange: Exchange, tenantId: string | undefined, fields = false): JsonReport | undefined {
  const what = `GET ${exchange.request.url.replace(/^https?:\/\/[^/]+/, '')}`;
  if (!ctx.expect(exchange.response.status === 200 && typeof exchange.response.body === 'object' && exchange.response.body !== null, 'report-json-served', `${what} answered ${exchange.response.status}, not 200 with a JSON report (spec 4.2)`, exchange)) return undefined;
  const report = exchange.response.body as JsonReport;
  if (!fields) return report;
  const absent = (['generatedAt', 'tenantId', 'configVersion'] as const).filter((field) => typeof report[field] !== 'string' || report[field] === '');
  ctx.expect(absent.length === 0, 'report-json-fields', `${what}: the JSON report lacks ${absent.join(', ')} (spec 2.4: generatedAt, tenantId and configVersion are required)`, exchange);
  if (tenantId && typeof report.tenantId === 'string') ctx.expect(report.tenantId === tenantId, 'report-tenant', `${what}: the report names tenant ${report.tenantId}, not the caller's tenant ${tenantId}`, exchange);
  return report;
}

async function judgeQuery(ctx: CheckContext, client: ConformanceClient, params: Record<string, string>, tenantId: string | undefined, skus: Set<string>) {
  const jsonExchange = await read(client, reportPath({ format: 'json', ...params }), ctx.admin);
  const json = judgeJson(ctx, jsonExchange, tenantId);
  const csv = await read(client, reportPath({ format: 'csv', ...params }), ctx.admin);
  const where = `GET ${reportPath({ format: 'csv', ...params })}`;
  const flagged = params.filter === 'flagged';

  const outcomes = Array.isArray(json?.outcomes) ? json!.outcomes : undefined;
  if (flagged && outcomes) {
    const other = outcomes.filter((row) => outcomeOf(row) !== undefined && !FLAGGED.has(outcomeOf(row)!));
    if (other.length) ctx.fail('report-flagged-only', `GET ${reportPath({ format: 'json', ...params })}: ${other.length} outcome(s) are ${outcomeOf(other[0])} (first: SKU ${String(other[0].sku)}), where flagged means AT_RISK or NEEDS_REVIEW`, jsonExchange);
  }

  if (!ctx.expect(csv.response.status === 200, 'report-csv-served', `${where} answered ${csv.response.status}, not 200 (spec 4.2)`, csv)) return;
  const type = csv.response.headers['content-type'] ?? '';
  ctx.expect(/^text\/csv\b/i.test(type), 'report-csv-content-type', `${where} answered content type ${JSON.stringify(type)}, not text/csv (spec 4.2: CSV text)`, csv);
  let rows: string[][];
  try {
    rows = parse(csv.response.text, { relax_column_count: false, skip_empty_lines: true, bom: true }) as string[][];
  } catch (error) {
    return ctx.fail('report-csv-parses', `${where}: the body is not CSV: ${(error as Error).message}`, csv);
  }
  const expected = outcomes ? outcomes.length : num(json?.totalOutcomes);
  if (rows.length === 0) {
    ctx.expect(expected === 0, 'report-csv-header', `${where}: the CSV is empty: no header row${expected ? `, and none of the ${expected} outcome(s) of the JSON report` : ''}`, csv);
    return;
  }
  const header = rows[0];
  const dataLike = header.find((cell) => skus.has(cell) || FLAGGED.has(cell) || cell === 'CLEARED');
  const blank = header.some((cell) => cell.trim() === '');
  const duplicate = header.find((cell, index) => header.indexOf(cell) !== index);
  if (dataLike !== undefined || blank || duplicate !== undefined) {
    return ctx.fail(
      'report-csv-header',
      `${where}: the first row is not a header row (${dataLike !== undefined ? `it holds the value ${JSON.stringify(dataLike)}, a SKU or outcome` : blank ? 'it has an empty column name' : `column ${JSON.stringify(duplicate)} is named twice`}): ${JSON.stringify(header).slice(0, 200)}`,
      csv,
    );
  }
  const data = rows.slice(1);
  if (expected !== undefined) {
    ctx.expect(data.length === expected, 'report-csv-rows', `${where}: ${data.length} data row(s), but the JSON report under the same query has ${expected} outcome(s)`, csv);
  }
  const column = header.findIndex((cell) => /^(outcome|status)$/i.test(cell.trim()));
  if (flagged && column >= 0) {
    const other = data.filter((row) => !FLAGGED.has(row[column]));
    if (other.length) ctx.fail('report-flagged-only', `${where}: ${other.length} row(s) have ${header[column]} ${JSON.stringify(other[0][column])}, where flagged means AT_RISK or NEEDS_REVIEW`, csv);
  }
}

export const simaReportFormats = defineCheck({
  id: 'sima.report-formats',
  title: 'The SIMA report: JSON with its required fields, CSV with a header and one row per outcome, flagged only AT_RISK and NEEDS_REVIEW',
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA report');
    if (!tenant) return;
    // The default format is json (spec 4.2).
    judgeJson(ctx, await read(tenant.client, REPORT_PATH, ctx.admin), tenant.tenantId, true);
    const skus = new Set(tenant.results.items.map((item) => String(item.sku)));
    for (const params of QUERIES) await judgeQuery(ctx, tenant.client, params, tenant.tenantId, skus);
  },
});
