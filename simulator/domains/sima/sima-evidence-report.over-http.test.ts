// GET /api/sima/results/{sku}/evidence and GET /api/sima/report over HTTP (spec 2.4, 4.2, 7), every response
// checked against the contract: the evidence's eight keys and what they hold, tenant isolation, and the
// report as JSON and as CSV (parsed back), under `filter` and `status`.
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { SIMA_MEASURES_VERSION } from '#fixtures/catalog/sima-measures.js';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { SCREENING_CONFIDENCE } from './screening.js';
import { REPORT_CSV_COLUMNS } from './sima-report.js';
import { listAll, otherTenant, review, screen } from './sima-results.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const SOFABED = 'UDS-SOFABED-GRY-3S';
const evidenceOf = (s: TestSandbox, sku: string, token?: string) => s.call('GET', `/api/sima/results/${encodeURIComponent(sku)}/evidence`, token ? { token } : {});

describe('GET /api/sima/results/{sku}/evidence', () => {
  it('explains an AT_RISK result in eight keys: classification, attributes, measure, thresholds, exposure, history, audit trail', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const firstJob = await screen(sandbox, { skus: [SOFABED] });
    await review(sandbox, SOFABED, 'accept', 'confirmed with the broker');
    const secondJob = await screen(sandbox, { skus: [SOFABED] });
    const evidence = await evidenceOf(sandbox, SOFABED);
    expect(evidence.status).toBe(200);
    const body = evidence.body;
    expect(Object.keys(body).sort()).toEqual(['attributes', 'auditTrail', 'classification', 'exposure', 'history', 'measureApplicability', 'result', 'thresholds']);
    const [listed] = await listAll(sandbox);
    expect(body.result).toEqual(listed);
    expect(body.classification).toMatchObject({ currentHs: '9401.40.00.00', correctedHs: null, hsUsed: '9401.40.00.00', hsInScope: true, matchedTariffItem: '9401.40.00.00' });
    expect(body.attributes).toMatchObject({ productName: '3-seat sofa bed, grey fabric', countryOfOrigin: 'CN', materialType: 'upholstered', annualImportValue: 45000, currency: 'CAD', missingAttributes: [] });
    expect(body.measureApplicability).toMatchObject({ authority: 'CA', measureCode: 'UDS', caseNumber: 'UDS 2020 IN', applies: true, configVersion: SIMA_MEASURES_VERSION });
    expect(body.measureApplicability.countries).toContain('CN');
    expect(body.thresholds).toMatchObject({ confidenceByAnswer: SCREENING_CONFIDENCE, confidence: SCREENING_CONFIDENCE.atRisk, combinedRate: 188 });
    expect(body.exposure).toMatchObject({ annualImportValue: 45000, combinedRate: 188, exposureAnnual: (45000 * 188) / 100 });
    expect(body.history.map((h: { jobId: string; current: boolean }) => [h.jobId, h.current])).toEqual([
      [firstJob, false],
      [secondJob, true],
    ]);
    expect(body.auditTrail.map((e: { action: string }) => e.action)).toEqual(['RESULT_RECORDED', 'WORKFLOW_CHANGED', 'RESULT_RECORDED']);
    expect(body.auditTrail[0].actor).toBe(`sima_validation job ${firstJob}`);
    expect(body.auditTrail[1]).toMatchObject({ from: 'OPEN', to: 'ACCEPTED', review: 'accept', note: 'confirmed with the broker' });
    // The decision carried over to the new result (same answer), so the second recording starts ACCEPTED.
    expect(body.auditTrail[2]).toMatchObject({ actor: `sima_validation job ${secondJob}`, workflowStatus: 'ACCEPTED' });
  });

  it('shows no exposure and no applicable measure for a CLEARED result', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['TEE-CTN-BLK-M'] });
    const { body } = await evidenceOf(sandbox, 'TEE-CTN-BLK-M');
    expect(body.result).toMatchObject({ outcome: 'CLEARED', exposureAnnual: null });
    expect(body.measureApplicability).toMatchObject({ measureCode: null, applies: false, reasonCode: 'HS_NOT_IN_SCOPE' });
    expect(body.exposure).toMatchObject({ exposureAnnual: null, combinedRate: null, annualImportValue: 14000, currency: 'CAD' });
  });

  it("answers 404 NOT_FOUND for a SKU without a result and for another tenant's SKU", async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const other = await otherTenant(sandbox);
    await screen(sandbox, { skus: [SOFABED] });
    await screen(sandbox, { skus: ['TEE-CTN-BLK-M'] }, other);
    for (const [sku, token] of [['NO-SUCH-SKU', undefined], ['TEE-CTN-BLK-M', undefined], [SOFABED, other.token]] as const) {
      const missing = await evidenceOf(sandbox, sku, token);
      expect([missing.status, missing.body.code], sku).toEqual([404, 'NOT_FOUND']);
    }
    expect((await evidenceOf(sandbox, 'TEE-CTN-BLK-M', other.token)).status).toBe(200);
  });
});

