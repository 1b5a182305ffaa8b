// sima.report-rows-match-results (spec 2.4, 4.2): a report row about a SKU carries that SKU's result. The
// report lists results (spec 4.2 `GET /api/sima/report`; the JSON report's `outcomes`), so where a row names a
// SKU and a field of the result item (spec 2.4) by its own name, the value is the result's: the outcome, and the
// numbers exposureAnnual, adRate, cvdRate, combinedRate and confidence (within 0.01; an empty CSV cell or
// JSON null for a null). The JSON report's `totalOutcomes` and `totalExposures` count its `outcomes` and
// `exposures` arrays when both are given. Columns the header does not name are not read (the CSV column set is
// not the spec's), and a CSV number may be written with thousands separators or a trailing `%`. Rows about a
// SKU the results list does not hold are left to sima.report-formats. In a shared tenant a mismatch counts only
// when a second read of both shows it again (a screening may land between the two reads).
import { parse } from 'csv-parse/sync';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { allResults, EXPOSURE_TOLERANCE, isProblem, num, read, REPORT_PATH, simaTenant, type Problem, type SimaItem } from './support.js';

/** The numeric fields of a result item (spec 2.4) a report row may carry under the same name. */
const NUMBERS = ['exposureAnnual', 'adRate', 'cvdRate', 'combinedRate', 'confidence'] as const;

/** A CSV cell as a number: empty (or `null`) is null; thousands separators, spaces and a trailing % are dropped. */
function cellNumber(cell: string): number | null | undefined {
  const text = cell.trim();
  if (text === '' || /^null$/i.test(text)) return null;
  const value = Number(text.replace(/[,\s]/g, '').replace(/%$/, ''));
  return Number.isFinite(value) ? value : undefined;
}

const sameNumber = (got: number | null | undefined, expected: unknown) =>
  expected === null || expected === undefined ? got === null || got === undefined : got !== null && got !== undefined && Math.abs(got - (num(expected) ?? Number.NaN)) <= EXPOSURE_TOLERANCE + 1e-9;

const describe = (sku: string, field: string, got: unknown, expected: unknown) => `the row of SKU ${sku} has ${field} ${JSON.stringify(got)}, but its result in GET /api/sima/results has ${JSON.stringify(expected ?? null)}`;

function judgeJson(exchange: Exchange, bySku: Map<string, SimaItem>): Problem[] {
  const where = `GET ${REPORT_PATH}?format=json`;
  if (exchange.response.status !== 200) return [{ rule: 'report-json-served', message: `${where} answered ${exchange.response.status}, not 200 (spec 4.2)`, exchange }];
  const report = (exchange.response.body ?? {}) as { totalOutcomes?: unknown; totalExposures?: unknown; outcomes?: unknown; exposures?: unknown };
  const problems: Problem[] = [];
  for (const [total, list] of [['totalOutcomes', 'outcomes'], ['totalExposures', 'exposures']] as const) {
    const array = report[list];
    if (typeof report[total] === 'number' && Array.isArray(array) && report[total] !== array.length) {
      problems.push({ rule: 'report-json-totals', message: `${where}: ${total} is ${String(report[total])}, but ${list} lists ${array.length} (spec 2.4)`, exchange });
    }
  }
  for (const row of Array.isArray(report.outcomes) ? (report.outcomes as Array<Record<string, unknown>>) : []) {
    const item = typeof row?.sku === 'string' ? bySku.get(row.sku) : undefined;
    if (!item) continue;
    const sku = row.sku as string;
    for (const field of ['outcome', 'status'] as const) {
      if (typeof row[field] === 'string' && row[field] !== item.outcome) problems.push({ rule: 'report-json-row', message: `${where}: ${describe(sku, field, row[field], item.outcome)}`, exchange });
    }
    for (const field of NUMBERS) {
      if (!(field in row)) continue;
      const got = row[field] === null ? null : num(row[field]);
      if (!sameNumber(got, item[field])) problems.push({ rule: 'report-json-row', message: `${where}: ${describe(sku, field, row[field], item[field])} (tolerance ${EXPOSURE_TOLERANCE})`, exchange });
    }
  }
  return problems;
}

function judgeCsv(exchange: Exchange, bySku: Map<string, SimaItem>): Problem[] {
  const where = `GET ${REPORT_PATH}?format=csv`;
  if (exchange.response.status !== 200) return [{ rule: 'report-csv-served', message: `${where} answered ${exchange.response.status}, not 200 (spec 4.2)`, exchange }];
  let rows: string[][];
  try {
    rows = parse(exchange.response.text, { relax_column_count: false, skip_empty_lines: true, bom: true }) as string[][];
  } catch {
    return []; // sima.report-formats judges a body that is not CSV
  }
  const header = (rows[0] ?? []).map((cell) => cell.trim().toLowerCase());
  const skuAt = header.indexOf('sku');
  if (skuAt < 0) return [];
  const outcomeAt = header.findIndex((cell) => cell === 'outcome' || cell === 'status');
  const numbers = NUMBERS.map((field) => [field, header.indexOf(field.toLowerCase())] as const).filter(([, at]) => at >= 0);
  const problems: Problem[] = [];
  for (const row of rows.slice(1)) {
    const item = bySku.get(row[skuAt]);
    if (!item) continue;
    const sku = row[skuAt];
    if (outcomeAt >= 0 && row[outcomeAt] !== item.outcome) problems.push({ rule: 'report-csv-row', message: `${where}: ${describe(sku, rows[0][outcomeAt], row[outcomeAt], item.outcome)}`, exchange });
    for (const [field, at] of numbers) {
      if (!sameNumber(cellNumber(row[at]), item[field])) problems.push({ rule: 'report-csv-row', message: `${where}: ${describe(sku, rows[0][at], row[at], item[field])} (tolerance ${EXPOSURE_TOLERANCE})`, exchange });
    }
  }
  return problems;
}

async function judge(ctx: CheckContext, client: ConformanceClient): Promise<Problem[]> {
  const listed = await allResults(client, {}, ctx.admin);
  if (isProblem(listed)) return [listed];
  const bySku = new Map(listed.items.filter((item) => typeof item.sku === 'string').map((item) => [item.sku as string, item]));
  const json = await read(client, `${REPORT_PATH}?format=json`, ctx.admin);
  const csv = await read(client, `${REPORT_PATH}?format=csv`, ctx.admin);
  return [...judgeJson(json, bySku), ...judgeCsv(csv, bySku)];
}

export const simaReportRowsMatchResults = defineCheck({
  id: 'sima.report-rows-match-results',
  title: "Each SIMA report row about a SKU carries that SKU's result: outcome, exposure and rates (JSON and CSV), and the JSON totals count its lists",
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA report rows');
    if (!tenant) return;
    let problems = await judge(ctx, tenant.client);
    if (problems.length && !tenant.fresh) problems = await judge(ctx, tenant.client);
    // One failure per rule and format, naming how many rows differ: a systematic error repeats on every row.
    const byRule = new Map<string, Problem[]>();
    for (const problem of problems) byRule.set(problem.rule, [...(byRule.get(problem.rule) ?? []), problem]);
    for (const [rule, found] of byRule) ctx.fail(rule, `${found.length} difference(s); first: ${found[0].message}`, found[0].exchange);
  },
});
