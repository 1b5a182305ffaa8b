// The job worker over a store several instances share (issue 17), with the in-process fake of the shared
// services: what happens to a job's lease when this instance cannot go on with it.
import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../../testing/kernel.js';
import { memoryShared } from '../../testing/memory-shared.js';
import { tenantStore } from '../tenants/index.js';
import { createJobs } from './index.js';
import { SLOW_JOBS, settle, until } from './jobs.testing.js';

async function sharedSetup() {
  const base = await createTestDeps({ config: SLOW_JOBS });
  const shared = memoryShared(base.store);
  let brokenFlush = false;
  const store = shared.instance('a', { flush: () => (brokenFlush ? Promise.reject(new Error('disk gone')) : base.store.flush()) });
  const deps = { ...base, store };
  const tenants = tenantStore(deps);
  const tenantId = (await tenants.create()).id;
  const jobs = createJobs(deps, { tenants });
  jobs.registerJobType('catalog_upload', async () => ({ result: {} }));
  return { deps, jobs, tenantId, other: shared.instance('b').shared!.leases('job', 15_000), breakFlush: (broken: boolean) => (brokenFlush = broken) };
}

describe('the job worker over a shared store', () => {
  it('hands a job whose run failed on a store error back to the lease round, where any instance takes it', async () => {
    const { deps, jobs, tenantId, other, breakFlush } = await sharedSetup();
    const job = await jobs.enqueue({ tenantId, keyId: 'k', type: 'catalog_upload', family: 'upload' });
    expect(await other.takeExpired(10)).toEqual([]); // this instance holds it
    breakFlush(true);
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    // The run saved PROCESSING, then its flush failed: the job is in flight, and its lease up for taking.
    await until(async () => (await jobs.get(tenantId, job.id))?.status === 'PROCESSING', 'the job to start');
    let taken: string[] = [];
    await until(async () => (taken = await other.takeExpired(10)).length > 0, 'the lease to be handed over');
    expect(taken).toEqual([job.id]);
  });

  it('gives the lease of a finished job up for good', async () => {
    const { deps, jobs, tenantId, other } = await sharedSetup();
    const job = await jobs.enqueue({ tenantId, keyId: 'k', type: 'catalog_upload', family: 'upload' });
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await jobs.get(tenantId, job.id))?.status === 'PROCESSING', 'the job to start');
    deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await jobs.get(tenantId, job.id))?.status === 'COMPLETED', 'the job to complete');
    await settle();
    // Nothing to take over (a handed-over lease would be), and free to take.
    expect(await other.takeExpired(10)).toEqual([]);
    expect(await other.acquire(job.id)).toBe(true);
  });
});
