// Defect injection, behaviour: auth, validation, jobs, isolation, pagination and billing defects change
// what the simulator accepts or does, observable over HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { TestSandbox } from '../testing/contract-client.js';
import { completedJob, enqueue, exchange, sandboxWith, storedStatus } from './defects.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const get = (s: TestSandbox, path: string, token?: string | null) => s.call('GET', path, { unchecked: true, ...(token === undefined ? {} : { token }) });

/** A second tenant's bearer token. */
async function otherTenantToken(s: TestSandbox): Promise<string> {
  const other = await s.admin('POST', '/_sim/tenants', { name: 'Other importer' });
  return (await exchange(s, other.body.integrationKey)).body.access_token;
}

describe('defect injection: validation', () => {
  it('validation.lenient-bounds: out-of-range limit and offset are served, mistyped ones still refused', async () => {
    sandbox = await sandboxWith(['validation.lenient-bounds']);
    await enqueue(sandbox);
    for (const query of ['limit=0', 'limit=101', 'offset=-1']) expect((await get(sandbox, `/api/jobs?${query}`)).status, query).toBe(200);
    expect((await get(sandbox, '/api/jobs?offset=-1')).body.jobs).toHaveLength(1);
    expect((await get(sandbox, '/api/jobs?limit=ten')).status).toBe(400);
  });

  it('validation.crash-on-bad-json: a malformed JSON body gives 500 INTERNAL_ERROR', async () => {
    sandbox = await sandboxWith(['validation.crash-on-bad-json']);
    const res = await sandbox.call('POST', '/api/sima/batch', { headers: { 'content-type': 'application/json' }, body: '{"skus": [', unchecked: true });
    expect([res.status, res.body.code]).toEqual([500, 'INTERNAL_ERROR']);
    expect((await enqueue(sandbox)).status).toBe(202); // well-formed bodies are unaffected
  });
});

