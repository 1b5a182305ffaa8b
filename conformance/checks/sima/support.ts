// What the SIMA checks share (spec 2.4, 4.2): a tenant with screening results to read (a fresh tenant whose
// whole catalog is screened when the control API is there; the primary tenant otherwise, screened only when it
// has no results yet; never a write in the readonly profile), reads that honour 429 as spec 7 asks, the full
// results list under a filter, and the filters of spec 4.2 as predicates on a result item.
import type { AdminClient } from '../../harness/admin.js';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { enqueue, isRateLimited, receiptJobId, settleJobs, writeTenant } from '../jobs-support.js';

export const RESULTS_PATH = '/api/sima/results';
export const SUMMARY_PATH = '/api/sima/summary';
export const REPORT_PATH = '/api/sima/report';
export const evidencePath = (sku: string) => `/api/sima/results/${encodeURIComponent(sku)}/evidence`;

/** spec 4.2, 8.6: SIMA results `limit` is 1..1000. */
export const MAX_LIMIT = 1000;
/** The most results a check reads as "the full list" (offset paging at MAX_LIMIT). */
const MAX_ITEMS = 5000;

/** spec 2.4: the outcome values, also the values of `status`. */
export const OUTCOMES = ['AT_RISK', 'NEEDS_REVIEW', 'CLEARED'] as const;
/** spec 3.5: the SIMA workflowStatus values. */
const WORKFLOWS = ['OPEN', 'OVERRIDDEN', 'ACCEPTED', 'DISMISSED'] as const;

/** A SIMA result item as read (spec 2.4); the contract's schema is checked on every response by the client. */
export interface SimaItem {
  id?: unknown;
  sku?: unknown;
  outcome?: unknown;
  status?: unknown;
  workflowStatus?: unknown;
  hsInScope?: unknown;
  isStale?: unknown;
  exposureAnnual?: unknown;
  adRate?: unknown;
  cvdRate?: unknown;
  combinedRate?: unknown;
  confidence?: unknown;
  analysisDate?: unknown;
  measureCode?: unknown;
}

export interface Problem {
  rule: string;
  message: string;
  exchange?: Exchange;
}

export const isProblem = (value: unknown): value is Problem => typeof value === 'object' && value !== null && 'rule' in value && 'message' in value;

export const idOf = (item: SimaItem) => String(item.id);
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const query = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
export const label = (params: Record<string, string | number | undefined>) => query(params) || 'no filter';

/** A GET (429s are waited out by the client, harness/transport.ts). */
export function read(client: ConformanceClient, path: string, _admin?: AdminClient): Promise<Exchange> {
  return client.call('GET', path);
}

export interface ResultsPage {
  exchange: Exchange;
  items: SimaItem[];
  total: number;
  cursor: unknown;
  hasMore: unknown;
}

/** One page of GET /api/sima/results?<q>, or the problem with it (not 200, or no outcomes array / total). */
export async function resultsPage(client: ConformanceClient, q: string, admin?: AdminClient): Promise<ResultsPage | Problem> {
  const path = q ? `${RESULTS_PATH}?${q}` : RESULTS_PATH;
  const exchange = await read(client, path, admin);
  const body = exchange.response.body as { outcomes?: unknown; total?: unknown; cursor?: unknown; hasMore?: unknown } | null;
  if (exchange.response.status !== 200 || !Array.isArray(body?.outcomes) || num(body?.total) === undefined) {
    return { rule: 'results-served', message: `GET ${path} answered ${exchange.response.status} without an outcomes array and a total (spec 2.4, 4.2)`, exchange };
  }
  return { exchange, items: body!.outcomes as SimaItem[], total: num(body!.total)!, cursor: body!.cursor, hasMore: body!.hasMore };
}

export interface ResultsList {
  items: SimaItem[];
  /** `total` of the first page. */
  total: number;
  /** Every matching result was read (total <= MAX_ITEMS and the pages added up). */
  complete: boolean;
  pages: Exchange[];
}

