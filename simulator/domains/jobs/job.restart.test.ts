import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KernelDeps } from '../../kernel/deps.js';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore } from '../tenants/index.js';
import { createJobs, type JobProcessor } from './index.js';
import { SLOW_JOBS, until } from './jobs.testing.js';

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
    const tenant = first.tenants.create();
    const job = first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: { skus: ['A'] } });
    await first.deps.store.flush();
    crash(first.deps);

    const second = await boot(file);
    expect(second.jobs.get(tenant.id, job.id)?.status).toBe('PENDING');
    await second.jobs.start!();
    second.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(() => second.jobs.get(tenant.id, job.id)!.status === 'PROCESSING', 'PROCESSING');
    second.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(() => second.jobs.get(tenant.id, job.id)!.status === 'COMPLETED', 'COMPLETED');
    expect(second.jobs.get(tenant.id, job.id)!.result).toEqual({ echoed: { skus: ['A'] } });
    await Promise.all([first.deps.store.close(), second.deps.store.close()]);
  });

  it('runs a job caught in PROCESSING again and completes it', async () => {
    const file = tempFile();
    let release: () => void = () => {};
    // This process's processor never gets to finish: the crash comes first.
    const first = await boot(file, () => new Promise((resolve) => (release = () => resolve({ result: {} }))));
    const tenant = first.tenants.create();
    const job = first.jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'sima_validation', family: 'sima', input: 'again' });
    first.deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(() => first.jobs.get(tenant.id, job.id)!.status === 'PROCESSING', 'PROCESSING');
    await first.deps.store.flush();
    crash(first.deps);

    const second = await boot(file);
    expect(second.jobs.get(tenant.id, job.id)?.status).toBe('PROCESSING');
    await second.jobs.start!();
    await until(() => second.jobs.get(tenant.id, job.id)!.startedAt !== first.jobs.get(tenant.id, job.id)!.startedAt, 'restarted');
    second.deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(() => second.jobs.get(tenant.id, job.id)!.status === 'COMPLETED', 'COMPLETED');
    expect(second.jobs.get(tenant.id, job.id)!.result).toEqual({ echoed: 'again' });
    release();
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
    const tenant = tenants.create();
    const job = jobs.enqueue({ tenantId: tenant.id, keyId: null, type: 'ship_upload', family: 'upload' });
    await jobs.start!();
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(() => jobs.get(tenant.id, job.id)!.status === 'PROCESSING', 'PROCESSING');
    await jobs.start!();
    deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(() => jobs.get(tenant.id, job.id)!.status === 'COMPLETED', 'COMPLETED');
    expect(runs).toBe(1);
  });
});
