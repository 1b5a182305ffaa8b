import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { ApiError } from '../../kernel/errors.js';
import { normalizeScreeningAuthority } from './sima.routes.js';
import { simaSetup } from './sima.testing.js';

const schemas = createContractSchemas(loadContract('v1.3.0'));

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
};

describe('POST /api/sima/batch', () => {
  it('answers 202 with the job-accepted receipt and queues a PENDING sima_validation job', async () => {
    const { enqueue, jobs, tenantId } = await simaSetup();
    const response = await enqueue({ skus: ['UDS-SOFABED-GRY-3S'], runPolicy: 'skip_exact_duplicates' });
    expect(response.status).toBe(202);
    const receipt = response.body as { jobId: string };
    expect(receipt).toEqual({ jobId: receipt.jobId, status: 'PENDING', message: 'SIMA screening batch accepted', replayed: false });
    expect(schemas.component('JobAcceptedReceipt')(receipt)).toBe(true);
    const job = (await jobs.get(tenantId, receipt.jobId))!;
    expect(job).toMatchObject({ type: 'sima_validation', family: 'sima', status: 'PENDING' });
    expect(job.input).toEqual({ skus: ['UDS-SOFABED-GRY-3S'], runPolicy: 'skip_exact_duplicates', screeningAuthority: 'CA' });
  });

  it('defaults skus to the whole catalog and runPolicy to always', async () => {
    const { enqueue, jobs, tenantId } = await simaSetup();
    const { jobId } = (await enqueue({ screeningAuthority: 'US' })).body as { jobId: string };
    expect((await jobs.get(tenantId, jobId))!.input).toEqual({ skus: null, runPolicy: 'always', screeningAuthority: 'US' });
  });

  it('normalizes screeningAuthority: " us " is US, blank or omitted is CA', async () => {
    expect(normalizeScreeningAuthority(' us ')).toBe('US');
    expect(normalizeScreeningAuthority('Ca')).toBe('CA');
    expect(normalizeScreeningAuthority('   ')).toBe('CA');
    expect(normalizeScreeningAuthority(undefined)).toBe('CA');
    const { enqueue, jobs, tenantId } = await simaSetup();
    const { jobId } = (await enqueue({ skus: null, screeningAuthority: ' us ' })).body as { jobId: string };
    expect(((await jobs.get(tenantId, jobId))!.input as { screeningAuthority: string }).screeningAuthority).toBe('US');
  });

  it('refuses screeningAuthority MX with 400 INVALID_REQUEST naming the field, and queues nothing', async () => {
    const { enqueue, jobs, tenantId } = await simaSetup();
    const error = await rejection(enqueue({ skus: null, screeningAuthority: 'MX' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual({ field: 'screeningAuthority' });
    expect(await jobs.inFlightCount(tenantId)).toBe(0);
  });

  // skus and runPolicy reach the handler validated by the contract: their refusals are tested over HTTP
  // (sima.over-http.test.ts), where that validation runs.

  it('reads the webhook configuration before queueing and attaches it to the new job', async () => {
    const { enqueue, attached, tenantId, jobs } = await simaSetup();
    const refused = await rejection(enqueue({ skus: null, webhookUrl: 'https://127.0.0.1/hook' }));
    expect(refused.details).toEqual({ field: 'webhookUrl' });
    expect(await jobs.inFlightCount(tenantId)).toBe(0);
    expect(attached).toEqual([]);

    const { jobId } = (await enqueue({ skus: null, webhookUrl: 'https://hooks.example.com/svc' })).body as { jobId: string };
    expect(attached).toEqual([{ jobId, tenantId, config: { url: 'https://hooks.example.com/svc', secret: null, events: ['job.completed', 'job.failed'] } }]);
    await enqueue({ skus: null });
    expect(attached).toHaveLength(1);
  });

  it('answers 429 RATE_LIMITED at the tenant\'s SIMA queue cap', async () => {
    const { enqueue, tenants, tenantId } = await simaSetup();
    await tenants.update(tenantId, (t) => ({ ...t, settings: { ...t.settings, queueCaps: { ...t.settings.queueCaps, sima: 1 } } }));
    await enqueue({ skus: null });
    const error = await rejection(enqueue({ skus: null }));
    expect(error.status).toBe(429);
    expect(error.details).toMatchObject({ bucket: 'queue_sima', limit: 1, windowMs: 0, keyId: 'key-1' });
  });
});
