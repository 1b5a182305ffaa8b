// The SIMA checks (spec 2.4, 4.2) and the journey of workflow A (journeys.a) proved on a small spec-correct stub: they pass on it in the
// simulator and sandbox profiles, skip with reasons in readonly on an empty tenant, and each fails on a
// variant of the stub that breaks the one rule it asserts. Then against the simulator itself.
//
// The stub serves JSON only (testing/stub-target.ts), so a thin proxy in front of it turns the report's CSV,
// which the stub hands over wrapped in JSON, into a text/csv response.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../contracts/generated/index.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport, TargetOptions } from '../harness/types.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';
import { startStub, stubError, type StubRequest, type StubResponse, type StubRoute, type StubTarget } from '../testing/stub-target.js';
import { journeyA } from '../journeys/index.js';
import { simaChecks } from './sima/index.js';

// ---------------------------------------------------------------------------------------------------------
// The stub: POST /api/catalog/upload and /api/sima/batch (jobs end at once), GET /api/jobs/{id}, and the SIMA
// read endpoints.

type Defect =
  | 'job-stuck' // jobs never leave PROCESSING
  | 'job-outcomes-off' // the job reports one AT_RISK more than it recorded
  | 'filter-ignored' // hs_in_scope is ignored
  | 'cursor-repeats-row' // each next cursor starts one row early
  | 'garbage-cursor-accepted' // an unknown cursor reads as the first page
  | 'summary-exposure-off' // totalExposure is 1 more than the sum
  | 'cleared-exposure' // CLEARED results carry an exposure
  | 'combined-rate-off' // combinedRate is adRate alone
  | 'exposure-not-percent' // exposureAnnual is listed 100 times the evidence's value x combinedRate / 100
  | 'evidence-leaks' // evidence is looked up in every tenant
  | 'evidence-wrong-sku' // evidence answers with the tenant's first result, whatever the SKU
  | 'unknown-evidence-served' // an unknown SKU's evidence is the tenant's first result
  | 'report-other-tenant' // the JSON report names another tenant
  | 'csv-no-header' // the CSV has no header row
  | 'flagged-includes-cleared' // filter=flagged keeps CLEARED rows
  | 'listed-whole-catalog' // a batch with a list of skus screens the whole catalog
  | 'authority-default-us'; // an omitted or blank screeningAuthority screens under US

const CSV_MARKER = '__stubCsv';

/** A stub's SIMA result: the contract's SimaResult with every field present. */
type Item = Required<Schema<'SimaResult'>>;

type Screening = Pick<Item, 'outcome' | 'workflowStatus' | 'hsInScope' | 'isStale' | 'exposureAnnual' | 'adRate' | 'cvdRate' | 'combinedRate'>;

/** Every tenant's catalog: these SKUs (shared, like the sandbox's sample catalog), plus one of its own. */
const CATALOG: Record<string, Screening> = {
  'AR-SOFA-CN': { outcome: 'AT_RISK', workflowStatus: 'OPEN', hsInScope: true, isStale: false, exposureAnnual: 1500.25, adRate: 10.5, cvdRate: 4.5, combinedRate: 15 },
  'AR-NAIL-CN': { outcome: 'AT_RISK', workflowStatus: 'ACCEPTED', hsInScope: true, isStale: false, exposureAnnual: null, adRate: 20, cvdRate: null, combinedRate: 20 },
  'AR-WIRE-CN': { outcome: 'AT_RISK', workflowStatus: 'OPEN', hsInScope: true, isStale: true, exposureAnnual: 800.1, adRate: 8, cvdRate: 0, combinedRate: 8 },
  'NR-REBAR': { outcome: 'NEEDS_REVIEW', workflowStatus: 'OPEN', hsInScope: true, isStale: false, exposureAnnual: null, adRate: null, cvdRate: null, combinedRate: null },
  'NR-NOHS': { outcome: 'NEEDS_REVIEW', workflowStatus: 'DISMISSED', hsInScope: false, isStale: false, exposureAnnual: null, adRate: null, cvdRate: null, combinedRate: null },
  'CL-TEE': { outcome: 'CLEARED', workflowStatus: null, hsInScope: false, isStale: false, exposureAnnual: null, adRate: null, cvdRate: null, combinedRate: null },
  'CL-LAPTOP': { outcome: 'CLEARED', workflowStatus: null, hsInScope: false, isStale: true, exposureAnnual: 0, adRate: null, cvdRate: null, combinedRate: null },
  'CL-ORIGIN': { outcome: 'CLEARED', workflowStatus: 'OVERRIDDEN', hsInScope: true, isStale: false, exposureAnnual: null, adRate: null, cvdRate: null, combinedRate: null },
};
const ownSku = (tenantId: string) => `AR-OWN-${tenantId.slice(0, 8).toUpperCase()}`;
const OWN: Screening = { outcome: 'AT_RISK', workflowStatus: 'OPEN', hsInScope: true, isStale: false, exposureAnnual: 250.5, adRate: 5, cvdRate: 5.01, combinedRate: 10.01 };
/** The annual import values behind the AT_RISK exposures above: value x combinedRate / 100, to the cent. */
const IMPORT_VALUE: Record<string, number> = { 'AR-SOFA-CN': 10001.67, 'AR-WIRE-CN': 10001.25 };
const OWN_IMPORT_VALUE = 2502.5;

