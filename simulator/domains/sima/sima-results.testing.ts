// Helpers for the SIMA read endpoints' tests over HTTP (every response contract-checked by the test client):
// a screening run to COMPLETED on the virtual clock (POST /_sim/clock/advance), another tenant with its
// token, reading every page of a results query, and the review dashboard action of the control API.
import { expect } from 'vitest';
import type { CheckedResponse, TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS, until } from '../jobs/jobs.testing.js';
import type { SimaResultItem } from './sima.types.js';

/** Enqueues a batch for the tenant of `token` (the default tenant without one) and moves the sandbox clock until its job is COMPLETED. */
export async function screen(sandbox: TestSandbox, body: Record<string, unknown>, tenant?: { tenantId: string; token: string }): Promise<string> {
  const tenantId = tenant?.tenantId ?? sandbox.identity.tenantId;
  const accepted = await sandbox.call('POST', '/api/sima/batch', { body, ...(tenant ? { token: tenant.token } : {}) });
  expect(accepted.status).toBe(202);
  const jobId = accepted.body.jobId as string;
  const status = async () => (await sandbox.sim.domains.jobs.get(tenantId, jobId))?.status;
  expect((await sandbox.admin('POST', '/_sim/clock/advance', { seconds: SLOW_JOBS.jobStartDelayMs / 1000 })).status).toBe(200);
  await until(async () => (await status()) !== 'PENDING', 'the job to start');
  expect((await sandbox.admin('POST', '/_sim/clock/advance', { seconds: SLOW_JOBS.jobProcessingMs / 1000 })).status).toBe(200);
  await until(async () => (await status()) === 'COMPLETED', 'the job to complete');
  return jobId;
}

/** A new tenant (POST /_sim/tenants) and a bearer token for its key. */
export async function otherTenant(sandbox: TestSandbox): Promise<{ tenantId: string; token: string }> {
  const created = await sandbox.admin('POST', '/_sim/tenants', { name: 'Other importer' });
  const exchanged = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': created.body.integrationKey } });
  return { tenantId: created.body.tenantId, token: exchanged.body.access_token };
}

/** GET /api/sima/results?<query> with limit=1000 (one page holds every result of a sample catalog). */
export async function listAll(sandbox: TestSandbox, query = '', token?: string): Promise<SimaResultItem[]> {
  const listed = await sandbox.call('GET', `/api/sima/results?limit=1000${query ? `&${query}` : ''}`, token ? { token } : {});
  expect(listed.status).toBe(200);
  expect(listed.body.hasMore).toBe(false);
  return listed.body.outcomes;
}

/** The control API's review action on the default tenant's SKU. */
export const review = (sandbox: TestSandbox, sku: string, action: string, note?: string): Promise<CheckedResponse> =>
  sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/sima/results/${encodeURIComponent(sku)}/review`, note === undefined ? { action } : { action, note });
