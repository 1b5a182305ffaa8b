// Defect injection, response level (the ResponseDefects each domain declares, applied by
// kernel/http/response-defects.ts): each defect changes only what is sent, and the contract check of the
// shared test client would have refused the defective response.
import { afterEach, describe, expect, it } from 'vitest';
import { assertDocumented, type TestSandbox } from '../testing/contract-client.js';
import { completedJob, enqueue, exchange, sandboxWith } from './defects.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const get = (s: TestSandbox, path: string, token?: string | null) => s.call('GET', path, { unchecked: true, ...(token === undefined ? {} : { token }) });
const breaksContract = (s: TestSandbox, method: string, path: string, res: Awaited<ReturnType<TestSandbox['call']>>) => () => assertDocumented(s.sim, method, path, res);

describe('defect injection: what is sent', () => {
  it('job.missing-required-field: getJob and listJobs items lack reconciliation', async () => {
    sandbox = await sandboxWith(['job.missing-required-field']);
    const jobId = (await enqueue(sandbox)).body.jobId;
    const one = await get(sandbox, `/api/jobs/${jobId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: jobId, outcomes: expect.any(Object) });
    expect(one.body).not.toHaveProperty('reconciliation');
    expect(breaksContract(sandbox, 'GET', `/api/jobs/${jobId}`, one)).toThrow(/reconciliation/);
    const list = await get(sandbox, '/api/jobs');
    expect(list.body.jobs).toHaveLength(1);
    expect(list.body.jobs[0]).not.toHaveProperty('reconciliation');
  });

  it('job.wrong-status-enum: a COMPLETED job reads status "DONE"', async () => {
    sandbox = await sandboxWith(['job.wrong-status-enum']);
    const jobId = await completedJob(sandbox);
    const one = await get(sandbox, `/api/jobs/${jobId}`);
    expect([one.status, one.body.status]).toEqual([200, 'DONE']);
    expect(breaksContract(sandbox, 'GET', `/api/jobs/${jobId}`, one)).toThrow(/status/);
    expect((await get(sandbox, '/api/jobs')).body.jobs[0].status).toBe('DONE');
  });

  it('jobs.list-count-missing: listJobs drops count', async () => {
    sandbox = await sandboxWith(['jobs.list-count-missing']);
    await enqueue(sandbox);
    const list = await get(sandbox, '/api/jobs');
    expect(list.status).toBe(200);
    expect(list.body.jobs).toHaveLength(1);
    expect(list.body).not.toHaveProperty('count');
    expect(breaksContract(sandbox, 'GET', '/api/jobs', list)).toThrow(/count/);
  });

  it('auth.token-type-wrong: the token exchange answers token_type "bearer"', async () => {
    sandbox = await sandboxWith(['auth.token-type-wrong']);
    const res = await exchange(sandbox);
    expect([res.status, res.body.token_type]).toEqual([200, 'bearer']);
    expect(breaksContract(sandbox, 'POST', '/api/auth/token/integration', res)).toThrow(/token_type/);
  });

  it('status.undocumented: the token exchange answers 201 instead of 200', async () => {
    sandbox = await sandboxWith(['status.undocumented']);
    const res = await exchange(sandbox);
    expect(res.status).toBe(201);
    expect(res.body.access_token).toEqual(expect.any(String));
    expect(breaksContract(sandbox, 'POST', '/api/auth/token/integration', res)).toThrow(/status 201 is not documented/);
  });

  it("error.wrong-code: getJob's 404 carries JOB_NOT_FOUND (other 404s keep NOT_FOUND)", async () => {
    sandbox = await sandboxWith(['error.wrong-code']);
    const res = await get(sandbox, '/api/jobs/6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b');
    expect([res.status, res.body.code]).toEqual([404, 'JOB_NOT_FOUND']);
    const route = await get(sandbox, '/api/nothing-here');
    expect([route.status, route.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('error.lost-envelope: every 4xx body is { error: <message> }', async () => {
    sandbox = await sandboxWith(['error.lost-envelope']);
    const unauthorized = await get(sandbox, '/api/jobs', null);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ error: expect.stringMatching(/Bearer/) });
    const invalid = await get(sandbox, '/api/jobs?limit=0');
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body)).toEqual(['error']);
    expect(breaksContract(sandbox, 'GET', '/api/jobs', invalid)).toThrow(/code/);
    // The control API keeps its envelope: the operator still gets readable errors.
    const control = await sandbox.call('PUT', '/_sim/defects', { body: { active: ['no.such-defect'] } });
    expect(control.body.code).toBe('INVALID_REQUEST');
  });

  it('limits.missing-retry-after: 429 answers lack the Retry-After header', async () => {
    sandbox = await sandboxWith(['limits.missing-retry-after']);
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { rateLimits: { read: { limit: 1, windowMs: 60000 } } });
    expect((await get(sandbox, '/api/jobs')).status).toBe(200);
    const limited = await get(sandbox, '/api/jobs');
    expect([limited.status, limited.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(limited.body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.headers['retry-after']).toBeUndefined();
  });

  it('limits.details-incomplete: 429 details lack keyId', async () => {
    sandbox = await sandboxWith(['limits.details-incomplete']);
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { rateLimits: { read: { limit: 1, windowMs: 60000 } } });
    await get(sandbox, '/api/jobs');
    const limited = await get(sandbox, '/api/jobs');
    expect(limited.status).toBe(429);
    expect(limited.body.details).toMatchObject({ bucket: 'read', limit: 1, windowMs: 60000 });
    expect(limited.body.details).not.toHaveProperty('keyId');
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('billing.wrong-content-type: billing setup answers text/plain', async () => {
    sandbox = await sandboxWith(['billing.wrong-content-type']);
    const res = await sandbox.call('POST', '/api/public/billing/setup-session', { body: {}, unchecked: true });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(JSON.parse(res.text)).toMatchObject({ tenantId: sandbox.identity.tenantId, paymentCustomerId: expect.any(String) });
    expect(breaksContract(sandbox, 'POST', '/api/public/billing/setup-session', res)).toThrow(/content type text\/plain/);
  });
});
