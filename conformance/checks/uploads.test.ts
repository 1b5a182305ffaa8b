// The upload checks (spec 4.3, 7, 8.3) proved on a small spec-correct stub server: they pass on it, and each
// fails on a variant of the stub that breaks the one rule it asserts. Against the simulator, whose upload
// domain is not built yet, they fail on its 501 NOT_IMPLEMENTED, except the size cap, which its body parser
// already enforces before the route; when the domain lands that test flips and must expect passes.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/runner.js';
import type { RunReport, TargetOptions } from '../harness/types.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';
import { startStub, stubError, type StubRequest, type StubResponse, type StubRoute, type StubTarget } from '../testing/stub-target.js';
import { uploadChecks } from './uploads.js';

// ---------------------------------------------------------------------------------------------------------
// The stub: the five uploads of spec 4.3 and the feed upload of 4.4, and GET /api/jobs/{id}.

type Defect = 'size-cap-off-by-one' | 'any-extension' | 'no-duplicate-detection' | 'duplicate-names-other-job' | 'wrong-job-type';

const CAP = 50 * 1024 * 1024; // spec 8.3
const UPLOADS: Record<string, { type: string; accepted: string[]; receipt: 'upload' | 'catalog' | 'ship' | 'order' | 'feed'; duplicates?: boolean; scope?: string; required?: string[] }> = {
  '/api/upload': { type: 'sima_validation', accepted: ['.csv', '.xlsx', '.xls'], receipt: 'upload' },
  '/api/catalog/upload': { type: 'catalog_upload', accepted: ['.xlsx', '.xls', '.csv'], receipt: 'catalog' },
  '/api/ship/upload': { type: 'ship_upload', accepted: ['.csv', '.xlsx'], receipt: 'ship', duplicates: true },
  '/api/orders/upload': { type: 'order_upload', accepted: ['.csv', '.xlsx'], receipt: 'order', duplicates: true },
  '/api/carrier/agreements/upload': { type: 'carrier_agreement_upload', accepted: ['.pdf', '.csv', '.xlsx'], receipt: 'ship', duplicates: true, scope: 'ship:upload' },
  '/api/trade/feeds/upload': { type: 'catalog_upload', accepted: ['.csv', '.xlsx', '.xls'], receipt: 'feed', required: ['originCountry', 'defaultDestinationCountry'] },
};

function uploadStub(defect?: Defect): StubRoute {
  const jobs = new Map<string, { tenantId: string; type: string; fileName: string; createdAt: string }>();
  const uploaded = new Map<string, { jobId: string; uploadedAt: string }>();
  return async (request: StubRequest): Promise<StubResponse | undefined> => {
    const job = /^\/api\/jobs\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && job) {
      if (!request.tenant) return stubError(401, 'INVALID_TOKEN', 'bearer required');
      const found = jobs.get(job[1]);
      if (!found || found.tenantId !== request.tenant.tenantId) return stubError(404, 'NOT_FOUND', 'job not found');
      return {
        status: 200,
        body: {
          id: job[1], type: found.type, status: 'PENDING', progress: 0, fileName: found.fileName, result: {},
          reconciliation: { rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 },
          skippedRows: { counts: null, sample: null }, warnings: null, outcomes: { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 },
          error: null, createdAt: found.createdAt, updatedAt: found.createdAt,
        },
      };
    }
    const spec = UPLOADS[request.path];
    if (request.method !== 'POST' || !spec) return undefined;
    const tenant = request.tenant;
    if (!tenant) return stubError(401, 'INVALID_TOKEN', 'bearer required');
    if (spec.scope && !tenant.scopes.includes(spec.scope)) return stubError(403, 'SCOPE_DENIED', `scope ${spec.scope} is required`, { required: spec.scope, provided: tenant.scopes });
    const form = await new Request('http://stub/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: new Uint8Array(request.body) }).formData();
    const file = form.get('file');
    if (!(file instanceof File)) return stubError(400, 'INVALID_REQUEST', 'file is required', { field: 'file' });
    if (file.size > CAP + (defect === 'size-cap-off-by-one' ? 1 : 0)) return stubError(413, 'FILE_TOO_LARGE', 'file exceeds the 50 MB limit', { field: 'file' });
    const extension = /\.[^.]+$/.exec(file.name.toLowerCase())?.[0] ?? '';
    if (!spec.accepted.includes(extension) && defect !== 'any-extension') return stubError(415, 'INVALID_FILE_FORMAT', `unsupported file type ${extension}`, { field: 'file' });
    for (const field of spec.required ?? []) if (!form.get(field)) return stubError(400, 'INVALID_REQUEST', `${field} is required`, { field });
    const now = new Date().toISOString();
    const hash = `${tenant.tenantId}|${request.path}|${createHash('sha256').update(Buffer.from(await file.arrayBuffer())).digest('hex')}`;
    const earlier = uploaded.get(hash);
    if (spec.duplicates && earlier && defect !== 'no-duplicate-detection') {
      return stubError(409, 'DUPLICATE_UPLOAD', 'this file was already uploaded', { existingJobId: defect === 'duplicate-names-other-job' ? randomUUID() : earlier.jobId, uploadedAt: earlier.uploadedAt });
    }
    const jobId = randomUUID();
    jobs.set(jobId, { tenantId: tenant.tenantId, type: defect === 'wrong-job-type' ? 'notification_event' : spec.type, fileName: file.name, createdAt: now });
    if (spec.duplicates) uploaded.set(hash, { jobId, uploadedAt: now });
    const base = { jobId, status: 'PENDING', fileName: file.name };
    const receipts = {
      upload: { ...base, message: 'Upload accepted', replayed: false },
      catalog: { ...base, message: 'Catalog upload accepted', replayed: false, sourceAdapter: String(form.get('sourceAdapter') ?? 'catalog-excel') },
      ship: base,
      order: { ...base, ingestMode: String(form.get('ingestMode') ?? 'PATCH') },
      feed: { sessionId: randomUUID(), jobId, status: 'UPLOADED', fileName: file.name, replayed: false },
    };
    return { status: 202, body: receipts[spec.receipt] };
  };
}

