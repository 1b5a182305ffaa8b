// Workflow A over HTTP, through the whole simulator: every response is checked against the contract by
// the shared test client. Enqueue (with idempotency), poll the job, list jobs.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS, until } from '../jobs/jobs.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('SIMA screening over HTTP', () => {
  it('enqueues a batch, replays it for the same Idempotency-Key, and completes it on the virtual clock', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { call, sim, identity } = sandbox;
    const body = { skus: ['UDS-ACCENT-CHR-TEAL', 'UDS-ARMCHAIR-BGE', 'TEE-CTN-BLK-M'], screeningAuthority: ' ca ' };
    const accepted = await call('POST', '/api/sima/batch', { headers: { 'Idempotency-Key': 'batch-1' }, body });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'PENDING', replayed: false });
    const jobId = accepted.body.jobId as string;

    const replay = await call('POST', '/api/sima/batch', { headers: { 'Idempotency-Key': 'batch-1' }, body });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ jobId, replayed: true });
    const conflict = await call('POST', '/api/sima/batch', { headers: { 'Idempotency-Key': 'batch-1' }, body: { ...body, runPolicy: 'skip_exact_duplicates' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('ACTION_NOT_ALLOWED');

    const pending = await call('GET', `/api/jobs/${jobId}`);
    expect(pending.body).toMatchObject({ id: jobId, type: 'sima_validation', status: 'PENDING', progress: 0 });

    sim.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await sim.domains.jobs.get(identity.tenantId, jobId))?.status === 'PROCESSING', 'PROCESSING');
    sim.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await sim.domains.jobs.get(identity.tenantId, jobId))?.status === 'COMPLETED', 'COMPLETED');

    const done = await call('GET', `/api/jobs/${jobId}`);
    expect(done.body).toMatchObject({ status: 'COMPLETED', progress: 100, outcomes: { atRisk: 1, needsReview: 1, cleared: 1, falsePositive: 0 }, error: null });
    const listed = await call('GET', '/api/jobs?type=sima_validation&status=COMPLETED&limit=10');
    expect(listed.body.count).toBe(1);
    expect(listed.body.jobs[0].id).toBe(jobId);
  });

  it('refuses an authority other than CA or US with 400 naming screeningAuthority', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const refused = await sandbox.call('POST', '/api/sima/batch', { body: { skus: null, screeningAuthority: 'MX' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'screeningAuthority' } });
  });

  // The contract validates the batch body before the route runs (the route and the job trust it): these
  // refusals used to live in the route's body parser and in the job's input check.
  it('refuses a runPolicy or skus the contract would not allow with 400 INVALID_REQUEST naming the field', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { call } = sandbox;
    const badPolicy = await call('POST', '/api/sima/batch', { body: { runPolicy: 'sometimes' } });
    expect(badPolicy.status).toBe(400);
    expect(badPolicy.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'runPolicy' } });
    const badSkus = await call('POST', '/api/sima/batch', { body: { skus: [1, 2] } });
    expect(badSkus.status).toBe(400);
    // The first offending item of the list is named.
    expect(badSkus.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'skus[0]' } });
    expect((await call('GET', '/api/jobs')).body.count).toBe(0);
  });

  it('refuses a batch whose skus is not a list of SKU strings (nor null) before any job is queued', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { call, sim, identity } = sandbox;
    for (const skus of ['all', { sku: 'UDS-SOFABED-GRY-3S' }, 42]) {
      const refused = await call('POST', '/api/sima/batch', { body: { skus, runPolicy: 'always', screeningAuthority: 'CA' } });
      expect(refused.status, JSON.stringify(skus)).toBe(400);
      expect(refused.body, JSON.stringify(skus)).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'skus' } });
    }
    // No job holds an input the sima_validation job could not read.
    expect((await call('GET', '/api/jobs')).body.count).toBe(0);
    expect(await sim.domains.jobs.inFlightCount(identity.tenantId)).toBe(0);
  });

  it('answers 404 for an unknown job and for another tenant\'s job', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { call, sim } = sandbox;
    const other = await sim.domains.tenants.create();
    const foreign = await sim.domains.jobs.enqueue({ tenantId: other.id, keyId: null, type: 'sima_validation', family: 'sima', input: { skus: null, runPolicy: 'always', screeningAuthority: 'CA' } });
    expect((await call('GET', `/api/jobs/${foreign.id}`)).status).toBe(404);
    expect((await call('GET', '/api/jobs/7d2f8a8e-0f7c-4a55-9a43-3c1c1e2d9b10')).body.code).toBe('NOT_FOUND');
    expect((await call('GET', '/api/jobs')).body.count).toBe(0);
  });
});
