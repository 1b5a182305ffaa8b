// POST /api/upload over HTTP (spec 4.3, 2.2, 2.3, 8.5): the file's rows go into the catalog and exactly its
// SKUs are screened by the `sima_validation` job. Every response is checked against the contract.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_CATALOG } from '#fixtures/catalog/sample-catalog.js';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { screenItem } from './screening.js';
import { simaResultStore } from './sima-result.store.js';
import { SAMPLE_CSV, SAMPLE_FILE_SKUS, catalogOf, csv, finishJob, form, sampleFile, xlsx } from './upload.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const upload = (file: Buffer | null, name: string, fields: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) =>
  sandbox!.call('POST', '/api/upload', { form: form(file, name, fields), headers });

/** What screening the sample file's items gives, counted as the job's outcomes. */
function expectedOutcomes(authority: 'CA' | 'US') {
  const outcomes = { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 };
  for (const sku of SAMPLE_FILE_SKUS) {
    const outcome = screenItem(SAMPLE_CATALOG.find((i) => i.sku === sku)!, authority).outcome;
    outcomes[outcome === 'AT_RISK' ? 'atRisk' : outcome === 'NEEDS_REVIEW' ? 'needsReview' : 'cleared'] += 1;
  }
  return outcomes;
}

describe('POST /api/upload', () => {
  it('accepts a CSV with the upload receipt, writes its rows into the catalog and screens exactly its SKUs', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const accepted = await upload(sampleFile(SAMPLE_CSV), 'sample-catalog.csv', { screeningAuthority: ' us ', runPolicy: 'always' });
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.jobId as string;
    expect(accepted.body).toEqual({ jobId, status: 'PENDING', message: 'Upload accepted for SIMA screening', replayed: false, fileName: 'sample-catalog.csv' });

    const done = await finishJob(sandbox, jobId);
    expect(done).toMatchObject({
      type: 'sima_validation',
      status: 'COMPLETED',
      fileName: 'sample-catalog.csv',
      reconciliation: { rowsUploaded: 8, rowsSkipped: 0, rowsDeduplicated: 0, skusFound: 8, skusScreened: 8, skusNotApplicable: 0 },
      outcomes: expectedOutcomes('US'),
      warnings: { ignoredColumns: 2 },
      result: { screeningAuthority: 'US', skusRequested: 8, skusScreened: 8, fileName: 'sample-catalog.csv' },
    });
    const results = simaResultStore(sandbox.sim.deps);
    const tenantId = sandbox.identity.tenantId;
    for (const sku of SAMPLE_FILE_SKUS) expect((await results.current(tenantId, sku))?.jobId, sku).toBe(jobId);
    // A sample-catalog SKU the file does not name is not screened.
    expect(await results.current(tenantId, 'SI-MET-553-LUMP')).toBeUndefined();
    expect((await catalogOf(sandbox).get('LMBR-SPF-2X4-8'))!.source).toContain('upload sample-catalog.csv');
  });

  it('screens new SKUs of an XLSX, with its skipped rows and repeated SKUs counted from the file', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const file = await xlsx({
      Catalog: [
        ['SKU', 'Product Name', 'HS Code', 'Origin', 'Annual Import Value', 'Currency'],
        ['NEW-CHAIR-CN', 'Accent chair', '9401.61.10.90', 'CN', 10000, 'CAD'],
        ['NEW-CHAIR-XX', 'Bad code', 'n/a', 'CN', 10000, 'CAD'],
        ['NEW-CHAIR-CN', 'Accent chair, again', '9401.61.10.90', 'CN', 10000, 'CAD'],
        ['NEW-TEE', 'T-shirt', '6109.10.00', 'BD', 500, 'CAD'],
      ],
    });
    const done = await finishJob(sandbox, (await upload(file, 'new-skus.xlsx')).body.jobId);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      reconciliation: { rowsUploaded: 2, rowsSkipped: 1, rowsDeduplicated: 1, skusFound: 2, skusScreened: 2, skusNotApplicable: 0 },
      skippedRows: { counts: { invalid_hs_code: 1 }, sample: [{ row: 3, reason: 'invalid_hs_code', sku: 'NEW-CHAIR-XX' }] },
      outcomes: { atRisk: 1, cleared: 1, needsReview: 0 },
      result: { screeningAuthority: 'CA', skusCreated: 2 },
    });
    const chair = await simaResultStore(sandbox.sim.deps).current(sandbox.identity.tenantId, 'NEW-CHAIR-CN');
    expect(chair).toMatchObject({ outcome: 'AT_RISK', measureCode: 'UDS', exposureAnnual: 18800 });
  });

  it('fails the job with a clear error for a header-only file, screening nothing', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const done = await finishJob(sandbox, (await upload(csv('sku,productName,hsCode'), 'skus.csv')).body.jobId);
    expect(done).toMatchObject({ status: 'FAILED', error: 'skus.csv has a header row but no data rows' });
    expect(await simaResultStore(sandbox.sim.deps).currentForTenant(sandbox.identity.tenantId)).toEqual([]);
  });

  it('refuses screeningAuthority MX and a blocked webhook with 400, and a binary Excel 97-2003 file with 415, queueing nothing', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const mx = await upload(sampleFile(SAMPLE_CSV), 'skus.csv', { screeningAuthority: 'MX' });
    expect([mx.status, mx.body.code, mx.body.details?.field]).toEqual([400, 'INVALID_REQUEST', 'screeningAuthority']);
    const hook = await upload(sampleFile(SAMPLE_CSV), 'skus.csv', { webhookUrl: 'https://127.0.0.1/hook' });
    expect([hook.status, hook.body.details?.field]).toEqual([400, 'webhookUrl']);
    const biff = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    const xls = await upload(biff, 'skus.xls');
    expect([xls.status, xls.body.code, xls.body.details?.field]).toEqual([415, 'INVALID_FILE_FORMAT', 'file']);
    expect(xls.body.message).toContain('save it as .xlsx or .csv');
    const noFile = await upload(null, '', { runPolicy: 'always' });
    expect([noFile.status, noFile.body.details?.field]).toEqual([400, 'file']);
    expect((await sandbox.call('GET', '/api/jobs')).body.count).toBe(0);
  });

  it('reads an .xls file that is really CSV text, and sends the job webhook configured on the form', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const fields = { webhookUrl: 'https://hooks.example.invalid/svc', webhookEvents: ['job.completed'] };
    const accepted = await upload(csv('sku\tproductName\thsCode\tcountryOfOrigin', 'TSV-CHAIR\tChair\t9401.61.10.90\tVN'), 'export.xls', fields);
    const done = await finishJob(sandbox, accepted.body.jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: 1, skusScreened: 1 }, outcomes: { atRisk: 1 } });
    // The delivery is created by the job's finished listeners, which run once the COMPLETED write is fsynced
    // (job.worker.ts finish): a read can see COMPLETED a moment before it, so it is waited for.
    await vi.waitFor(async () => {
      const deliveries = await sandbox!.admin('GET', `/_sim/webhooks/deliveries?tenantId=${sandbox!.identity.tenantId}&jobId=${accepted.body.jobId}`);
      expect(deliveries.body.deliveries).toMatchObject([{ event: 'job.completed', url: fields.webhookUrl }]);
    }, { timeout: 5_000, interval: 50 });
  });

  it('replays the same upload under one Idempotency-Key and answers 409 for another runPolicy or file', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const key = { 'Idempotency-Key': 'sima-upload-1' };
    const fields = { runPolicy: 'skip_exact_duplicates', screeningAuthority: 'CA' };
    const first = await upload(sampleFile(SAMPLE_CSV), 'skus.csv', fields, key);
    const replay = await upload(sampleFile(SAMPLE_CSV), 'skus.csv', fields, key);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    const otherPolicy = await upload(sampleFile(SAMPLE_CSV), 'skus.csv', { ...fields, runPolicy: 'always' }, key);
    const otherFile = await upload(csv('sku', 'UDS-SOFABED-GRY-3S'), 'skus.csv', fields, key);
    for (const conflict of [otherPolicy, otherFile]) expect([conflict.status, conflict.body.code]).toEqual([409, 'ACTION_NOT_ALLOWED']);
    expect((await sandbox.call('GET', '/api/jobs?type=sima_validation')).body.count).toBe(1);
    expect(await finishJob(sandbox, first.body.jobId)).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: 8, skusScreened: 8 } });
  });
});
