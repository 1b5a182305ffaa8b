// POST /api/catalog/upload over HTTP (spec 4.3, 2.2, 2.3, 8.5), through the whole simulator: every response
// is checked against the contract by the shared test client; jobs run on the virtual clock.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS, until } from '../jobs/jobs.testing.js';
import { SAMPLE_CSV, SAMPLE_FILE_SKUS, SAMPLE_XLSX, catalogOf, csv, finishJob, finishJobs, form, sampleFile, xlsx } from './upload.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const upload = (file: Buffer | null, name: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  sandbox!.call('POST', '/api/catalog/upload', { form: form(file, name, fields), headers });

describe('POST /api/catalog/upload', () => {
  it('accepts the sample CSV with the catalog receipt and writes its rows into the tenant catalog', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const accepted = await upload(sampleFile(SAMPLE_CSV), 'sample-catalog.csv');
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.jobId as string;
    expect(accepted.body).toEqual({ jobId, status: 'PENDING', message: 'Catalog upload accepted', replayed: false, fileName: 'sample-catalog.csv', sourceAdapter: 'catalog-excel' });
    expect((await sandbox.call('GET', `/api/jobs/${jobId}`)).body).toMatchObject({ type: 'catalog_upload', status: 'PENDING', fileName: 'sample-catalog.csv' });
    // The upload waits for its job in the artifacts directory, and goes once the job has ended.
    const stored = ((await sandbox.sim.domains.jobs.get(sandbox.identity.tenantId, jobId))!.input as { file: { path: string; sha256: string } }).file;
    expect(existsSync(stored.path)).toBe(true);
    expect(stored.sha256).toBe(createHash('sha256').update(sampleFile(SAMPLE_CSV)).digest('hex'));

    const done = await finishJob(sandbox, jobId);
    await until(() => !existsSync(stored.path), 'the stored upload to go');
    expect(done).toMatchObject({
      status: 'COMPLETED',
      progress: 100,
      error: null,
      reconciliation: { rowsUploaded: 8, rowsSkipped: 0, rowsDeduplicated: 0, skusFound: 8, skusScreened: 0, skusNotApplicable: 0 },
      skippedRows: { counts: {}, sample: [] },
      outcomes: { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 },
      // The sample's `source` and `asOf` columns are no catalog-excel columns.
      warnings: { ignoredColumns: 2 },
      result: { sourceAdapter: 'catalog-excel', screeningAuthority: 'CA', skusCreated: 0, skusUpdated: 8, ignoredColumns: ['source', 'asOf'], missingColumns: [] },
    });
    const sofa = await catalogOf(sandbox).get('UDS-SOFABED-GRY-3S');
    expect(sofa).toMatchObject({ productName: '3-seat sofa bed, grey fabric', hsCode: '9401.40.00.00', countryOfOrigin: 'CN', annualImportValue: 45000, currency: 'CAD' });
    expect(sofa!.source).toBe(`upload sample-catalog.csv (catalog-excel, job ${jobId})`);
    expect((await catalogOf(sandbox).get('UDS-ARMCHAIR-BGE'))!.countryOfOrigin).toBeNull();
  });

  it('reads the extended XLSX sample from its Catalog sheet under alias headers, keeping destination and attributes', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const accepted = await upload(sampleFile(SAMPLE_XLSX), 'sample-catalog-extended.xlsx', { sourceAdapter: 'extended-excel', screeningAuthority: ' us ' });
    expect(accepted.body).toMatchObject({ status: 'PENDING', sourceAdapter: 'extended-excel', fileName: 'sample-catalog-extended.xlsx' });
    const done = await finishJob(sandbox, accepted.body.jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: 8, rowsSkipped: 0, skusFound: 8 }, warnings: null, result: { sheet: 'Catalog', screeningAuthority: 'US', missingColumns: [] } });
    const items = await Promise.all(SAMPLE_FILE_SKUS.map((sku) => catalogOf(sandbox!).get(sku)));
    expect(items.every((i) => i?.source.includes('sample-catalog-extended.xlsx'))).toBe(true);
    expect(items[0]).toMatchObject({ hsCode: '9401.40.00.00', countryOfOrigin: 'CN', materialType: 'upholstered', annualImportValue: 45000, destinationCountry: 'CA', attributes: { brand: 'Northwind Home', restrictedComponents: 'flame retardant foam' } });
    expect(items[4]).toMatchObject({ sku: 'NAIL-CL-16D-50LB', destinationCountry: 'US', attributes: { brand: 'Northwind Build' } });

    // A later catalog-excel upload of a SKU keeps what only the extended adapter reads.
    const narrow = await upload(csv('SKU,Product Name,HS Code,Origin', 'UDS-SOFABED-GRY-3S,Sofa bed (renamed),9401.40.00.00,VN'), 'rename.csv');
    await finishJob(sandbox, narrow.body.jobId);
    expect(await catalogOf(sandbox).get('UDS-SOFABED-GRY-3S')).toMatchObject({ productName: 'Sofa bed (renamed)', countryOfOrigin: 'VN', destinationCountry: 'CA', attributes: { brand: 'Northwind Home' } });
  });

  it('skips bad rows with counts by reason and a sample naming row, reason and SKU, and counts repeated SKUs as deduplicated', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const file = csv(
      'sku;productName;hsCode;countryOfOrigin;annualImportValue;currency', // semicolons, as some spreadsheets export
      'NEW-CHAIR-1;Chair one;9401.61.10.90;CN;"18,000";cad',
      ';No SKU here;9401.61.10.90;CN;100;CAD',
      'NEW-CHAIR-2;Bad HS;94A1.61;CN;100;CAD',
      'NEW-CHAIR-3;Bad value;9401.61.10.90;CN;lots;CAD',
      'NEW-CHAIR-4;Bad origin;9401.61.10.90;China;100;CAD',
      'NEW-CHAIR-1;Chair one again;9401.61.10.90;VN;1;CAD',
      'NEW-CHAIR-5;Too short HS;940;CN;100;CAD',
      '',
      'NEW-TABLE-1;Table, no HS yet;;;;',
    );
    const done = await finishJob(sandbox, (await upload(file, 'new-chairs.csv')).body.jobId);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      reconciliation: { rowsUploaded: 2, rowsSkipped: 5, rowsDeduplicated: 1, skusFound: 2 },
      skippedRows: { counts: { missing_sku: 1, invalid_hs_code: 2, invalid_annual_import_value: 1, invalid_country_of_origin: 1 } },
      result: { skusCreated: 2, skusUpdated: 0, missingColumns: ['materialType'] },
      warnings: { missingColumns: 1 },
    });
    expect(done.skippedRows.sample).toEqual([
      { row: 3, reason: 'missing_sku', sku: null, field: 'sku', value: '' },
      { row: 4, reason: 'invalid_hs_code', sku: 'NEW-CHAIR-2', field: 'hsCode', value: '94A1.61' },
      { row: 5, reason: 'invalid_annual_import_value', sku: 'NEW-CHAIR-3', field: 'annualImportValue', value: 'lots' },
      { row: 6, reason: 'invalid_country_of_origin', sku: 'NEW-CHAIR-4', field: 'countryOfOrigin', value: 'China' },
      { row: 8, reason: 'invalid_hs_code', sku: 'NEW-CHAIR-5', field: 'hsCode', value: '940' },
    ]);
    // The first row of a SKU wins; blank optional cells are null.
    expect(await catalogOf(sandbox).get('NEW-CHAIR-1')).toMatchObject({ productName: 'Chair one', countryOfOrigin: 'CN', annualImportValue: 18000, currency: 'CAD' });
    expect(await catalogOf(sandbox).get('NEW-TABLE-1')).toMatchObject({ hsCode: null, countryOfOrigin: null, annualImportValue: null, currency: null, materialType: null });
    expect(await catalogOf(sandbox).get('NEW-CHAIR-3')).toBeUndefined();
  });

  it('refuses a .txt file, a .csv that is a zip and an .xlsx that is text with 415 INVALID_FILE_FORMAT naming file, queueing nothing', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const refusals = [
      await upload(csv('sku,productName', 'A,B'), 'catalog.txt'),
      await upload(await xlsx({ Catalog: [['sku'], ['A']] }), 'catalog.csv'),
      await upload(csv('sku,productName', 'A,B'), 'catalog.xlsx'),
      await upload(Buffer.from([0x00, 0x01, 0x02, 0x03, 0x00]), 'catalog.csv'),
    ];
    for (const refused of refusals) {
      expect(refused.status, refused.text).toBe(415);
      expect(refused.body).toMatchObject({ code: 'INVALID_FILE_FORMAT', details: { field: 'file' } });
    }
    expect(refusals[0].body.message).toContain('.txt');
    expect((await sandbox.call('GET', '/api/jobs')).body.count).toBe(0);
  });

  it('answers 400 INVALID_REQUEST naming file when the form has no file, and 415 for a JSON body', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const noFile = await upload(null, '', { sourceAdapter: 'catalog-excel' });
    expect([noFile.status, noFile.body.code, noFile.body.details?.field]).toEqual([400, 'INVALID_REQUEST', 'file']);
    const textField = await upload(null, '', { file: 'sku,productName\nA,B' });
    expect([textField.status, textField.body.details?.field]).toEqual([400, 'file']);
    const json = await sandbox.call('POST', '/api/catalog/upload', { body: { file: 'sku\nA' } });
    expect([json.status, json.body.code, json.body.details?.field]).toEqual([415, 'INVALID_FILE_FORMAT', 'file']);
    const badAdapter = await upload(csv('sku', 'A'), 'a.csv', { sourceAdapter: 'shopify' });
    expect([badAdapter.status, badAdapter.body.details?.field]).toEqual([400, 'sourceAdapter']);
    expect((await sandbox.call('GET', '/api/jobs')).body.count).toBe(0);
  });

  it('fails the job with a clear error, never a 500, for an empty file, a header only, no SKU column or a workbook without a usable sheet', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.alloc(0), 'empty.csv', /empty\.csv is empty/],
      [csv('', '  ', ',,,'), 'blank.csv', /blank\.csv has no rows with content/],
      [csv('sku,productName,hsCode'), 'header-only.csv', /header-only\.csv has a header row but no data rows/],
      [csv('item,title', 'A,B'), 'no-sku.csv', /no-sku\.csv has no usable header.*SKU column.*found: item, title/],
      [await xlsx({ Notes: [['Fall catalog, see the second tab'], ['sku', 'productName']] }), 'title-row.xlsx', /has no usable header.*sheet "Notes"/],
      [await xlsx({ Catalog: [['SKU', 'HS Code']], Other: [['sku'], ['A']] }), 'header-only.xlsx', /header-only\.xlsx has a header row but no data rows \(the sheet named Catalog/],
      [Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.alloc(64, 1)]), 'broken.xlsx', /broken\.xlsx could not be read as XLSX/],
    ];
    const jobIds: string[] = [];
    for (const [file, name] of cases) {
      const accepted = await upload(file, name);
      expect(accepted.status, `${name}: ${accepted.text}`).toBe(202);
      jobIds.push(accepted.body.jobId);
    }
    const jobs = await finishJobs(sandbox, jobIds);
    jobs.forEach((job, i) => {
      expect(job.status, cases[i][1]).toBe('FAILED');
      expect(job.error, cases[i][1]).toMatch(cases[i][2]);
    });
  });

  it('replays the receipt for the same file and fields under one Idempotency-Key and answers 409 for another file or adapter', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const key = { 'Idempotency-Key': 'catalog-upload-1' };
    const first = await upload(sampleFile(SAMPLE_CSV), 'sample-catalog.csv', {}, key);
    const replay = await upload(sampleFile(SAMPLE_CSV), 'sample-catalog.csv', {}, key);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    const otherFile = await upload(csv('sku', 'ANOTHER'), 'sample-catalog.csv', {}, key);
    const otherAdapter = await upload(sampleFile(SAMPLE_CSV), 'sample-catalog.csv', { sourceAdapter: 'extended-excel' }, key);
    for (const conflict of [otherFile, otherAdapter]) expect([conflict.status, conflict.body.code]).toEqual([409, 'ACTION_NOT_ALLOWED']);
    expect((await sandbox.call('GET', '/api/jobs')).body.count).toBe(1);
    // Without the header, the same upload is a new job (spec 8.5).
    const again = await upload(sampleFile(SAMPLE_CSV), 'sample-catalog.csv');
    expect(again.body.jobId).not.toBe(first.body.jobId);
    // Both run (and their stored files go once they have ended).
    expect((await finishJobs(sandbox, [first.body.jobId, again.body.jobId])).map((j) => j.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });
});
