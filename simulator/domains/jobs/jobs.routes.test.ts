import { describe, expect, it } from 'vitest';
import type { QueryOf } from '../../../contracts/generated/index.js';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { ApiError } from '../../kernel/errors.js';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore } from '../tenants/index.js';
import { createJobs, type JobRecord, type JobType } from './index.js';
import { jobStore } from './job.store.js';
import { SLOW_JOBS, handlerRequest, principalOf, until } from './jobs.testing.js';

const schemas = createContractSchemas(loadContract('v1.3.0'));

async function setup() {
  const deps = await createTestDeps({ config: SLOW_JOBS });
  const tenants = tenantStore(deps);
  const tenant = await tenants.create();
  const other = await tenants.create();
  // Room for the test's jobs: the default caps would refuse them.
  for (const id of [tenant.id, other.id]) await tenants.update(id, (t) => ({ ...t, settings: { ...t.settings, queueCaps: { total: 500, upload: 500, sima: 500, preview: 500 } } }));
  const jobs = createJobs(deps, { tenants });
  return { deps, jobs, tenantId: tenant.id, otherId: other.id };
}

const list = async (jobs: ReturnType<typeof createJobs>, tenantId: string, query: QueryOf<'listJobs'> = {}) =>
  (await jobs.handlers.listJobs!(handlerRequest('listJobs', principalOf(tenantId), { query }))).body as { jobs: Array<Record<string, unknown>>; count: number };

describe('GET /api/jobs and GET /api/jobs/{id}', () => {
  it('lists the tenant\'s jobs newest first, with count before pagination', async () => {
    const { deps, jobs, tenantId, otherId } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await jobs.enqueue({ tenantId, keyId: null, type: 'sima_validation', family: 'sima' })).id);
      deps.clock.advance(1); // distinct createdAt is not needed for order, but it is realistic
    }
    await jobs.enqueue({ tenantId: otherId, keyId: null, type: 'sima_validation', family: 'sima' });
    const page = await list(jobs, tenantId, { limit: 2, offset: 1 });
    expect(page.count).toBe(5);
    expect(page.jobs.map((j) => j.id)).toEqual([ids[3], ids[2]]);
    const all = await list(jobs, tenantId);
    expect(all.jobs.map((j) => j.id)).toEqual([...ids].reverse());
    expect((await list(jobs, tenantId, { offset: 5 })).jobs).toEqual([]);
  });

  it('keeps creation order for jobs created in the same millisecond', async () => {
    const deps = await createTestDeps({ config: SLOW_JOBS });
    const store = jobStore(deps);
    const now = deps.clock.nowIso();
    const ids: string[] = [];
    for (const id of ['a', 'b', 'c']) ids.push((await store.create({ id, tenantId: 't', type: 'ship_upload', family: 'upload', input: null, now })).id);
    expect((await store.list('t', { limit: 10, offset: 0 })).jobs.map((j) => j.id)).toEqual([...ids].reverse());
  });

  it('filters by type and status, counting only the matches', async () => {
    const { deps, jobs, tenantId } = await setup();
    jobs.registerJobType('ship_upload', async () => ({ result: {} }));
    const types: JobType[] = ['ship_upload', 'sima_validation', 'ship_upload', 'order_upload', 'ship_upload'];
    const created: JobRecord[] = [];
    for (const type of types) created.push(await jobs.enqueue({ tenantId, keyId: null, type, family: type === 'sima_validation' ? 'sima' : 'upload' }));
    const statuses = async () => Promise.all(created.map(async (j) => (await jobs.get(tenantId, j.id))!.status));
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await statuses()).every((status) => status !== 'PENDING'), 'all started');
    deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await statuses()).every((status) => ['COMPLETED', 'FAILED'].includes(status)), 'all finished');

    const ships = await list(jobs, tenantId, { type: 'ship_upload' });
    expect(ships.count).toBe(3);
    expect(ships.jobs.map((j) => j.id)).toEqual([created[4].id, created[2].id, created[0].id]);
    // no processor for sima_validation / order_upload in this test: those two failed
    const failed = await list(jobs, tenantId, { status: 'FAILED' });
    expect(failed.count).toBe(2);
    expect(failed.jobs.map((j) => j.type)).toEqual(['order_upload', 'sima_validation']);
    const both = await list(jobs, tenantId, { type: 'ship_upload', status: 'COMPLETED', limit: 1, offset: 1 });
    expect(both).toMatchObject({ count: 3, jobs: [{ id: created[2].id }] });
  });

  it('applies the contract defaults: limit 50 and offset 0', async () => {
    const { jobs, tenantId } = await setup();
    for (let i = 0; i < 60; i++) await jobs.enqueue({ tenantId, keyId: null, type: 'catalog_upload', family: 'upload' });
    const page = await list(jobs, tenantId);
    expect(page.count).toBe(60);
    expect(page.jobs).toHaveLength(50);
  });

  it('answers every Job field of spec 2.2, valid against the contract, with its defaults', async () => {
    const { jobs, tenantId } = await setup();
    const job = await jobs.enqueue({ tenantId, keyId: null, type: 'sima_validation', family: 'sima' });
    const response = await jobs.handlers.getJob!(handlerRequest('getJob', principalOf(tenantId), { params: { id: job.id } }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: job.id,
      type: 'sima_validation',
      status: 'PENDING',
      progress: 0,
      result: {},
      reconciliation: { rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 },
      skippedRows: { counts: null, sample: null },
      warnings: null,
      outcomes: { atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 },
      error: null,
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
    });
    const validate = schemas.component('Job');
    expect(validate(response.body), JSON.stringify(validate.errors)).toBe(true);
    const listValidate = schemas.component('JobList');
    expect(listValidate(await list(jobs, tenantId))).toBe(true);
  });

  it('answers 404 NOT_FOUND for another tenant\'s job and for an unknown id: tenants never see each other\'s jobs', async () => {
    const { jobs, tenantId, otherId } = await setup();
    const job = await jobs.enqueue({ tenantId, keyId: null, type: 'sima_validation', family: 'sima' });
    const get = (tenant: string, id: string) => Promise.resolve().then(() => jobs.handlers.getJob!(handlerRequest('getJob', principalOf(tenant), { params: { id } })));
    await expect(get(otherId, job.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(get(tenantId, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(ApiError);
    expect((await list(jobs, otherId)).count).toBe(0);
    expect(await jobs.get(otherId, job.id)).toBeUndefined();
  });

  it('lists one tenant quickly with 100,000 jobs in the store', async () => {
    const deps = await createTestDeps({ config: SLOW_JOBS });
    const store = jobStore(deps);
    const now = deps.clock.nowIso();
    for (let i = 0; i < 100_000; i++) {
      await store.create({ id: `big-${i}`, tenantId: i % 10 === 0 ? 'small' : 'big', type: i % 3 === 0 ? 'sima_validation' : 'ship_upload', family: 'upload', input: null, now });
    }
    await store.list('big', { limit: 1, offset: 0 }); // builds the per-tenant order once
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      expect((await store.list('small', { limit: 50, offset: 0 })).count).toBe(10_000);
      expect((await store.list('big', { type: 'sima_validation', limit: 100, offset: 1_000 })).jobs).toHaveLength(100);
    }
    // 40 list calls; a sort of the tenant's 90,000 jobs per call would take far longer
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
