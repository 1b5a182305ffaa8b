import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore } from '../tenants/index.js';
import { createJobs, type FinishedJob, type JobsDomain } from './index.js';
import { SLOW_JOBS, settle, until } from './jobs.testing.js';

const { jobStartDelayMs: START, jobProcessingMs: PROCESSING } = SLOW_JOBS;

async function setup() {
  const deps = await createTestDeps({ config: SLOW_JOBS });
  const tenants = tenantStore(deps);
  const tenant = await tenants.create();
  const jobs = createJobs(deps, { tenants });
  const finished: FinishedJob[] = [];
  jobs.onFinished((event) => void finished.push(event));
  return { deps, tenants, jobs, tenantId: tenant.id, finished };
}

const statusOf = async (jobs: JobsDomain, tenantId: string, id: string) => (await jobs.get(tenantId, id))?.status;
const jobOf = async (jobs: JobsDomain, tenantId: string, id: string) => (await jobs.get(tenantId, id))!;

describe('the job worker', () => {
  it('runs each variant of a shared job type with its own processor, and never shows the variant', async () => {
    const { deps, jobs, tenantId } = await setup();
    jobs.registerJobType('catalog_upload', async () => ({ result: { ran: 'catalog' } }));
    jobs.registerJobType('catalog_upload', async () => ({ result: { ran: 'feed' } }), 'trade_feed_normalize');
    expect(() => jobs.registerJobType('catalog_upload', async () => ({ result: {} }), 'trade_feed_normalize')).toThrow(/already has a processor/);
    const plain = await jobs.enqueue({ tenantId, keyId: 'k', type: 'catalog_upload', family: 'upload' });
    const feed = await jobs.enqueue({ tenantId, keyId: 'k', type: 'catalog_upload', variant: 'trade_feed_normalize', family: 'upload' });
    deps.clock.advance(START);
    await until(async () => (await statusOf(jobs, tenantId, plain.id)) === 'PROCESSING' && (await statusOf(jobs, tenantId, feed.id)) === 'PROCESSING', 'both PROCESSING');
    deps.clock.advance(PROCESSING);
    await until(async () => (await statusOf(jobs, tenantId, plain.id)) === 'COMPLETED' && (await statusOf(jobs, tenantId, feed.id)) === 'COMPLETED', 'both COMPLETED');
    expect((await jobOf(jobs, tenantId, plain.id)).result).toEqual({ ran: 'catalog' });
    const shown = jobs.toResponse(await jobOf(jobs, tenantId, feed.id));
    expect(shown).toMatchObject({ type: 'catalog_upload', result: { ran: 'feed' } });
    expect(shown).not.toHaveProperty('variant');
  });

  it('moves a job PENDING -> PROCESSING -> COMPLETED on the virtual clock, never before the processing time', async () => {
    const { deps, jobs, tenantId, finished } = await setup();
    jobs.registerJobType('sima_validation', async (_job, context) => {
      await context.progress(40);
      return { result: { skusScreened: 2 }, reconciliation: { skusFound: 2, skusScreened: 2 }, outcomes: { cleared: 2 } };
    });
    const job = await jobs.enqueue({ tenantId, keyId: 'k', type: 'sima_validation', family: 'sima', input: { skus: null } });
    expect(job.status).toBe('PENDING');

    // The test clock also runs in real time: keep a second of margin around each boundary.
    deps.clock.advance(START - 1_000);
    await settle();
    expect(await statusOf(jobs, tenantId, job.id)).toBe('PENDING');

    deps.clock.advance(1_000);
    await until(async () => (await statusOf(jobs, tenantId, job.id)) === 'PROCESSING' && (await jobOf(jobs, tenantId, job.id)).progress === 40, 'PROCESSING at 40%');
    expect((await jobOf(jobs, tenantId, job.id)).startedAt).not.toBeNull();

    deps.clock.advance(PROCESSING - 1_000);
    await settle();
    expect(await statusOf(jobs, tenantId, job.id)).toBe('PROCESSING');

    deps.clock.advance(1_000);
    await until(async () => (await statusOf(jobs, tenantId, job.id)) === 'COMPLETED', 'COMPLETED');
    const done = jobs.toResponse(await jobOf(jobs, tenantId, job.id));
    expect(done).toMatchObject({
      status: 'COMPLETED',
      progress: 100,
      result: { skusScreened: 2 },
      reconciliation: { rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: 2, skusScreened: 2, skusNotApplicable: 0 },
      outcomes: { atRisk: 0, cleared: 2, needsReview: 0, falsePositive: 0 },
      error: null,
    });
    await until(() => finished.length === 1, 'the finished event');
    expect(finished[0]).toEqual({
      tenantId,
      job: { id: job.id, type: 'sima_validation', status: 'COMPLETED', progress: 100, createdAt: job.createdAt, updatedAt: done.updatedAt, result: { skusScreened: 2 }, error: null },
    });
  });

  it('fails a job whose processor throws, with the message as error and no stack', async () => {
    const { deps, jobs, tenantId, finished } = await setup();
    jobs.registerJobType('catalog_upload', async () => {
      throw new Error('row 3: hsCode is not a tariff number');
    });
    const job = await jobs.enqueue({ tenantId, keyId: null, type: 'catalog_upload', family: 'upload', fileName: 'catalog.csv' });
    deps.clock.advance(START);
    await until(async () => (await statusOf(jobs, tenantId, job.id)) === 'PROCESSING', 'PROCESSING');
    deps.clock.advance(PROCESSING);
    await until(async () => (await statusOf(jobs, tenantId, job.id)) === 'FAILED', 'FAILED');
    const failed = jobs.toResponse(await jobOf(jobs, tenantId, job.id));
    expect(failed.error).toBe('row 3: hsCode is not a tariff number');
    expect(failed.fileName).toBe('catalog.csv');
    expect(failed.progress).toBeLessThan(100);
    await until(() => finished.length === 1, 'the finished event');
    expect(finished[0].job).toMatchObject({ status: 'FAILED', result: null, error: 'row 3: hsCode is not a tariff number' });
  });

  it('fails a job of a type no worker handles with a clear error, and keeps serving other jobs', async () => {
    const { deps, jobs, tenantId } = await setup();
    jobs.registerJobType('sima_validation', async () => ({ result: {} }));
    const orphan = await jobs.enqueue({ tenantId, keyId: null, type: 'notification_digest', family: 'other' });
    const fine = await jobs.enqueue({ tenantId, keyId: null, type: 'sima_validation', family: 'sima' });
    deps.clock.advance(START);
    await until(async () => (await statusOf(jobs, tenantId, fine.id)) === 'PROCESSING' && (await statusOf(jobs, tenantId, orphan.id)) === 'PROCESSING', 'both started');
    deps.clock.advance(PROCESSING);
    await until(async () => (await statusOf(jobs, tenantId, orphan.id)) === 'FAILED' && (await statusOf(jobs, tenantId, fine.id)) === 'COMPLETED', 'both finished');
    expect((await jobOf(jobs, tenantId, orphan.id)).error).toBe('no worker handles jobs of type notification_digest in this sandbox');
  });

  it('survives a processor that throws a non-Error and a listener that throws', async () => {
    const { deps, jobs, tenantId, finished } = await setup();
    jobs.onFinished(() => {
      throw new Error('listener broke');
    });
    jobs.registerJobType('order_upload', () => Promise.reject({ weird: true }));
    const job = await jobs.enqueue({ tenantId, keyId: null, type: 'order_upload', family: 'upload' });
    deps.clock.advance(START);
    await until(async () => (await statusOf(jobs, tenantId, job.id)) === 'PROCESSING', 'PROCESSING');
    deps.clock.advance(PROCESSING);
    await until(() => finished.length === 1, 'the finished event');
    expect(await jobs.get(tenantId, job.id)).toMatchObject({ status: 'FAILED', error: 'the job failed without a message' });
    // The worker still takes new work afterwards.
    jobs.registerJobType('ship_upload', async () => ({ result: { rows: 1 } }));
    const next = await jobs.enqueue({ tenantId, keyId: null, type: 'ship_upload', family: 'upload' });
    deps.clock.advance(START);
    await until(async () => (await statusOf(jobs, tenantId, next.id)) === 'PROCESSING', 'PROCESSING');
    deps.clock.advance(PROCESSING);
    await until(async () => (await statusOf(jobs, tenantId, next.id)) === 'COMPLETED', 'COMPLETED');
  });

  it('refuses a second processor for a job type', async () => {
    const { jobs } = await setup();
    jobs.registerJobType('sima_validation', async () => ({ result: {} }));
    expect(() => jobs.registerJobType('sima_validation', async () => ({ result: {} }))).toThrow('job type sima_validation already has a processor');
  });

  it('makes the terminal state durable before announcing it', async () => {
    const { deps, jobs, tenantId } = await setup();
    const flushedBefore: boolean[] = [];
    let flushes = 0;
    const flush = deps.store.flush.bind(deps.store);
    deps.store.flush = () => {
      flushes += 1;
      return flush();
    };
    jobs.onFinished(() => void flushedBefore.push(flushes >= 2));
    jobs.registerJobType('ship_upload', async () => ({ result: {} }));
    const job = await jobs.enqueue({ tenantId, keyId: null, type: 'ship_upload', family: 'upload' });
    deps.clock.advance(START);
    await until(async () => (await statusOf(jobs, tenantId, job.id)) === 'PROCESSING', 'PROCESSING');
    deps.clock.advance(PROCESSING);
    await until(() => flushedBefore.length === 1, 'the finished event');
    // one flush after PROCESSING, one after COMPLETED, both before the event
    expect(flushedBefore).toEqual([true]);
  });

  it("starts a tenant's job when only that tenant's clock is advanced; another tenant's job enqueued at the same time stays PENDING", async () => {
    const { deps, tenants, jobs, tenantId: a } = await setup();
    const b = (await tenants.create()).id;
    jobs.registerJobType('ship_upload', async () => ({ result: {} }));
    const jobA = await jobs.enqueue({ tenantId: a, keyId: null, type: 'ship_upload', family: 'upload' });
    const jobB = await jobs.enqueue({ tenantId: b, keyId: null, type: 'ship_upload', family: 'upload' });

    deps.clocks.of(a).advance(START);
    await until(async () => (await statusOf(jobs, a, jobA.id)) === 'PROCESSING', "tenant A's job PROCESSING");
    await settle();
    expect(await statusOf(jobs, b, jobB.id)).toBe('PENDING');
    // Only tenant A's time moved: the sandbox clock and tenant B's clock did not.
    expect(deps.clocks.of(a).now() - deps.clocks.of(b).now()).toBeGreaterThanOrEqual(START);
    expect(deps.clocks.of(b).offsetMs()).toBe(deps.clock.offsetMs());

    deps.clocks.of(a).advance(PROCESSING);
    await until(async () => (await statusOf(jobs, a, jobA.id)) === 'COMPLETED', "tenant A's job COMPLETED");
    await settle();
    expect(await statusOf(jobs, b, jobB.id)).toBe('PENDING');

    // Tenant B's job was only waiting for its own clock.
    deps.clocks.of(b).advance(START);
    await until(async () => (await statusOf(jobs, b, jobB.id)) === 'PROCESSING', "tenant B's job PROCESSING");
  });
});