/** The results under `filters`, read with limit=1000 and offset paging up to MAX_ITEMS. */
export async function allResults(client: ConformanceClient, filters: Record<string, string> = {}, admin?: AdminClient): Promise<ResultsList | Problem> {
  const items: SimaItem[] = [];
  const pages: Exchange[] = [];
  let total = 0;
  for (let offset = 0; offset < MAX_ITEMS; offset += MAX_LIMIT) {
    const page = await resultsPage(client, query({ ...filters, limit: MAX_LIMIT, offset }), admin);
    if (isProblem(page)) return page;
    pages.push(page.exchange);
    if (offset === 0) total = page.total;
    items.push(...page.items);
    if (page.items.length < MAX_LIMIT || items.length >= total) break;
  }
  return { items, total, complete: items.length === total && total <= MAX_ITEMS, pages };
}

/** The page of a list whose items include `item` (for a failure's exchange). */
export function pageOf(list: ResultsList, item: SimaItem): Exchange {
  const index = list.items.indexOf(item);
  return list.pages[Math.max(0, Math.floor(index / MAX_LIMIT))] ?? list.pages[0];
}

// ---------------------------------------------------------------------------------------------------------
// The filters of spec 4.2 (GET /api/sima/results; outcome, workflow and workflow_not also on /summary).

export interface FilterValue {
  param: 'outcome' | 'workflow' | 'workflow_not' | 'hs_in_scope' | 'is_stale';
  value: string;
  /** Whether a returned item satisfies the filter. */
  holds(item: SimaItem): boolean;
  /**
   * Whether the filtered list must contain the item (it is in the unfiltered list): true or false, or
   * undefined when the spec does not settle it (workflow_not on an item without a workflowStatus).
   */
  expected(item: SimaItem): boolean | undefined;
}

const exact = (param: FilterValue['param'], value: string, field: keyof SimaItem, wanted: unknown): FilterValue => ({
  param,
  value,
  holds: (item) => item[field] === wanted,
  expected: (item) => item[field] === wanted,
});

/** Every value of every results filter (spec 4.2). */
export const FILTER_VALUES: FilterValue[] = [
  ...OUTCOMES.map((value) => exact('outcome', value, 'outcome', value)),
  ...WORKFLOWS.map((value) => exact('workflow', value, 'workflowStatus', value)),
  ...WORKFLOWS.map(
    (value): FilterValue => ({
      param: 'workflow_not',
      value,
      holds: (item) => item.workflowStatus !== value,
      // "not in this workflow state": a result without a workflowStatus is not in it, but a store comparing
      // with SQL `<>` leaves nulls out; the spec does not say which, so such items are not required.
      expected: (item) => (item.workflowStatus === null || item.workflowStatus === undefined ? undefined : item.workflowStatus !== value),
    }),
  ),
  ...[true, false].map((value) => exact('hs_in_scope', String(value), 'hsInScope', value)),
  ...[true, false].map((value) => exact('is_stale', String(value), 'isStale', value)),
];

export const fieldOf: Record<FilterValue['param'], keyof SimaItem> = {
  outcome: 'outcome',
  workflow: 'workflowStatus',
  workflow_not: 'workflowStatus',
  hs_in_scope: 'hsInScope',
  is_stale: 'isStale',
};

// ---------------------------------------------------------------------------------------------------------
// A tenant with results.

export interface Screened {
  /** The job's last read (GET /api/jobs/{id}). */
  exchange?: Exchange;
  jobId: string;
  status?: string;
  settled: boolean;
  advancedSeconds: number;
}

/**
 * Enqueues a whole-catalog screening (spec 4.2: `skus: null`) and waits for it to end (the virtual clock with
 * the control API; spec 8.7 polling otherwise, up to `realMs`).
 */