describe('GET /api/sima/report', () => {
  it('answers JSON by default: every current result, and the exposure computation of each AT_RISK one', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: null });
    const all = await listAll(sandbox);
    const report = await sandbox.call('GET', '/api/sima/report');
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ tenantId: sandbox.identity.tenantId, configVersion: SIMA_MEASURES_VERSION, totalOutcomes: all.length });
    expect(report.body.outcomes).toEqual(all);
    const atRisk = all.filter((i) => i.outcome === 'AT_RISK');
    expect(report.body.totalExposures).toBe(atRisk.length);
    expect(report.body.exposures.map((e: { sku: string }) => e.sku)).toEqual(atRisk.map((i) => i.sku));
    for (const e of report.body.exposures.filter((x: { combinedRate: number | null }) => x.combinedRate !== null)) {
      expect(e.exposureAnnual, e.sku).toBe(Math.round(e.annualImportValue * e.combinedRate) / 100);
    }
  });

  it('answers CSV with a header row and one row per result when format=csv', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: null });
    const all = await listAll(sandbox);
    const csv = await sandbox.call('GET', '/api/sima/report?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parse(csv.text) as string[][];
    expect(header).toEqual([...REPORT_CSV_COLUMNS]);
    const records = rows.map((row) => Object.fromEntries(header.map((column, i) => [column, row[i]])));
    expect(records.map((r) => r.sku)).toEqual(all.map((i) => i.sku));
    const sofabed = records.find((r) => r.sku === SOFABED)!;
    expect(sofabed).toMatchObject({ outcome: 'AT_RISK', workflowStatus: 'OPEN', countryOfOrigin: 'CN', combinedRate: '188', cvdRate: '', exposureAnnual: '84600' });
  });

  it('keeps flagged (AT_RISK, NEEDS_REVIEW), covered (HS in scope) and status results in both formats, and refuses an unknown status', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: null });
    const all = await listAll(sandbox);
    const cases: Array<[string, (i: (typeof all)[number]) => boolean]> = [
      ['filter=flagged', (i) => i.outcome !== 'CLEARED'],
      ['filter=covered', (i) => i.hsInScope],
      ['status=%20at_risk', (i) => i.outcome === 'AT_RISK'],
      ['filter=covered&status=CLEARED', (i) => i.hsInScope && i.outcome === 'CLEARED'],
      ['filter=flagged&status=CLEARED', () => false],
    ];
    for (const [query, holds] of cases) {
      const expected = all.filter(holds).map((i) => i.sku);
      const json = await sandbox.call('GET', `/api/sima/report?${query}`);
      expect(json.body.outcomes.map((o: { sku: string }) => o.sku), query).toEqual(expected);
      const [, ...rows] = parse((await sandbox.call('GET', `/api/sima/report?format=csv&${query}`)).text) as string[][];
      expect(rows.map((row) => row[0]), query).toEqual(expected);
    }
    expect(all.filter((i) => i.hsInScope && i.outcome === 'CLEARED').length).toBeGreaterThan(0);
    const refused = await sandbox.call('GET', '/api/sima/report?status=RISKY');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'status' } });
  });
});