const cuid = () => `c${randomUUID().replace(/-/g, '').slice(0, 24)}`;
const FILTERED_PARAMS = ['outcome', 'workflow', 'workflow_not', 'hs_in_scope', 'is_stale'] as const;

function simaStub(defect?: Defect): StubRoute {
  /** tenantId -> sku -> latest result, tenants in the order they first screened. */
  const results = new Map<string, Map<string, Item>>();
  const jobs = new Map<string, { tenantId: string; body: Record<string, unknown> }>();
  /** tenantId -> SKUs its catalog uploads added. */
  const uploaded = new Map<string, string[]>();

  const screen = (tenantId: string, listed: string[] | null, sentAuthority: unknown) => {
    const skus = defect === 'listed-whole-catalog' ? null : listed;
    // spec 4.2: omitted or blank means CA. Under US an AT_RISK SKU names a US measure (its rates stay, so the
    // exposure arithmetic holds under either authority).
    const authority = String(sentAuthority ?? '').trim().toUpperCase() || (defect === 'authority-default-us' ? 'US' : 'CA');
    const own = Object.fromEntries((uploaded.get(tenantId) ?? []).map((sku) => [sku, CATALOG['CL-TEE']]));
    const catalog: Record<string, Screening> = { ...CATALOG, ...own, [ownSku(tenantId)]: OWN };
    const requested = skus ?? Object.keys(catalog);
    const mine = results.get(tenantId) ?? new Map<string, Item>();
    results.set(tenantId, mine);
    const outcomes = { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 };
    let screened = 0;
    const now = new Date().toISOString();
    for (const sku of requested) {
      const s = catalog[sku];
      if (!s) continue;
      screened++;
      outcomes[s.outcome === 'AT_RISK' ? 'atRisk' : s.outcome === 'NEEDS_REVIEW' ? 'needsReview' : 'cleared']++;
      const cleared = s.outcome === 'CLEARED';
      mine.set(sku, {
        id: cuid(), sku, outcome: s.outcome, status: s.outcome, workflowStatus: s.workflowStatus, reasonCode: null, measureCode: authority === 'US' && s.outcome === 'AT_RISK' ? 'US-AD-CVD' : null,
        hsInScope: s.hsInScope, currentHs: '9401.40.00', correctedHs: null, countryOfOrigin: 'CN', materialType: null, confidence: 0.9,
        evidence: null, analysisDate: now, simaConfigVersion: '2026.11.1', needsReviewSince: s.outcome === 'NEEDS_REVIEW' ? now : null,
        isStale: s.isStale, exposureAnnual: cleared && defect === 'cleared-exposure' ? 1234 : defect === 'exposure-not-percent' && s.exposureAnnual ? s.exposureAnnual * 100 : s.exposureAnnual,
        adRate: s.adRate, cvdRate: s.cvdRate, combinedRate: defect === 'combined-rate-off' && s.cvdRate ? s.adRate : s.combinedRate,
        caseNumber: null, hasRestrictedComponents: false, missingAttributes: [],
      });
    }
    if (defect === 'job-outcomes-off') outcomes.atRisk++;
    return {
      result: {},
      reconciliation: { rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: screened, skusScreened: screened, skusNotApplicable: requested.length - screened },
      outcomes,
    };
  };

  const listOf = (tenantId: string) => [...(results.get(tenantId)?.values() ?? [])].sort((a, b) => a.sku.localeCompare(b.sku));

  const filtered = (tenantId: string, query: URLSearchParams, params: readonly string[]) =>
    listOf(tenantId).filter((item) =>
      params.every((param) => {
        const value = query.get(param);
        if (value === null) return true;
        switch (param) {
          case 'outcome': return item.outcome === value;
          case 'workflow': return item.workflowStatus === value;
          case 'workflow_not': return item.workflowStatus !== value;
          case 'hs_in_scope': return defect === 'filter-ignored' || String(item.hsInScope) === value;
          case 'is_stale': return String(item.isStale) === value;
          default: return true;
        }
      }),
    );

  const encodeCursor = (start: number) => Buffer.from(JSON.stringify({ start })).toString('base64url');
  const decodeCursor = (cursor: string): number | undefined => {
    try {
      const start = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')).start;
      return Number.isInteger(start) && start >= 0 ? start : undefined;
    } catch {
      return undefined;
    }
  };

  return async (request: StubRequest): Promise<StubResponse | undefined> => {
    const tenant = request.tenant;
    if (!tenant) return stubError(401, 'INVALID_TOKEN', 'bearer required');
    const tenantId = tenant.tenantId;
    const q = request.query;

    if (request.method === 'POST' && request.path === '/api/sima/batch') {
      const body = request.body.length ? JSON.parse(request.body.toString('utf8')) : {};
      const jobId = randomUUID();
      const now = new Date().toISOString();
      jobs.set(jobId, {
        tenantId,
        body: { id: jobId, type: 'sima_validation', status: 'COMPLETED', progress: 100, ...screen(tenantId, body.skus ?? null, body.screeningAuthority), skippedRows: { counts: null, sample: null }, warnings: null, error: null, createdAt: now, updatedAt: now },
      });
      return { status: 202, body: { jobId, status: 'PENDING', message: 'SIMA screening batch accepted', replayed: false } };
    }
    if (request.method === 'POST' && request.path === '/api/catalog/upload') {
      // The catalog file's rows (between its `sku,...` header and the multipart boundary) join the tenant's
      // catalog as CLEARED SKUs: what the sandbox's catalog adapter does (the simulator profile judges it).
      const lines = request.body.toString('utf8').split(/\r?\n/);
      const rows = lines.slice(lines.findIndex((line) => line.startsWith('sku,')) + 1);
      const skus = rows.slice(0, rows.findIndex((line) => line.startsWith('--'))).map((line) => line.split(',')[0]).filter(Boolean);
      uploaded.set(tenantId, [...(uploaded.get(tenantId) ?? []), ...skus]);
      const jobId = randomUUID();
      const now = new Date().toISOString();
      const reconciliation = { rowsUploaded: skus.length, rowsSkipped: 0, rowsDeduplicated: 0, skusFound: skus.length, skusScreened: 0, skusNotApplicable: 0 };
      jobs.set(jobId, {
        tenantId,
        body: { id: jobId, type: 'catalog_upload', status: 'COMPLETED', progress: 100, result: {}, reconciliation, skippedRows: { counts: null, sample: null }, warnings: null, outcomes: { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 }, error: null, createdAt: now, updatedAt: now },
      });
      return { status: 202, body: { jobId, status: 'PENDING', message: 'catalog upload accepted', replayed: false, fileName: 'catalog.csv', sourceAdapter: 'catalog-excel' } };
    }
    const job = /^\/api\/jobs\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && job) {
      const found = jobs.get(job[1]);
      if (!found || found.tenantId !== tenantId) return stubError(404, 'NOT_FOUND', 'job not found');
      return { status: 200, body: defect === 'job-stuck' ? { ...found.body, status: 'PROCESSING', progress: 50 } : found.body };
    }
    if (request.method !== 'GET') return undefined;

    if (request.path === '/api/sima/results') {
      const limit = Number(q.get('limit') ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return stubError(400, 'INVALID_REQUEST', 'limit must be 1..1000', { field: 'limit' });
      const cursor = q.get('cursor');
      let start = Number(q.get('offset') ?? 0);
      if (cursor !== null) {
        const decoded = decodeCursor(cursor);
        if (decoded === undefined && defect !== 'garbage-cursor-accepted') return stubError(400, 'INVALID_REQUEST', 'unknown cursor', { field: 'cursor' });
        start = decoded ?? 0;
      }
      const all = filtered(tenantId, q, FILTERED_PARAMS);
      const end = start + limit;
      const hasMore = end < all.length;
      return {
        status: 200,
        body: {
          outcomes: all.slice(start, end), total: all.length, limit, ...(cursor === null ? { offset: start } : {}),
          cursor: hasMore ? encodeCursor(defect === 'cursor-repeats-row' ? end - 1 : end) : null, hasMore,
        },
      };
    }
    if (request.path === '/api/sima/summary') {
      const all = filtered(tenantId, q, ['outcome', 'workflow', 'workflow_not']);
      const exposure = all.reduce((sum, item) => sum + (item.exposureAnnual ?? 0), 0);
      return {
        status: 200,
        body: {
          totalSkus: all.length, atRisk: all.filter((i) => i.outcome === 'AT_RISK').length, needsReview: all.filter((i) => i.outcome === 'NEEDS_REVIEW').length,
          totalExposure: Math.round(exposure * 100) / 100 + (defect === 'summary-exposure-off' ? 1 : 0),
        },
      };
    }
    const evidence = /^\/api\/sima\/results\/([^/]+)\/evidence$/.exec(request.path);
    if (evidence) {
      const sku = decodeURIComponent(evidence[1]);
      const owners = defect === 'evidence-leaks' ? [...results.values()] : [results.get(tenantId) ?? new Map<string, Item>()];
      const first = listOf(tenantId)[0];
      let item = owners.map((m) => m.get(sku)).find((i) => i !== undefined);
      if (defect === 'evidence-wrong-sku' || (defect === 'unknown-evidence-served' && !item)) item = first;
      if (!item) return stubError(404, 'NOT_FOUND', `no SIMA result for SKU ${sku}`);
      // The sandbox's exposure object: the formula's inputs beside the result (sima.exposure-believable, simulator profile).
      const exposure = { annualImportValue: IMPORT_VALUE[item.sku] ?? (item.sku.startsWith('AR-OWN-') ? OWN_IMPORT_VALUE : null), combinedRate: item.combinedRate, exposureAnnual: item.exposureAnnual };
      return { status: 200, body: { result: item, classification: { currentHs: item.currentHs }, attributes: {}, measureApplicability: {}, thresholds: {}, exposure, history: [], auditTrail: [] } };
    }
    if (request.path === '/api/sima/report') {
      const format = q.get('format') ?? 'json';
      const filter = q.get('filter');
      const status = q.get('status');
      const rows = listOf(tenantId).filter(
        (i) =>
          (filter !== 'flagged' || i.outcome !== 'CLEARED' || defect === 'flagged-includes-cleared') &&
          (filter !== 'covered' || i.hsInScope) &&
          (status === null || i.status === status),
      );
      if (format === 'csv') {
        const lines = rows.map((i) => [i.sku, i.outcome, i.workflowStatus ?? '', i.exposureAnnual ?? ''].join(','));
        const text = [...(defect === 'csv-no-header' ? [] : ['sku,outcome,workflowStatus,exposureAnnual']), ...lines].join('\n') + '\n';
        return { status: 200, body: { [CSV_MARKER]: text } };
      }
      return {
        status: 200,
        body: {
          generatedAt: new Date().toISOString(), tenantId: defect === 'report-other-tenant' ? randomUUID() : tenantId, configVersion: '2026.11.1', totalOutcomes: rows.length,
          outcomes: rows.map((i) => ({ sku: i.sku, outcome: i.outcome, workflowStatus: i.workflowStatus })),
        },
      };
    }
    return undefined;
  };
}