export async function screenCatalog(client: ConformanceClient, admin: AdminClient | undefined, realMs?: number, screeningAuthority?: 'CA' | 'US'): Promise<Screened | Problem> {
  const enqueued = await enqueue(client, { skus: null, ...(screeningAuthority ? { screeningAuthority } : {}) });
  const jobId = receiptJobId(enqueued);
  if (!jobId) return { rule: 'enqueue-accepted', message: `POST /api/sima/batch { skus: null } answered ${enqueued.response.status}, not 202 with a jobId (spec 2.3, 4.2)`, exchange: enqueued };
  let last: Exchange | undefined;
  const settled = await settleJobs(client, [jobId], { admin, realMs: realMs ?? (admin ? 10_000 : 90_000), onRead: (_id, exchange) => (last = exchange) });
  return { exchange: last, jobId, status: settled.statuses.get(jobId), settled: settled.settled, advancedSeconds: settled.advancedSeconds };
}

export interface SimaTenant {
  client: ConformanceClient;
  /** Nothing else writes in it: its results are exactly what this check's screening produced. */
  fresh: boolean;
  tenantId?: string;
  results: ResultsList;
}

/**
 * A tenant with results to read. With writes: a fresh tenant (control API) screened in full, or the primary
 * tenant, screened in full when it has no results yet (under `screeningAuthority`, default the service's). Readonly: the
 * primary tenant as it is. Skips the check
 * when no result can be had; fails it (and returns undefined) when the setup itself breaks a rule.
 */
export async function simaTenant(ctx: CheckContext, name: string, options: { screeningAuthority?: 'CA' | 'US' } = {}): Promise<SimaTenant | undefined> {
  const writes = ctx.options.profile !== 'readonly';
  const tenant = writes ? await writeTenant(ctx, name) : { client: ctx.client, fresh: false, tenantId: undefined };
  let results = tenant.fresh ? undefined : await allResults(tenant.client, {}, ctx.admin);
  if (results && isProblem(results)) return void ctx.fail(results.rule, results.message, results.exchange);
  if (!results || results.total === 0) {
    if (!writes) ctx.skip('the tenant has no SIMA results, and the readonly profile enqueues no screening');
    const screened = await screenCatalog(tenant.client, ctx.admin, undefined, options.screeningAuthority);
    if (isProblem(screened)) return void ctx.fail(screened.rule, screened.message, screened.exchange);
    if (!screened.settled) {
      if (ctx.admin) return void ctx.fail('job-reaches-terminal', `the whole-catalog screening ${screened.jobId} is still ${screened.status ?? 'unread'} after ${screened.advancedSeconds} s of virtual time (spec 3.1)`, screened.exchange);
      ctx.skip(`the whole-catalog screening ${screened.jobId} did not end while the check waited (still ${screened.status ?? 'unread'})`);
    }
    if (screened.status !== 'COMPLETED') ctx.skip(`the whole-catalog screening ${screened.jobId} ended ${screened.status}: no results to read`);
    const after = await allResults(tenant.client, {}, ctx.admin);
    if (isProblem(after)) return void ctx.fail(after.rule, after.message, after.exchange);
    results = after;
  }
  if (results.total === 0) ctx.skip('the tenant has no SIMA results, even after a completed whole-catalog screening (an empty catalog?)');
  return { client: tenant.client, fresh: tenant.fresh, tenantId: tenant.tenantId, results };
}

/** Counts by outcome, and the sum of exposureAnnual (null counts 0). */
export function tally(items: SimaItem[]) {
  let exposure = 0;
  const counts = { AT_RISK: 0, NEEDS_REVIEW: 0, CLEARED: 0 };
  for (const item of items) {
    if (item.outcome === 'AT_RISK' || item.outcome === 'NEEDS_REVIEW' || item.outcome === 'CLEARED') counts[item.outcome]++;
    exposure += num(item.exposureAnnual) ?? 0;
  }
  return { total: items.length, ...counts, exposure };
}

export const EXPOSURE_TOLERANCE = 0.01;