describe('defect injection: auth', () => {
  it('auth.expired-token-accepted: a token past its expiry keeps working', async () => {
    sandbox = await sandboxWith(['auth.expired-token-accepted']);
    await sandbox.token();
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 7200 });
    expect((await get(sandbox, '/api/jobs')).status).toBe(200);
  });

  it('auth.revoked-key-tokens-valid: tokens of a revoked key keep working (the exchange still refuses the key)', async () => {
    sandbox = await sandboxWith(['auth.revoked-key-tokens-valid']);
    await sandbox.token();
    await sandbox.admin('POST', `/_sim/integration-keys/${sandbox.identity.integrationKeyId}/revoke`);
    expect((await get(sandbox, '/api/jobs')).status).toBe(200);
    const again = await exchange(sandbox);
    expect([again.status, again.body.code]).toEqual([401, 'REVOKED_API_KEY']);
  });

  it('auth.missing-bearer-wrong-code: a call without bearer gets 400 MISSING_API_KEY', async () => {
    sandbox = await sandboxWith(['auth.missing-bearer-wrong-code']);
    const res = await get(sandbox, '/api/jobs', null);
    expect([res.status, res.body.code]).toEqual([400, 'MISSING_API_KEY']);
    const malformed = await sandbox.call('GET', '/api/jobs', { headers: { authorization: 'Bearer nope' }, token: null, unchecked: true });
    expect(malformed.body.code).toBe('INVALID_TOKEN');
  });

  it('auth.signature-not-verified: a token whose payload was altered after signing is accepted', async () => {
    sandbox = await sandboxWith(['auth.signature-not-verified']);
    const [header, payload, signature] = (await sandbox.token()).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...claims, scopes: ['ship:upload'], jti: 'forged' })).toString('base64url');
    expect((await get(sandbox, '/api/jobs', `${header}.${tampered}.${signature}`)).status).toBe(200);
  });

  it('auth.principal-not-enforced: a dashboard token is accepted on billing setup', async () => {
    sandbox = await sandboxWith(['auth.principal-not-enforced']);
    const dashboard = await sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/dashboard-token`);
    const res = await sandbox.call('POST', '/api/public/billing/setup-session', { token: dashboard.body.access_token, body: {}, unchecked: true });
    expect([res.status, res.body.tenantId]).toEqual([201, sandbox.identity.tenantId]);
  });

  it('auth.unknown-key-wrong-code: the exchange answers an unknown key with 403 INVALID_API_KEY', async () => {
    sandbox = await sandboxWith(['auth.unknown-key-wrong-code']);
    const res = await exchange(sandbox, 'tfk_sbx_not_a_key_anyone_issued');
    expect([res.status, res.body.code]).toEqual([403, 'INVALID_API_KEY']);
  });
});

describe('defect injection: jobs, isolation, pagination', () => {
  it("isolation.tenant-leak: getJob serves another tenant's job", async () => {
    sandbox = await sandboxWith(['isolation.tenant-leak']);
    const jobId = (await enqueue(sandbox)).body.jobId;
    const theirs = await get(sandbox, `/api/jobs/${jobId}`, await otherTenantToken(sandbox));
    expect([theirs.status, theirs.body.id]).toEqual([200, jobId]);
  });

  it('jobs.updated-at-frozen: updatedAt keeps its creation value through transitions', async () => {
    sandbox = await sandboxWith(['jobs.updated-at-frozen'], { jobStartDelayMs: 30_000, jobProcessingMs: 30_000 });
    const jobId = await completedJob(sandbox);
    const job = (await get(sandbox, `/api/jobs/${jobId}`)).body;
    expect(job.status).toBe('COMPLETED');
    expect(job.updatedAt).toBe(job.createdAt);
  });

  it('jobs.progress-not-100: a COMPLETED job reports progress 90', async () => {
    sandbox = await sandboxWith(['jobs.progress-not-100']);
    const jobId = await completedJob(sandbox);
    expect((await get(sandbox, `/api/jobs/${jobId}`)).body).toMatchObject({ status: 'COMPLETED', progress: 90 });
  });

  it('jobs.stuck-pending: the worker never starts jobs (a job enqueued with the defect off still runs)', async () => {
    sandbox = await sandboxWith(['jobs.stuck-pending'], { jobStartDelayMs: 30_000, jobProcessingMs: 30_000 });
    const stuck = (await enqueue(sandbox)).body.jobId;
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 600 });
    await new Promise((resolve) => setTimeout(resolve, 100)); // what the worker would do, it has done by now
    expect((await get(sandbox, `/api/jobs/${stuck}`)).body.status).toBe('PENDING');
    await sandbox.admin('PUT', '/_sim/defects', { active: [] });
    const control = await completedJob(sandbox);
    expect(await storedStatus(sandbox, control)).toBe('COMPLETED');
    expect((await get(sandbox, `/api/jobs/${stuck}`)).body.status).toBe('PENDING');
  });

  it('jobs.completed-then-processing: a COMPLETED job reads PROCESSING again on the next read', async () => {
    sandbox = await sandboxWith(['jobs.completed-then-processing']);
    const jobId = await completedJob(sandbox);
    expect((await get(sandbox, `/api/jobs/${jobId}`)).body.status).toBe('COMPLETED');
    expect((await get(sandbox, `/api/jobs/${jobId}`)).body.status).toBe('PROCESSING');
    expect(await storedStatus(sandbox, jobId)).toBe('COMPLETED');
  });

  it('jobs.list-filter-ignored: the status filter of listJobs is ignored', async () => {
    sandbox = await sandboxWith(['jobs.list-filter-ignored'], { jobStartDelayMs: 30_000, jobProcessingMs: 30_000 });
    const done = await completedJob(sandbox);
    const pending = (await enqueue(sandbox)).body.jobId;
    const list = await get(sandbox, '/api/jobs?status=COMPLETED');
    expect(list.body.jobs.map((j: { id: string }) => j.id).sort()).toEqual([done, pending].sort());
    expect(list.body.jobs.find((j: { id: string }) => j.id === pending).status).toBe('PENDING');
  });

  /** Walks listJobs with limit 2 the way a client pages through it. */
  async function traverse(s: TestSandbox): Promise<string[]> {
    const seen: string[] = [];
    for (let offset = 0; offset < 10; offset += 2) seen.push(...(await get(s, `/api/jobs?limit=2&offset=${offset}`)).body.jobs.map((j: { id: string }) => j.id));
    return seen;
  }

  it('pagination.offset-gap: listJobs skips one record at each offset > 0', async () => {
    sandbox = await sandboxWith(['pagination.offset-gap'], { jobStartDelayMs: 600_000 });
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await enqueue(sandbox)).body.jobId);
    const seen = await traverse(sandbox);
    expect(new Set(seen).size).toBe(seen.length);
    expect(created.filter((id) => !seen.includes(id)).length).toBeGreaterThan(0);
  });

  it('pagination.duplicate: listJobs repeats the last record of the previous page', async () => {
    sandbox = await sandboxWith(['pagination.duplicate'], { jobStartDelayMs: 600_000 });
    for (let i = 0; i < 5; i++) await enqueue(sandbox);
    const first = (await get(sandbox, '/api/jobs?limit=2&offset=0')).body.jobs;
    const second = (await get(sandbox, '/api/jobs?limit=2&offset=2')).body.jobs;
    expect(second[0].id).toBe(first[1].id);
    const seen = await traverse(sandbox);
    expect(new Set(seen).size).toBeLessThan(seen.length);
  });
});

describe('defect injection: billing', () => {
  it('billing.new-customer-each-call: every billing setup creates a new payment customer', async () => {
    sandbox = await sandboxWith(['billing.new-customer-each-call']);
    const first = await sandbox.call('POST', '/api/public/billing/setup-session', { body: {} });
    const second = await sandbox.call('POST', '/api/public/billing/setup-session', { body: {} });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.paymentCustomerId).not.toBe(first.body.paymentCustomerId);
  });
});