/** A proxy in front of the stub: forwards everything, and answers the CSV the stub wraps in JSON as text/csv. */
async function csvProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(upstream + (req.url ?? '/'), { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const text = await answer.text();
    let wrapped: unknown;
    try {
      wrapped = JSON.parse(text)?.[CSV_MARKER];
    } catch {
      wrapped = undefined;
    }
    if (typeof wrapped === 'string') {
      res.writeHead(answer.status, { 'content-type': 'text/csv; charset=utf-8' });
      return res.end(wrapped);
    }
    const type = answer.headers.get('content-type');
    res.writeHead(answer.status, type ? { 'content-type': type } : {});
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------

/** The SIMA checks and the journey of workflow A, first: in the sandbox profile it screens the primary tenant. */
// sima.review-survives-rescreen holds the sandbox's own review rule through a control route this stub does not
// serve (the simulator self-test holds it: defect sima.rescreen-resets-review).
const CHECKS = [journeyA, ...simaChecks.filter((check) => check.id !== 'sima.review-survives-rescreen')];
const IDS = CHECKS.map((c) => c.id);

const summary = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');

interface SimaStub {
  stub: StubTarget;
  url: string;
  /** Simulator profile through the proxy (the control API too). */
  options(extra?: Partial<TargetOptions>): TargetOptions;
  /** An integration key of a tenant created through the stub's control API. */
  newTenantKey(): Promise<string>;
}

async function withSimaStub<T>(defect: Defect | undefined, body: (target: SimaStub) => Promise<T>): Promise<T> {
  const stub = await startStub(simaStub(defect), { label: 'sima' });
  const proxy = await csvProxy(stub.url);
  try {
    return await body({
      stub,
      url: proxy.url,
      options: (extra = {}) => stub.options({ baseUrl: proxy.url, ...extra }),
      async newTenantKey() {
        const res = await fetch(`${stub.url}/_sim/tenants`, { method: 'POST', headers: { authorization: `Bearer ${stub.adminToken}`, 'content-type': 'application/json' }, body: '{}' });
        return ((await res.json()) as { integrationKey: string }).integrationKey;
      },
    });
  } finally {
    await proxy.close();
    await stub.close();
  }
}

describe('SIMA checks on a spec-correct stub', () => {
  it('pass in the simulator profile (fresh tenants through the control API)', async () => {
    const report = await withSimaStub(undefined, (target) => runSuite(target.options(), CHECKS));
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
  }, 30_000);

  it('pass in the sandbox profile with the primary key and a second key (the primary tenant is screened first)', async () => {
    const report = await withSimaStub(undefined, async (target) =>
      runSuite(target.options({ profile: 'sandbox', adminToken: undefined, secondApiKey: await target.newTenantKey() }), CHECKS),
    );
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
  }, 60_000);

  it('skip in the readonly profile on a tenant without results, saying why', async () => {
    const report = await withSimaStub(undefined, (target) => runSuite(target.options({ profile: 'readonly', adminToken: undefined }), CHECKS));
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'skipped'));
    const reasons = Object.fromEntries(report.results.map((r) => [r.id, r.reason]));
    expect(reasons['journeys.a']).toMatch(/readonly sends no writes/);
    expect(reasons['sima.evidence-isolated']).toMatch(/--second-api-key/);
    expect(reasons['sima.results-filters-hold']).toMatch(/no SIMA results.*readonly/);
  }, 30_000);

  it('read a readonly tenant that has results, without writing', async () => {
    const report = await withSimaStub(undefined, async (target) => {
      await runSuite(target.options({ profile: 'sandbox', adminToken: undefined, only: ['journeys.a'] }), CHECKS); // screens the primary tenant
      return runSuite(target.options({ profile: 'readonly', adminToken: undefined }), CHECKS);
    });
    const verdicts = Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));
    expect(verdicts, summary(report)).toEqual({ ...Object.fromEntries(IDS.map((id) => [id, 'passed'])), 'journeys.a': 'skipped', 'sima.evidence-isolated': 'skipped', 'sima.evidence-current-result': 'skipped', 'sima.listed-skus-screened': 'skipped', 'sima.authority-defaults-to-ca': 'skipped' });
    expect(report.results.flatMap((r) => r.failures)).toEqual([]);
  }, 30_000);
});

