// Fair and sound where the spec leaves the choice open: deployments that differ from the simulator ONLY in a
// part the contract marks sandbox-defined (contracts/README.md, "Vendor extensions") pass the checks that
// read that part, in the `sandbox` profile; the same deployments with a part the spec FIXES broken the same
// way fail them. Each deployment is the simulator behind a rewriting proxy (testing/rewriting-proxy.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObject } from '../../contracts/lib/bundle.js';
import type { Check } from '../harness/check.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport, TargetOptions } from '../harness/types.js';
import { startRewritingProxy, type ProxiedAnswer, type ProxiedRequest, type Rewrite } from '../testing/rewriting-proxy.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';
import { checksFor } from './index.js';

const contract = loadTargetContract('v1.3.0');
const CHECKS: Check[] = checksFor(contract);

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'variants-test' });
}, 120_000);
afterAll(async () => {
  await target?.close();
});

const lines = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''} ${r.failures.map((f) => `[${f.rule}] ${f.message}`).join(' | ').slice(0, 500)}`);

/** The verdict of each check of `ids`, run against the simulator behind `rewrite`. */
async function verdicts(rewrite: Rewrite, ids: string[], extra: Partial<TargetOptions> = {}): Promise<{ verdicts: Record<string, string>; report: RunReport }> {
  const proxy = await startRewritingProxy(target.url, rewrite);
  try {
    const options = target.options({ baseUrl: proxy.url, adminUrl: target.url, profile: 'sandbox', adminToken: undefined, only: ids, ...extra });
    const report = await runSuite(options, CHECKS);
    return { verdicts: Object.fromEntries(report.results.map((r) => [r.id, r.verdict])), report };
  } finally {
    await proxy.close();
  }
}

const on = (method: string, path: RegExp, answer: ProxiedAnswer) => answer.method === method && path.test(answer.path) && answer.status === 200 && isObject(answer.body);
const renamed = (body: Record<string, unknown>, from: string, to: string) => {
  const { [from]: value, ...rest } = body;
  return { ...rest, [to]: value };
};

// ---- another page key where the spec does not name it (4.4 "SKU page", "issue page"; 4.5 finding page) ----
const FEED_PAGE = /^\/api\/trade\/feeds\/[^/]+\/(skus|issues)$/;
const pageKeys: Rewrite = {
  response(answer) {
    if (on('GET', /^\/api\/ship\/findings$/, answer)) return renamed(answer.body as Record<string, unknown>, 'findings', 'items');
    if (on('GET', FEED_PAGE, answer)) return renamed(answer.body as Record<string, unknown>, answer.path.endsWith('/skus') ? 'skus' : 'issues', 'data');
    return undefined;
  },
};
// ... and the spec's own key renamed the same way: the submissions list is `{ submissions, ... }` (2.7).
const submissionsKey: Rewrite = {
  response: (answer) => (on('GET', /^\/api\/ship\/claims\/submissions$/, answer) ? renamed(answer.body as Record<string, unknown>, 'submissions', 'items') : undefined),
};

// ---- another status-count shape (4.5 "with status counts"), and none at all ----
const countsAsRows: Rewrite = {
  response(answer) {
    if (!on('GET', /^\/api\/ship\/findings$/, answer)) return undefined;
    const { statusCounts, ...rest } = answer.body as Record<string, unknown>;
    return { ...rest, summary: { byStatus: Object.entries(statusCounts as Record<string, number>).map(([status, count]) => ({ status: status.toLowerCase(), count })) } };
  },
};
const countsDropped: Rewrite = {
  response(answer) {
    if (!on('GET', /^\/api\/ship\/findings$/, answer)) return undefined;
    const { statusCounts: _dropped, ...rest } = answer.body as Record<string, unknown>;
    return rest;
  },
};

// ---- another breakdown shape (4.6 rule 8), and the spec's `status` renamed ----
const LANDED_COST = /^\/api\/trade\/landed-cost$/;
const breakdownAsLines: Rewrite = {
  response(answer) {
    if (!on('POST', LANDED_COST, answer)) return undefined;
    const body = answer.body as Record<string, unknown>;
    if (!isObject(body.breakdown)) return undefined;
    const b = body.breakdown as Record<string, unknown>;
    return { ...body, breakdown: { lines: Object.entries(b).filter(([, v]) => typeof v === 'number').map(([kind, amount]) => ({ kind, amount })), currencyCode: b.currency } };
  },
};
const statusRenamed: Rewrite = {
  response: (answer) => (on('POST', LANDED_COST, answer) ? renamed(answer.body as Record<string, unknown>, 'status', 'quoteStatus') : undefined),
};

// ---- another cursor encoding (2.4: a string), and a cursor the server then refuses ----
const RESULTS = /^\/api\/sima\/results$/;
const PREFIX = 'opaque.v2.';
const encode = (cursor: string) => PREFIX + Buffer.from(cursor).toString('base64url') + '.'.padEnd(600, 'z');
const decodeQuery = (request: ProxiedRequest): Partial<ProxiedRequest> | undefined => {
  const url = new URL(request.url, 'http://proxy.invalid');
  const cursor = url.searchParams.get('cursor');
  if (url.pathname !== '/api/sima/results' || !cursor?.startsWith(PREFIX)) return undefined;
  url.searchParams.set('cursor', Buffer.from(cursor.slice(PREFIX.length).split('.')[0], 'base64url').toString());
  return { url: url.pathname + url.search };
};
const encodeAnswer = (answer: ProxiedAnswer) => {
  if (!on('GET', RESULTS, answer)) return undefined;
  const body = answer.body as Record<string, unknown>;
  return typeof body.cursor === 'string' ? { ...body, cursor: encode(body.cursor) } : undefined;
};
const longCursor: Rewrite = { request: decodeQuery, response: encodeAnswer };
const cursorNotHonoured: Rewrite = { response: encodeAnswer };

// ---- extra response fields (9.3: additive), and a spec-required field taken away ----
// On the body and on the records of its lists (not inside maps the spec types, such as `skippedRows.counts`,
// "object of integers", where another value would break 2.2).
const EXTRA = { vendorTrace: { region: 'eu-west', build: 7 } };
const record = (value: unknown) => (isObject(value) ? { ...value, ...EXTRA } : value);
const withExtras = (value: unknown): unknown => (isObject(value) ? Object.fromEntries([...Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v.map(record) : v]), ...Object.entries(EXTRA)]) : value);
const extraFields: Rewrite = { response: (answer) => (answer.status < 400 && !answer.path.startsWith('/_sim') ? withExtras(answer.body) : undefined) };
const hasMoreDropped: Rewrite = {
  response(answer) {
    if (!on('GET', /^\/api\/ship\/claims\/submissions$/, answer)) return undefined;
    const { hasMore: _dropped, ...rest } = answer.body as Record<string, unknown>;
    return rest;
  },
};

// ---- a raised length cap (the contract's bounds on request strings are ours), and the spec's limit raised ----
const CAPPED: Record<string, number> = { notes: 2000, reason: 2000, description: 2000, carrier: 64, externalReference: 200, source: 200, referenceId: 200, hsCode: 32 };
const clip = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(clip) : isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && k in CAPPED ? v.slice(0, CAPPED[k]) : clip(v)])) : value;
const raisedCaps: Rewrite = {
  request(request) {
    if (!String(request.headers['content-type'] ?? '').includes('json') || !request.body.length) return undefined;
    try {
      return { body: Buffer.from(JSON.stringify(clip(JSON.parse(request.body.toString())))) };
    } catch {
      return undefined;
    }
  },
};
const raisedLimit: Rewrite = {
  request(request) {
    const url = new URL(request.url, 'http://proxy.invalid');
    const limit = Number(url.searchParams.get('limit'));
    if (url.pathname !== '/api/ship/findings' || !(limit > 500)) return undefined;
    url.searchParams.set('limit', '500');
    return { url: url.pathname + url.search };
  },
};

const passed = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 'passed']));

describe('deployments differing from the simulator only where the spec leaves the choice open', () => {
  it('another page key for the finding, SKU and issue pages passes the checks that read them', async () => {
    const ids = ['operations.listFindings.accepts-valid-input', 'operations.listTradeFeedSkus.accepts-valid-input', 'operations.listTradeFeedIssues.accepts-valid-input', 'ship.findings-list-filters', 'ship.findings-traversal', 'trade.feed-issues'];
    const { verdicts: got, report } = await verdicts(pageKeys, ids);
    expect(got, lines(report).join('\n')).toEqual(passed(ids));
  });

  it('...while renaming the spec\'s `submissions` key the same way fails', async () => {
    const { verdicts: got, report } = await verdicts(submissionsKey, ['operations.listClaimSubmissions.accepts-valid-input']);
    expect(got['operations.listClaimSubmissions.accepts-valid-input'], lines(report).join('\n')).toBe('failed');
  });

  it('status counts as a list of rows under another key pass; a page without any status counts fails', async () => {
    const ids = ['operations.listFindings.accepts-valid-input', 'ship.findings-list-filters'];
    const variant = await verdicts(countsAsRows, ids);
    expect(variant.verdicts, lines(variant.report).join('\n')).toEqual(passed(ids));
    const broken = await verdicts(countsDropped, ['ship.findings-list-filters']);
    expect(broken.verdicts['ship.findings-list-filters'], lines(broken.report).join('\n')).toBe('failed');
    expect(broken.report.results[0].failures.map((f) => f.rule)).toContain('finding-status-counts');
  });

  it('another breakdown shape passes the landed-cost checks; the spec\'s `status` renamed fails them', async () => {
    const ids = ['operations.calculateLandedCost.accepts-valid-input', 'landed-cost.authority-follows-destination', 'landed-cost.non-usd-skips-provider'];
    const variant = await verdicts(breakdownAsLines, ids);
    expect(variant.verdicts, lines(variant.report).join('\n')).toEqual(passed(ids));
    const broken = await verdicts(statusRenamed, ids);
    expect(broken.verdicts['operations.calculateLandedCost.accepts-valid-input'], lines(broken.report).join('\n')).toBe('failed');
  });

  it('a longer cursor in another encoding passes the cursor walk; a cursor the server does not take back fails it', async () => {
    const ids = ['sima.results-cursor-walks-once', 'operations.listSimaResults.accepts-valid-input', 'operations.listSimaResults.rejects-invalid-input'];
    const variant = await verdicts(longCursor, ids);
    expect(variant.verdicts, lines(variant.report).join('\n')).toEqual(passed(ids));
    const broken = await verdicts(cursorNotHonoured, ['sima.results-cursor-walks-once']);
    expect(broken.verdicts['sima.results-cursor-walks-once'], lines(broken.report).join('\n')).toBe('failed');
  });

  it('extra fields in every answer pass; the submissions list without `hasMore` fails', async () => {
    const ids = ['operations.listFindings.accepts-valid-input', 'operations.listClaimSubmissions.accepts-valid-input', 'operations.listSimaResults.accepts-valid-input', 'operations.listJobs.accepts-valid-input', 'operations.calculateLandedCost.accepts-valid-input'];
    const variant = await verdicts(extraFields, ids);
    expect(variant.verdicts, lines(variant.report).join('\n')).toEqual(passed(ids));
    const broken = await verdicts(hasMoreDropped, ['operations.listClaimSubmissions.accepts-valid-input']);
    expect(broken.verdicts['operations.listClaimSubmissions.accepts-valid-input'], lines(broken.report).join('\n')).toBe('failed');
  });

  it('raised caps on request strings pass in the sandbox profile and fail in the simulator profile (our own bounds); a raised spec limit fails', async () => {
    const ids = ['operations.createClaimSubmission.rejects-invalid-input', 'operations.submitClaimSubmission.rejects-invalid-input', 'operations.confirmClaimSubmissionCredit.rejects-invalid-input', 'operations.calculateLandedCost.rejects-invalid-input'];
    const variant = await verdicts(raisedCaps, ids);
    expect(variant.verdicts, lines(variant.report).join('\n')).toEqual(passed(ids));
    const own = await verdicts(raisedCaps, ids, { profile: 'simulator', adminToken: target.adminToken });
    expect(Object.values(own.verdicts), lines(own.report).join('\n')).toContain('failed');
    const broken = await verdicts(raisedLimit, ['operations.listFindings.rejects-invalid-input']);
    expect(broken.verdicts['operations.listFindings.rejects-invalid-input'], lines(broken.report).join('\n')).toBe('failed');
  });
});
