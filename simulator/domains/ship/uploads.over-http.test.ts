// The three ship uploads over HTTP (spec 4.3, 2.3, 5.4, 7) and the archived v1.2.0 audit reads (spec 4.5).
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { csv, xlsx } from '../sima/upload.testing.js';
import { SHIPMENT_HEADER } from '#fixtures/freight/sample-shipments.js';
import { agreementCsv, auditSamples, finishJob, form, sampleRows, shipmentCsv, uploadAndFinish } from './ship.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const tokenOf = async (key: string) => (await sandbox!.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': key } })).body.access_token as string;

describe('POST /api/ship/upload', () => {
  it('answers the 202 receipt, then 409 DUPLICATE_UPLOAD with the first job for the same file', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const file = shipmentCsv(sampleRows(sandbox));
    const first = await sandbox.call('POST', '/api/ship/upload', { form: form(file, 'invoice.csv', { adapter_id: 'fedex-fbo-csv' }) });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ jobId: expect.any(String), fileName: 'invoice.csv', status: 'PENDING' });
    const again = await sandbox.call('POST', '/api/ship/upload', { form: form(file, 'renamed.csv') });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_UPLOAD', details: { existingJobId: first.body.jobId, uploadedAt: expect.any(String) } });
    // Per endpoint: the same bytes as an orders file are no duplicate.
    expect((await sandbox.call('POST', '/api/orders/upload', { form: form(file, 'invoice.csv') })).status).toBe(202);
  });

  it('accepts only one of the same file sent several times at once: one 202, the rest 409 DUPLICATE_UPLOAD naming its job', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const file = shipmentCsv(sampleRows(sandbox));
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => sandbox!.call('POST', '/api/ship/upload', { form: form(file, `copy-${i}.csv`) })));
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 202)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'DUPLICATE_UPLOAD', details: { existingJobId: accepted[0].body.jobId } });
    }
  });

  it('checks adapter_id against the key allowlist: 403 ADAPTER_NOT_ALLOWED', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const key = await sandbox.admin('POST', '/_sim/tenants', { name: 'Allowlisted', allowedAdapters: ['ups-billing-csv'] });
    const token = await tokenOf(key.body.integrationKey);
    const refused = await sandbox.call('POST', '/api/ship/upload', { token, form: form(shipmentCsv(sampleRows(sandbox)), 'a.csv', { adapter_id: 'fedex-fbo-csv' }) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ADAPTER_NOT_ALLOWED');
    expect((await sandbox.call('POST', '/api/ship/upload', { token, form: form(shipmentCsv(sampleRows(sandbox, 'UPS')), 'b.csv', { adapter_id: 'ups-billing-csv' }) })).status).toBe(202);
  });

  it('refuses another file type with 415 and reads an XLSX workbook, skipping rows it cannot audit with reasons', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    expect((await sandbox.call('POST', '/api/ship/upload', { form: form(Buffer.from('%PDF-1.4'), 'invoice.pdf') })).status).toBe(415);
    const rows = sampleRows(sandbox, 'UPS').map((r) => r.cells);
    const broken = [...rows[0]];
    broken[SHIPMENT_HEADER.indexOf('Shipment Date')] = '31/31/2026';
    const noTracking = [...rows[2]];
    noTracking[SHIPMENT_HEADER.indexOf('Express or Ground Tracking ID')] = '';
    const book = await xlsx({ Invoice: [[...SHIPMENT_HEADER], ...rows.slice(1, 3), broken, noTracking] });
    const job = await uploadAndFinish(sandbox, '/api/ship/upload', book, 'ups.xlsx');
    expect(job).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: 2, rowsSkipped: 2 }, skippedRows: { counts: { invalid_date: 1, missing_tracking_number: 1 } }, result: { sheet: 'Invoice', carriers: { UPS: 2 } } });
    expect(job.skippedRows.sample[0]).toMatchObject({ reason: 'invalid_date', field: 'shipDate', value: '31/31/2026' });
  });

  it('fails the job of a file without a tracking number column, saying so', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const job = await uploadAndFinish(sandbox, '/api/ship/upload', csv('sku,name', 'A,B'), 'wrong.csv');
    expect(job).toMatchObject({ status: 'FAILED', error: expect.stringContaining('tracking number column') });
  });
});

