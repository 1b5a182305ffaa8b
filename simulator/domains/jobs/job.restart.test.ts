import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { KernelDeps } from '../../kernel/deps.js';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore } from '../tenants/index.js';
import { createJobs, type JobProcessor, type JobStatus } from './index.js';
import { MAX_RESUMES } from './job.worker.js';
import { SLOW_JOBS, until } from './jobs.testing.js';

// Every job-machine transition the worker asks for, to see which move a restart takes (not only where it lands).
const jobTransitions = vi.hoisted(() => [] as Array<{ from: string; action: string; to: string }>);
vi.mock('../../kernel/machine.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../kernel/machine.js')>();
  const transition: typeof actual.transition = (machine, current, action, context, details) => {
    const to = actual.transition(machine, current, action, context, details);
    if (machine.name === 'job') jobTransitions.push({ from: current, action, to });
    return to;
  };
  return { ...actual, transition };
});

const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'jobs-restart-')), 'store.json');

/** One simulator process: its own store handle on the file, its own clock and scheduler. */
const echo: JobProcessor = async (job) => ({ result: { echoed: job.input } });

async function boot(file: string, processor: JobProcessor = echo) {
  const deps = await createTestDeps({ file, config: SLOW_JOBS });
  const tenants = tenantStore(deps);
  const jobs = createJobs(deps, { tenants });
  jobs.registerJobType('sima_validation', processor);
  return { deps, tenants, jobs };
}

/** As after a SIGKILL: the store is simply abandoned (no close), timers stop. */
const crash = (deps: KernelDeps) => deps.scheduler.stop();

