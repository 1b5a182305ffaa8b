import { describe, expect, it } from 'vitest';
import { ApiError } from '../../kernel/errors.js';
import { createTestDeps } from '../../testing/kernel.js';
import { tenantStore, type QueueCaps } from '../tenants/index.js';
import { createJobs, type QueueFamily } from './index.js';
import { SLOW_JOBS, until } from './jobs.testing.js';

const RUN_SECONDS = (SLOW_JOBS.jobStartDelayMs + SLOW_JOBS.jobProcessingMs) / 1000;

async function setup(caps: QueueCaps) {
  const deps = await createTestDeps({ config: SLOW_JOBS });
  const tenants = tenantStore(deps);
  const tenant = await tenants.create();
  await tenants.update(tenant.id, (t) => ({ ...t, settings: { ...t.settings, queueCaps: caps } }));
  const other = await tenants.create();
  const jobs = createJobs(deps, { tenants });
  const enqueue = (family: QueueFamily, tenantId = tenant.id) =>
    jobs.enqueue({ tenantId, keyId: 'key-7', type: family === 'sima' ? 'sima_validation' : family === 'upload' ? 'ship_upload' : 'catalog_upload', family });
  return { deps, jobs, tenantId: tenant.id, otherId: other.id, enqueue };
}

async function refusal(action: () => Promise<unknown>): Promise<ApiError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('queue admission (spec 8.2)', () => {
  it('refuses a SIMA job at the SIMA cap with 429 RATE_LIMITED and full details', async () => {
    const { jobs, tenantId, enqueue, otherId } = await setup({ total: 10, upload: 5, sima: 2, preview: 1 });
    await enqueue('sima');
    await enqueue('sima');
    const error = await refusal(() => enqueue('sima'));
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.details).toEqual({ bucket: 'queue_sima', limit: 2, windowMs: 0, retryAfterSeconds: RUN_SECONDS, keyId: 'key-7' });
    expect(error.headers).toEqual({ 'Retry-After': String(RUN_SECONDS) });
    // other families and other tenants are not held back by the SIMA cap
    expect((await enqueue('upload')).status).toBe('PENDING');
    expect((await enqueue('sima', otherId)).status).toBe('PENDING');
    expect(await jobs.inFlightCount(tenantId)).toBe(3);
    expect(await jobs.inFlightCount(tenantId, 'sima')).toBe(2);
  });

  it('admits no more than the cap when a tenant enqueues many jobs at once', async () => {
    const { jobs, tenantId, enqueue } = await setup({ total: 10, upload: 5, sima: 3, preview: 1 });
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => enqueue('sima')));
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3);
    expect(settled.filter((s) => s.status === 'rejected').every((s) => (s as PromiseRejectedResult).reason.code === 'RATE_LIMITED')).toBe(true);
    expect(await jobs.inFlightCount(tenantId, 'sima')).toBe(3);
  });

  it('refuses an upload-family job at the upload cap', async () => {
    const { enqueue } = await setup({ total: 10, upload: 1, sima: 5, preview: 1 });
    await enqueue('upload');
    expect((await refusal(() => enqueue('upload'))).details).toMatchObject({ bucket: 'queue_upload', limit: 1, windowMs: 0, keyId: 'key-7' });
  });

  it('refuses a classify-preview job at the preview cap', async () => {
    const { enqueue } = await setup({ total: 10, upload: 5, sima: 5, preview: 1 });
    await enqueue('preview');
    expect((await refusal(() => enqueue('preview'))).details).toMatchObject({ bucket: 'preview_inflight', limit: 1 });
  });

  it('refuses any job at the total cap, whatever its family', async () => {
    const { enqueue } = await setup({ total: 3, upload: 5, sima: 5, preview: 5 });
    await enqueue('sima');
    await enqueue('upload');
    await enqueue('other');
    const error = await refusal(() => enqueue('other'));
    expect(error.details).toEqual({ bucket: 'queue_total', limit: 3, windowMs: 0, retryAfterSeconds: RUN_SECONDS, keyId: 'key-7' });
    expect(error.message).toMatch(/cap 3/);
  });

  it('estimates the wait from the processing time and admits again once a job finishes', async () => {
    const { deps, jobs, tenantId, enqueue } = await setup({ total: 10, upload: 5, sima: 1, preview: 1 });
    jobs.registerJobType('sima_validation', async () => ({ result: {} }));
    const first = await enqueue('sima');
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await jobs.get(tenantId, first.id))!.status === 'PROCESSING', 'PROCESSING');
    deps.clock.advance(60_000);
    // started a minute ago, processing lasts two: about a minute left
    const wait = (await refusal(() => enqueue('sima'))).details!.retryAfterSeconds as number;
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    deps.clock.advance(60_000);
    await until(async () => (await jobs.get(tenantId, first.id))!.status === 'COMPLETED', 'COMPLETED');
    expect(await jobs.inFlightCount(tenantId, 'sima')).toBe(0);
    expect((await enqueue('sima')).status).toBe('PENDING');
  });
});