// ---------------------------------------------------------------------------------------------------------

const IDS = uploadChecks.map((c) => c.id);

const summary = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');
const verdicts = (report: RunReport) => Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));

async function withStub<T>(route: StubRoute, body: (stub: StubTarget) => Promise<T>, settings: Parameters<typeof startStub>[1] = {}): Promise<T> {
  const stub = await startStub(route, { label: 'uploads', ...settings });
  try {
    return await body(stub);
  } finally {
    await stub.close();
  }
}

const sandbox = (stub: StubTarget, extra: Partial<TargetOptions> = {}) => stub.options({ profile: 'sandbox', adminToken: undefined, ...extra });

describe('upload checks on a spec-correct stub', () => {
  it('pass in the simulator profile (tenants with the operations\' scopes through the control API)', async () => {
    const report = await withStub(uploadStub(), (stub) => runSuite(stub.options(), uploadChecks));
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
    // Every upload operation was exercised (each check: one token exchange for its tenant, then 6 receipts +
    // 6 job reads and the order upload again with the other ingestMode, 6 refusals of a type, 3 x 2
    // duplicates, 1 oversized file).
    expect(report.results.map((r) => r.requests)).toEqual([14, 7, 7, 2]);
  }, 20_000);

  it('pass in the sandbox profile with the primary key', async () => {
    const report = await withStub(uploadStub(), (stub) => runSuite(sandbox(stub), uploadChecks));
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
  }, 20_000);

  it('skip what a primary key without ship:upload cannot exercise, naming the scope', async () => {
    const report = await withStub(uploadStub(), (stub) => runSuite(sandbox(stub, { only: ['uploads.duplicate-upload', 'uploads.accepted-receipt'] }), uploadChecks), {
      primaryScopes: ['jobs:read', 'sima:write', 'trade:write'],
    });
    for (const result of report.results) {
      expect(result.verdict, summary(report)).toBe('skipped');
      expect(result.reason).toMatch(/uploadCarrierAgreement needs scope ship:upload.*403 SCOPE_DENIED/);
    }
  }, 20_000);

  it('draw the oversized upload\'s operation from the seed, and replay the same one', async () => {
    const chosen = async (seed: number) =>
      withStub(uploadStub('size-cap-off-by-one'), async (stub) => {
        const report = await runSuite(stub.options({ seed, only: ['uploads.file-too-large'] }), uploadChecks);
        const [failure] = report.results[0].failures;
        expect(failure.seed).toBe(seed);
        expect(failure.replay).toContain('--only uploads.file-too-large');
        return JSON.parse(failure.counterexample!).operation as string;
      });
    const seeds = [1, 2, 3];
    const operations = [];
    for (const seed of seeds) operations.push(await chosen(seed));
    expect(new Set(operations).size).toBeGreaterThan(1);
    expect(await chosen(seeds[0])).toBe(operations[0]);
    // Four suite runs of 3-5 s each against their stubs: 20 s was met with no margin on 2 busy cores (21.2 s once).
  }, 60_000);
});

/** Each variant breaks one rule: the check meant for it fails with that rule, the others still pass. */
const VARIANTS: Array<[Defect, string, string]> = [
  ['size-cap-off-by-one', 'uploads.file-too-large', 'error-status'],
  ['any-extension', 'uploads.unsupported-type', 'error-status'],
  ['no-duplicate-detection', 'uploads.duplicate-upload', 'error-status'],
  ['duplicate-names-other-job', 'uploads.duplicate-upload', 'duplicate-upload-details'],
  ['wrong-job-type', 'uploads.accepted-receipt', 'upload-job-type'],
];

describe('each upload check fails on a stub that breaks its rule', () => {
  it.each(VARIANTS)('%s: %s fails with %s', async (defect, id, rule) => {
    const report = await withStub(uploadStub(defect), (stub) => runSuite(stub.options(), uploadChecks));
    const result = report.results.find((r) => r.id === id)!;
    expect(result.verdict, summary(report)).toBe('failed');
    expect(result.failures.map((f) => f.rule)).toContain(rule);
    expect(result.failures.every((f) => f.exchange !== undefined)).toBe(true);
    expect(Object.entries(verdicts(report)).filter(([other, verdict]) => other !== id && verdict !== 'passed'), summary(report)).toEqual([]);
  }, 20_000);
});

// ---------------------------------------------------------------------------------------------------------

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'uploads-test' });
});
afterAll(async () => {
  await target?.close();
});

describe('upload checks against the simulator (every upload built since issue 12)', () => {
  it('pass', async () => {
    const report = await runSuite(target.options(), uploadChecks);
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
  }, 20_000);
});