describe('jobs across a restart', () => {
  it('resumes a PENDING job on a reopened store and completes it', async () => {
    const file = tempFile();
    const first = await boot(file);
    const tenant = await first.tenants.create();
    const job = await first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: { skus: ['A'] } });
    await first.deps.store.flush();
    crash(first.deps);

    const second = await boot(file);
    const get = async () => (await second.jobs.get(tenant.id, job.id))!;
    expect((await second.jobs.get(tenant.id, job.id))?.status).toBe('PENDING');
    await second.jobs.start!();
    second.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await get()).status === 'PROCESSING', 'PROCESSING');
    second.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await get()).status === 'COMPLETED', 'COMPLETED');
    expect((await get()).result).toEqual({ echoed: { skus: ['A'] } });
    await Promise.all([first.deps.store.close(), second.deps.store.close()]);
  });

  it('runs a job caught in PROCESSING again and completes it', async () => {
    const file = tempFile();
    let release: () => void = () => {};
    // This process's processor never gets to finish: the crash comes first.
    const first = await boot(file, () => new Promise((resolve) => (release = () => resolve({ result: {} }))));
    const tenant = await first.tenants.create();
    const job = await first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: 'again' });
    first.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await first.jobs.get(tenant.id, job.id))!.status === 'PROCESSING', 'PROCESSING');
    await first.deps.store.flush();
    crash(first.deps);

    const second = await boot(file);
    const get = async () => (await second.jobs.get(tenant.id, job.id))!;
    expect((await second.jobs.get(tenant.id, job.id))?.status).toBe('PROCESSING');
    await second.jobs.start!();
    const firstStartedAt = (await first.jobs.get(tenant.id, job.id))!.startedAt;
    await until(async () => (await get()).startedAt !== firstStartedAt, 'restarted');
    second.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await get()).status === 'COMPLETED', 'COMPLETED');
    expect((await get()).result).toEqual({ echoed: 'again' });
    release();
    await Promise.all([first.deps.store.close(), second.deps.store.close()]);
  });

  it('resumes a PROCESSING job through the machine\'s resume transition: it never goes back to PENDING', async () => {
    const file = tempFile();
    const first = await boot(file, () => new Promise(() => {})); // crashes before its processor finishes
    const tenant = await first.tenants.create();
    const job = await first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: 'resumed' });
    first.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await first.jobs.get(tenant.id, job.id))!.status === 'PROCESSING', 'PROCESSING');
    await first.deps.store.flush();
    crash(first.deps);
    const beforeRestart = (await first.jobs.get(tenant.id, job.id))!;

    // What the restarted process's processor sees of the job, and every status stored while it runs.
    const seenByProcessor: Array<{ status: JobStatus; progress: number }> = [];
    const second = await boot(file, async (picked) => {
      seenByProcessor.push({ status: picked.status, progress: picked.progress });
      return { result: { echoed: picked.input } };
    });
    const get = async () => (await second.jobs.get(tenant.id, job.id))!;
    const stored: JobStatus[] = [];
    jobTransitions.length = 0;
    await second.jobs.start!();
    await until(async () => {
      stored.push((await get()).status);
      return seenByProcessor.length === 1;
    }, 'the resumed run');
    await until(async () => Boolean((await get()).settled), 'its verdict saved');

    expect(jobTransitions).toEqual([{ from: 'PROCESSING', action: 'resume', to: 'PROCESSING' }]);
    expect(seenByProcessor).toEqual([{ status: 'PROCESSING', progress: 0 }]);
    const resumed = await get();
    expect(resumed.status).toBe('PROCESSING');
    expect(resumed.startedAt).not.toBe(beforeRestart.startedAt);
    // A compare-and-set write of the record the restart read (one revision later), then the processor's
    // verdict saved before the job waits out its processing time (one more).
    expect(resumed.rev).toBe(beforeRestart.rev! + 2);
    expect(stored).not.toContain('PENDING');

    second.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await get()).status === 'COMPLETED', 'COMPLETED');
    expect(jobTransitions.map((t) => t.action)).toEqual(['resume', 'succeed']);
    expect((await get()).result).toEqual({ echoed: 'resumed' });
    await Promise.all([first.deps.store.close(), second.deps.store.close()]);
  });

  it(`ends a job FAILED with its reason, without running it, once the process stopped under it more than ${MAX_RESUMES} times after resuming it`, async () => {
    const file = tempFile();
    const runs: string[] = [];
    const hangs: JobProcessor = async (picked) => {
      runs.push(picked.id);
      return new Promise(() => {}); // every run ends with the process, as an input that crashes it would
    };
    let process = await boot(file, hangs);
    const tenant = await process.tenants.create();
    const job = await process.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: 'crashes' });
    process.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => runs.length === 1, 'the first run');
    const stores = [process.deps.store];
    for (let restart = 1; restart <= MAX_RESUMES; restart++) {
      await process.deps.store.flush();
      crash(process.deps);
      process = await boot(file, hangs);
      stores.push(process.deps.store);
      await process.jobs.start!();
      await until(async () => runs.length === restart + 1, `run ${restart + 1}`);
      expect((await process.jobs.get(tenant.id, job.id))!).toMatchObject({ status: 'PROCESSING', resumes: restart });
    }
    await process.deps.store.flush();
    crash(process.deps);

    const last = await boot(file, hangs);
    stores.push(last.deps.store);
    await last.jobs.start!();
    const get = async () => (await last.jobs.get(tenant.id, job.id))!;
    await until(async () => (await get()).resumes === MAX_RESUMES + 1, 'the count written');
    last.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await get()).status === 'FAILED', 'FAILED');
    expect(runs).toHaveLength(MAX_RESUMES + 1); // not run a fourth time
    expect((await get()).error).toMatch(new RegExp(`^the sandbox stopped ${MAX_RESUMES + 1} times while this job was running`));
    await Promise.all(stores.map((store) => store.close()));
  });

  it('ends a job whose processor settled before the crash with that verdict, never running the processor again (issue 30 item 3)', async () => {
    const file = tempFile();
    // The processor's domain work is done (one succeeds, one fails for its input); the crash comes while
    // each job waits out its processing time, before either is COMPLETED or FAILED.
    const first = await boot(file, async (job) => {
      if (job.input === 'bad input') throw new Error('the file has no SKU column');
      return { result: { shipmentsCreated: 3 }, reconciliation: { rowsUploaded: 3 } };
    });
    const tenant = await first.tenants.create();
    const good = await first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: 'good input' });
    const bad = await first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: 'bad input' });
    first.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    const settledIn = (jobs: typeof first.jobs) => async () => Boolean((await jobs.get(tenant.id, good.id))?.settled && (await jobs.get(tenant.id, bad.id))?.settled);
    await until(settledIn(first.jobs), 'both verdicts saved');
    await first.deps.store.flush();
    crash(first.deps);

    let runs = 0;
    const second = await boot(file, async () => {
      runs += 1;
      throw new Error('normalize is not allowed when the trade feed session is READY'); // what a rerun would meet
    });
    const finished: string[] = [];
    second.jobs.onFinished(({ job }) => void finished.push(`${job.id} ${job.status}`));
    const get = async (id: string) => (await second.jobs.get(tenant.id, id))!;
    expect((await get(good.id)).status).toBe('PROCESSING');
    await second.jobs.start!();
    // The new process's clock starts where the first one's did: the jobs' processing time runs from their start.
    second.deps.clock.advance(SLOW_JOBS.jobStartDelayMs + SLOW_JOBS.jobProcessingMs);
    await until(async () => finished.length === 2, 'both jobs ended');
    expect(runs).toBe(0);
    expect(await get(good.id)).toMatchObject({ status: 'COMPLETED', progress: 100, result: { shipmentsCreated: 3 }, reconciliation: { rowsUploaded: 3 }, error: null, settled: null });
    expect(await get(bad.id)).toMatchObject({ status: 'FAILED', error: 'the file has no SKU column', settled: null });
    expect(finished.sort()).toEqual([`${good.id} COMPLETED`, `${bad.id} FAILED`].sort());
    await Promise.all([first.deps.store.close(), second.deps.store.close()]);
  });

  it('does not run a job twice when start() comes after the job was already scheduled', async () => {
    const deps = await createTestDeps({ config: SLOW_JOBS });
    const tenants = tenantStore(deps);
    const jobs = createJobs(deps, { tenants });
    let runs = 0;
    jobs.registerJobType('ship_upload', async () => {
      runs += 1;
      return { result: {} };
    });
    const tenant = await tenants.create();
    const job = await jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'ship_upload', family: 'upload' });
    const get = async () => (await jobs.get(tenant.id, job.id))!;
    await jobs.start!();
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await get()).status === 'PROCESSING', 'PROCESSING');
    await jobs.start!();
    deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => (await get()).status === 'COMPLETED', 'COMPLETED');
    expect(runs).toBe(1);
  });

  it('announces at the next start a job that ended just before a crash, before its finished listeners ran, and only once', async () => {
    const file = tempFile();
    const first = await boot(file);
    let reached!: () => void;
    const listenerReached = new Promise<void>((resolve) => (reached = resolve));
    // The crash comes while the first process's listener runs: the terminal state is durable, the notice is not.
    first.jobs.onFinished(() => {
      reached();
      return new Promise<void>(() => {});
    });
    const tenant = await first.tenants.create();
    const job = await first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: { skus: ['A'] } });
    first.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await first.jobs.get(tenant.id, job.id))?.status === 'PROCESSING', 'PROCESSING');
    first.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await listenerReached;
    crash(first.deps);

    const heard: string[] = [];
    const second = await boot(file);
    second.jobs.onFinished(({ job: finished }) => void heard.push(`${finished.id} ${finished.status}`));
    expect((await second.jobs.get(tenant.id, job.id))?.status).toBe('COMPLETED');
    await second.jobs.start!();
    expect(heard).toEqual([`${job.id} COMPLETED`]);
    await second.deps.store.flush();
    crash(second.deps);

    const third = await boot(file);
    third.jobs.onFinished(({ job: finished }) => void heard.push(`again ${finished.id}`));
    await third.jobs.start!();
    expect(heard).toEqual([`${job.id} COMPLETED`]);
    await Promise.all([first.deps.store.close(), second.deps.store.close(), third.deps.store.close()]);
  });
});
