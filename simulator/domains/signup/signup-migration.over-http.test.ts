// Issue 13, migration trial: with every version served over one store (`--contract all`), a tenant signed up
// through the v1.2.0 artifact works on the current v1.3.0 surface: its key exchanges for a token there, and
// workflow A (SIMA batch, job, results) runs for it, and the shipments it audits on v1.3.0 read the same
// through the v1.2.0-only ship reads (/api/ship/audit, shipment detail) as through v1.3.0's findings.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS, until } from '../jobs/jobs.testing.js';
import { agreementCsv, form, sampleRows, shipmentCsv } from '../ship/ship.testing.js';
import { signUp, V12 } from './signup.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('a migration from v1.2.0 to v1.3.0 on one store', () => {
  it('serves a tenant provisioned through v1.2.0 signup on the v1.3.0 surface (token, SIMA batch, job, results), its audited shipments read alike through the v1.2.0 ship reads', async () => {
    sandbox = await startTestSandbox({ config: { contract: 'all', ...SLOW_JOBS } });
    const { call, sim } = sandbox;
    const { provisioned } = await signUp(sandbox, V12, 'migrating-importer', { idempotencyKey: 'migrate-1', integrationKeyTemplate: { name: 'migration', defaultAdapter: 'catalog-excel' } });
    expect(provisioned.status).toBe(201);
    const { tenantId, integrationSecret } = provisioned.body;

    // The same key on both surfaces: the v1.2.0 artifact and the current (unprefixed v1.3.0) one.
    const old = await call('POST', `${V12}/api/auth/token/integration`, { token: null, headers: { 'x-api-key': integrationSecret } });
    expect(old.status).toBe(200);
    const current = await call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': integrationSecret } });
    expect(current.body).toMatchObject({ token_type: 'Bearer', default_adapter: 'catalog-excel' });
    const token = current.body.access_token as string;

    const accepted = await call('POST', '/api/sima/batch', { token, headers: { 'Idempotency-Key': 'migrate-batch' }, body: { skus: ['UDS-ACCENT-CHR-TEAL', 'UDS-ARMCHAIR-BGE'] } });
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.jobId as string;
    sim.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await sim.domains.jobs.get(tenantId, jobId))?.status === 'PROCESSING', 'PROCESSING');
    sim.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await sim.domains.jobs.get(tenantId, jobId))?.status === 'COMPLETED', 'COMPLETED');

    // Read through both versions: the job is the tenant's, whichever artifact the client still uses.
    for (const prefix of ['', V12]) {
      const job = await call('GET', `${prefix}/api/jobs/${jobId}`, { token });
      expect(job.body).toMatchObject({ id: jobId, type: 'sima_validation', status: 'COMPLETED', progress: 100 });
    }
    const results = await call('GET', '/api/sima/results?limit=10', { token });
    expect(results.body.outcomes.map((r: { sku: string }) => r.sku).sort()).toEqual(['UDS-ACCENT-CHR-TEAL', 'UDS-ARMCHAIR-BGE']);
    const listed = await call('GET', `${V12}/api/jobs?type=sima_validation`, { token });
    expect(listed.body.count).toBe(1);

    // Isolation: the default tenant sees none of it.
    expect((await call('GET', `/api/jobs/${jobId}`)).status).toBe(404);

    // Workflow C on v1.3.0, read back through v1.2.0's ship audit and shipment detail.
    const runUpload = async (path: string, file: Buffer, name: string) => {
      const upload = await call('POST', path, { token, form: form(file, name) });
      expect(upload.status, upload.text).toBe(202);
      sim.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
      await until(async () => (await sim.domains.jobs.get(tenantId, upload.body.jobId))?.status === 'PROCESSING', 'PROCESSING');
      sim.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
      await until(async () => (await sim.domains.jobs.get(tenantId, upload.body.jobId))?.status === 'COMPLETED', 'COMPLETED');
    };
    await runUpload('/api/carrier/agreements/upload', agreementCsv('FEDEX'), 'agreement-fedex.csv');
    await runUpload('/api/ship/upload', shipmentCsv(sampleRows(sandbox, 'FEDEX')), 'invoice-fedex.csv');
    const findings = (await call('GET', '/api/ship/findings?limit=500', { token })).body.findings as Array<{ id: string }>;
    expect(findings.length).toBeGreaterThan(0);
    const audit = await call('GET', `${V12}/api/ship/audit?limit=200`, { token });
    expect(audit.status).toBe(200);
    const archived: string[] = [];
    for (const shipment of audit.body.shipments as Array<{ shipmentId: string; findingCount: number }>) {
      if (shipment.findingCount === 0) continue;
      const detail = await call('GET', `${V12}/api/ship/shipments/${shipment.shipmentId}`, { token });
      archived.push(...(detail.body.findings as Array<{ id: string }>).map((f) => f.id));
    }
    expect(archived.sort()).toEqual(findings.map((f) => f.id).sort());
  });
});