describe('POST /api/carrier/agreements/upload', () => {
  it('needs scope ship:upload: 403 SCOPE_DENIED naming required and provided', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const key = await sandbox.admin('POST', '/_sim/tenants', { name: 'No upload scope', scopes: ['ship:read'] });
    const denied = await sandbox.call('POST', '/api/carrier/agreements/upload', { token: await tokenOf(key.body.integrationKey), form: form(agreementCsv(), 'a.csv') });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'SCOPE_DENIED', details: { required: 'ship:upload', provided: ['ship:read'] } });
  });

  it('keeps a PDF agreement as a document without reading terms, and refuses a .pdf that is no PDF (415)', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const pdf = await uploadAndFinish(sandbox, '/api/carrier/agreements/upload', Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n'), 'signed-tsa.pdf');
    expect(pdf).toMatchObject({ status: 'COMPLETED', result: { document: 'pdf', agreements: [] }, warnings: { termsNotRead: 1 } });
    expect((await sandbox.call('POST', '/api/carrier/agreements/upload', { form: form(Buffer.from('recordType,carrier\n'), 'fake.pdf') })).status).toBe(415);
  });

  it('stores the agreement the audit then rates against (NEEDS_REVIEW before, CLEAR or AT_RISK after)', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const before = await uploadAndFinish(sandbox, '/api/ship/upload', shipmentCsv(sampleRows(sandbox, 'FEDEX', '1')), 'first.csv');
    expect(before.outcomes.needsReview).toBeGreaterThan(0);
    const agreement = await uploadAndFinish(sandbox, '/api/carrier/agreements/upload', agreementCsv(), 'agreement.csv');
    expect(agreement).toMatchObject({ type: 'carrier_agreement_upload', status: 'COMPLETED', reconciliation: { rowsUploaded: 11, rowsSkipped: 0 }, result: { agreements: [{ carrier: 'FEDEX', rates: 5, accessorials: 4, dimDivisor: 139, gsrWaived: false }] } });
    const after = await uploadAndFinish(sandbox, '/api/ship/upload', shipmentCsv(sampleRows(sandbox, 'FEDEX', '2')), 'second.csv');
    expect(after.outcomes).toMatchObject({ needsReview: 0, atRisk: 7, cleared: 6 });
  });
});

describe('POST /api/orders/upload', () => {
  it('PATCH merges the file into the orders, SNAPSHOT replaces them', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const first = await uploadAndFinish(sandbox, '/api/orders/upload', csv('orderId,sku,quantity,recipientAddressType', 'SO-1,A,1,COMMERCIAL', 'SO-1,B,2,COMMERCIAL', 'SO-2,C,1,RESIDENTIAL'), 'o1.csv', { ingestMode: 'PATCH' });
    expect(first).toMatchObject({ type: 'order_upload', status: 'COMPLETED', result: { ingestMode: 'PATCH', ordersCreated: 2, ordersUpdated: 0, ordersRemoved: 0, ordersTotal: 2 }, reconciliation: { rowsUploaded: 3 } });
    const patch = await uploadAndFinish(sandbox, '/api/orders/upload', csv('orderId,sku,quantity', 'SO-2,C,5', 'SO-3,D,1'), 'o2.csv', { ingestMode: 'PATCH' });
    expect(patch.result).toMatchObject({ ordersCreated: 1, ordersUpdated: 1, ordersRemoved: 0, ordersTotal: 3 });
    const accepted = await sandbox.call('POST', '/api/orders/upload', { form: form(csv('orderId,sku,quantity', 'SO-9,Z,1', ''), 'o3.csv', { ingestMode: 'SNAPSHOT' }) });
    expect(accepted.body).toMatchObject({ status: 'PENDING', ingestMode: 'SNAPSHOT' });
    const snapshot = await finishJob(sandbox, accepted.body.jobId);
    expect(snapshot.result).toMatchObject({ ingestMode: 'SNAPSHOT', ordersCreated: 1, ordersRemoved: 3, ordersTotal: 1 });
  });

  it("lets the audit read an order's consignee type for a residential surcharge", async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await uploadAndFinish(sandbox, '/api/orders/upload', csv('orderId,recipientAddressType', 'SO-77,COMMERCIAL'), 'orders.csv');
    const row = sampleRows(sandbox).find((r) => r.case === 'residential-residential')!;
    row.cells[SHIPMENT_HEADER.indexOf('Recipient Address Type')] = '';
    row.cells[SHIPMENT_HEADER.indexOf('Order ID')] = 'SO-77';
    const job = await uploadAndFinish(sandbox, '/api/ship/upload', shipmentCsv([row]), 'one.csv');
    expect(job.result.findingsByType).toEqual({ residential_misapplied: 1 });
  });
});

describe('v1.2.0 archived reads over the same data', () => {
  it('lists audited shipments with carrier and outcome filters, and reads one shipment with its findings', async () => {
    sandbox = await startTestSandbox({ config: { ...SLOW_JOBS, contract: 'all' } });
    await auditSamples(sandbox);
    const v12 = '/versions/v1.2.0';
    const all = await sandbox.call('GET', `${v12}/api/ship/audit?limit=200`);
    expect(all.body).toMatchObject({ total: 13, limit: 200, offset: 0, hasMore: false });
    const atRisk = await sandbox.call('GET', `${v12}/api/ship/audit?outcome=AT_RISK&carrier=FEDEX`);
    expect(atRisk.body.total).toBe(7);
    expect((await sandbox.call('GET', `${v12}/api/ship/audit?carrier=UPS`)).body.total).toBe(0);
    const page = await sandbox.call('GET', `${v12}/api/ship/audit?limit=5&offset=5`);
    expect(page.body).toMatchObject({ limit: 5, offset: 5, hasMore: true });
    const row = atRisk.body.shipments.find((s: any) => s.findingCount === 1);
    const detail = await sandbox.call('GET', `${v12}/api/ship/shipments/${row.shipmentId}`);
    expect(detail.body.shipment).toMatchObject({ shipmentId: row.shipmentId, outcome: 'AT_RISK', weightUnit: 'LB', agreementNumber: 'FICT-548561821-102' });
    expect(detail.body.findings).toHaveLength(1);
    const v13 = await sandbox.call('GET', '/api/ship/findings?limit=500');
    expect(v13.body.findings.map((f: any) => f.id)).toContain(detail.body.findings[0].id);
    expect((await sandbox.call('GET', `${v12}/api/ship/shipments/6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61`)).status).toBe(404);
  });
});