/**
 * Each variant breaks one rule: the check meant for it fails with that rule (every failure with its exchange),
 * and every other check passes, except those named as also seeing the defect.
 */
const VARIANTS: Array<[Defect, string, string, string[]?]> = [
  // Every check screens a catalog first: a stuck job stops them all.
  ['job-stuck', 'journeys.a', 'job-reaches-terminal', IDS.filter((id) => id !== 'journeys.a')],
  ['job-outcomes-off', 'journeys.a', 'journey-outcomes-match-results'],
  ['filter-ignored', 'sima.results-filters-hold', 'results-filter-holds'],
  ['cursor-repeats-row', 'sima.results-cursor-walks-once', 'cursor-no-repeats'],
  ['garbage-cursor-accepted', 'sima.results-cursor-walks-once', 'cursor-garbage-rejected'],
  ['summary-exposure-off', 'sima.summary-matches-results', 'summary-total-exposure'],
  ['cleared-exposure', 'sima.exposure-believable', 'cleared-no-exposure'],
  ['combined-rate-off', 'sima.exposure-believable', 'combined-rate-sum'],
  // The summary sums the listed exposures: it agrees with them.
  ['exposure-not-percent', 'sima.exposure-believable', 'exposure-formula'],
  // Earlier checks' tenants hold the same SKUs: the leak also shows in the first tenant's own evidence.
  ['evidence-leaks', 'sima.evidence-isolated', 'tenant-isolation', ['sima.evidence-served']],
  // Both also serve the second tenant evidence for the SKU only the first tenant has.
  ['evidence-wrong-sku', 'sima.evidence-served', 'evidence-of-sku', ['sima.evidence-isolated']],
  ['unknown-evidence-served', 'sima.evidence-served', 'error-status', ['sima.evidence-isolated']],
  ['report-other-tenant', 'sima.report-formats', 'report-tenant'],
  ['csv-no-header', 'sima.report-formats', 'report-csv-header'],
  ['listed-whole-catalog', 'sima.listed-skus-screened', 'unlisted-sku-screened'],
  ['authority-default-us', 'sima.authority-defaults-to-ca', 'authority-default-ca'],
  ['flagged-includes-cleared', 'sima.report-formats', 'report-flagged-only'],
];

describe('each SIMA check fails on a stub that breaks its rule', () => {
  it.each(VARIANTS)('%s: %s fails with %s', async (defect, id, rule, also = []) => {
    const report = await withSimaStub(defect, (target) => runSuite(target.options(), CHECKS));
    const result = report.results.find((r) => r.id === id)!;
    expect(result.verdict, summary(report)).toBe('failed');
    expect(result.failures.map((f) => f.rule), summary(report)).toContain(rule);
    expect(result.failures.every((f) => f.exchange !== undefined), summary(report)).toBe(true);
    const others = report.results.filter((r) => r.id !== id && !also.includes(r.id) && r.verdict !== 'passed');
    expect(others.map((r) => r.id), summary(report)).toEqual([]);
    for (const other of also) expect(report.results.find((r) => r.id === other)!.verdict, summary(report)).toBe('failed');
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------------------

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'sima-test' });
});
afterAll(async () => {
  await target?.close();
});

describe('SIMA checks against the simulator', () => {
  it('pass', async () => {
    const report = await runSuite(target.options(), CHECKS);
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
  }, 60_000);
});
