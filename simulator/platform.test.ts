// The platform end to end over HTTP: auth, validation, jobs, idempotency, limits, isolation, control API.
// Every response is checked against the contract by the shared test client.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../contracts/lib/bundle.js';
import { createContractSchemas } from '../contracts/lib/schemas.js';
import { startTestSandbox, type TestSandbox } from './testing/contract-client.js';

let sandbox: TestSandbox;
afterEach(async () => sandbox?.close());

const enqueueBatch = (s: TestSandbox, body: object = { skus: null }, headers: Record<string, string> = {}) => s.call('POST', '/api/sima/batch', { body, headers });

describe('authentication', () => {
  it('exchanges the integration key for a bearer token that opens tenant endpoints', async () => {
    sandbox = await startTestSandbox();
    const token = await sandbox.token();
    expect(token.split('.')).toHaveLength(3);
    const jobs = await sandbox.call('GET', '/api/jobs');
    expect(jobs.status).toBe(200);
    expect(jobs.body).toEqual({ jobs: [], count: 0 });
  });

  it('answers 401 INVALID_TOKEN without a bearer, and with a token expired on the virtual clock', async () => {
    sandbox = await startTestSandbox();
    expect((await sandbox.call('GET', '/api/jobs', { token: null })).body.code).toBe('INVALID_TOKEN');
    await sandbox.token();
    expect((await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 3601 })).status).toBe(200);
    const expired = await sandbox.call('GET', '/api/jobs');
    expect([expired.status, expired.body.code]).toEqual([401, 'INVALID_TOKEN']);
  });

  it('refuses to exchange a revoked key, and stops its tokens at once', async () => {
    sandbox = await startTestSandbox();
    await sandbox.token();
    expect((await sandbox.admin('POST', `/_sim/integration-keys/${sandbox.identity.integrationKeyId}/revoke`)).status).toBe(200);
    expect((await sandbox.call('GET', '/api/jobs')).body.code).toBe('INVALID_TOKEN');
    const exchange = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': sandbox.identity.integrationKey! } });
    expect([exchange.status, exchange.body.code]).toEqual([401, 'REVOKED_API_KEY']);
  });

  it('answers 400 MISSING_API_KEY to an exchange without a key', async () => {
    sandbox = await startTestSandbox();
    const res = await sandbox.call('POST', '/api/auth/token/integration', { token: null });
    expect([res.status, res.body.code]).toEqual([400, 'MISSING_API_KEY']);
  });

  it('guards the control API with the admin token', async () => {
    sandbox = await startTestSandbox();
    expect((await sandbox.call('GET', '/_sim/clock', { token: 'wrong' })).status).toBe(401);
    expect((await sandbox.call('GET', '/_sim/clock', { token: await sandbox.token() })).status).toBe(401);
  });
});

describe('request validation from the contract', () => {
  it('answers 400 INVALID_REQUEST naming the field for out-of-range and mistyped parameters', async () => {
    sandbox = await startTestSandbox();
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=ten', 'limit'], ['offset=-1', 'offset'], ['status=DONE', 'status']]) {
      const res = await sandbox.call('GET', `/api/jobs?${query}`);
      expect([res.status, res.body.code, res.body.details?.field], query).toEqual([400, 'INVALID_REQUEST', field]);
    }
    const badId = await sandbox.call('GET', '/api/jobs/not-a-uuid');
    expect([badId.status, badId.body.details?.field]).toEqual([400, 'id']);
  });

  it('answers 400 to a body that is not JSON, and to a body the schema refuses', async () => {
    sandbox = await startTestSandbox();
    const token = await sandbox.token();
    const garbled = await sandbox.call('POST', '/api/sima/batch', { token, headers: { 'content-type': 'application/json' }, body: '{"skus": [' });
    expect([garbled.status, garbled.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const wrong = await enqueueBatch(sandbox, { runPolicy: 'sometimes' });
    expect([wrong.status, wrong.body.details?.field]).toEqual([400, 'runPolicy']);
  });

  it('answers unknown routes with the 404 envelope and echoes a request id', async () => {
    sandbox = await startTestSandbox();
    const res = await sandbox.call('GET', '/api/nothing-here');
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('jobs', () => {
  it('moves an enqueued job PENDING -> PROCESSING -> COMPLETED on the virtual clock', async () => {
    sandbox = await startTestSandbox({ config: { jobStartDelayMs: 60_000, jobProcessingMs: 60_000 } });
    const accepted = await enqueueBatch(sandbox);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'PENDING', replayed: false });
    const id = accepted.body.jobId;
    expect((await sandbox.call('GET', `/api/jobs/${id}`)).body.status).toBe('PENDING');
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 61 });
    await waitFor(async () => (await sandbox.call('GET', `/api/jobs/${id}`)).body.status === 'PROCESSING');
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 61 });
    await waitFor(async () => (await sandbox.call('GET', `/api/jobs/${id}`)).body.status === 'COMPLETED');
    const job = (await sandbox.call('GET', `/api/jobs/${id}`)).body;
    expect(job).toMatchObject({ id, type: 'sima_validation', progress: 100, error: null });
    const list = await sandbox.call('GET', '/api/jobs?type=sima_validation&status=COMPLETED');
    expect(list.body.count).toBe(1);
  });

  it('hides one tenant\'s jobs from another (404)', async () => {
    sandbox = await startTestSandbox();
    const id = (await enqueueBatch(sandbox)).body.jobId;
    const other = await sandbox.admin('POST', '/_sim/tenants', { name: 'Other importer' });
    const exchange = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': other.body.integrationKey } });
    const theirs = await sandbox.call('GET', `/api/jobs/${id}`, { token: exchange.body.access_token });
    expect([theirs.status, theirs.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await sandbox.call('GET', '/api/jobs', { token: exchange.body.access_token })).body.count).toBe(0);
  });
});

describe('idempotency', () => {
  it('replays the original job for the same key and payload, and refuses another payload with 409', async () => {
    sandbox = await startTestSandbox();
    const first = await enqueueBatch(sandbox, { skus: ['UDS-CHAIR-01'] }, { 'Idempotency-Key': 'batch-1' });
    const again = await enqueueBatch(sandbox, { skus: ['UDS-CHAIR-01'] }, { 'Idempotency-Key': 'batch-1' });
    expect([again.status, again.body.jobId, again.body.replayed]).toEqual([202, first.body.jobId, true]);
    const other = await enqueueBatch(sandbox, { skus: ['SOMETHING-ELSE'] }, { 'Idempotency-Key': 'batch-1' });
    expect([other.status, other.body.code]).toEqual([409, 'ACTION_NOT_ALLOWED']);
    const fresh = await enqueueBatch(sandbox, { skus: ['UDS-CHAIR-01'] });
    expect(fresh.body.jobId).not.toBe(first.body.jobId);
  });

  it('creates exactly one job from 50 concurrent requests with one key', async () => {
    sandbox = await startTestSandbox();
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { rateLimits: { write: { limit: 1000, windowMs: 60000 } } });
    const responses = await Promise.all(Array.from({ length: 50 }, () => enqueueBatch(sandbox, { skus: null }, { 'Idempotency-Key': 'burst' })));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([202]));
    expect(new Set(responses.map((r) => r.body.jobId)).size).toBe(1);
    expect(responses.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect((await sandbox.call('GET', '/api/jobs')).body.count).toBe(1);
  });
});

describe('limits', () => {
  it('answers 429 RATE_LIMITED with details and Retry-After when the read bucket is full, and again after the window', async () => {
    sandbox = await startTestSandbox();
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { rateLimits: { read: { limit: 3, windowMs: 60000 } } });
    for (let i = 0; i < 3; i++) expect((await sandbox.call('GET', '/api/jobs')).status).toBe(200);
    const limited = await sandbox.call('GET', '/api/jobs');
    expect(limited.status).toBe(429);
    expect(limited.body.details).toMatchObject({ bucket: 'read', limit: 3, windowMs: 60000, keyId: sandbox.identity.integrationKeyId });
    expect(Number(limited.headers['retry-after'])).toBe(limited.body.details.retryAfterSeconds);
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 60 });
    expect((await sandbox.call('GET', '/api/jobs')).status).toBe(200);
  });

  it('refuses an enqueue at the tenant SIMA queue cap with 429', async () => {
    sandbox = await startTestSandbox({ config: { jobStartDelayMs: 600_000 } });
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { queueCaps: { sima: 1 } });
    expect((await enqueueBatch(sandbox)).status).toBe(202);
    const capped = await enqueueBatch(sandbox);
    expect([capped.status, capped.body.details?.bucket]).toEqual([429, 'queue_sima']);
    expect(capped.headers['retry-after']).toBeDefined();
  });
});

describe('billing setup', () => {
  it('creates a setup session for an integration and reuses the payment customer', async () => {
    sandbox = await startTestSandbox();
    const first = await sandbox.call('POST', '/api/public/billing/setup-session', { body: { billingEmail: 'ap@northwind.example' } });
    const second = await sandbox.call('POST', '/api/public/billing/setup-session', { body: {} });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.paymentCustomerId).toBe(first.body.paymentCustomerId);
    expect(second.body.setupIntentId).not.toBe(first.body.setupIntentId);
  });

  it('refuses a dashboard principal with 403 PRINCIPAL_DENIED', async () => {
    sandbox = await startTestSandbox();
    const dashboard = await sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/dashboard-token`);
    const res = await sandbox.call('POST', '/api/public/billing/setup-session', { token: dashboard.body.access_token, body: {} });
    expect([res.status, res.body.code, res.body.details]).toEqual([403, 'PRINCIPAL_DENIED', { required: 'integration', actual: 'dashboard' }]);
  });
});

describe('contract versions', () => {
  it('serves each archived version under /versions/<v>/ with only its own routes, over one store', async () => {
    sandbox = await startTestSandbox({ config: { contract: 'all', defaultVersion: 'v1.3.0' } });
    const id = (await enqueueBatch(sandbox)).body.jobId;
    const viaOld = await sandbox.call('GET', `/versions/v1.1.0/api/jobs/${id}`);
    expect(viaOld.body.id).toBe(id);
    const notInOld = await sandbox.call('GET', '/versions/v1.1.0/api/ship/findings');
    expect([notInOld.status, notInOld.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('lists the operations whose domain is not built yet (none since workflow C, issue 12) in the status', async () => {
    sandbox = await startTestSandbox();
    const unhandled = sandbox.sim.unhandled['v1.3.0'];
    expect(unhandled).toEqual([]);
    expect(unhandled).not.toContain('enqueueSimaBatch');
    expect(unhandled).not.toContain('listSimaResults');
    const status = await sandbox.admin('GET', '/_sim/status');
    expect(status.body.unhandled['v1.3.0']).toEqual(unhandled);
  });
});

describe('webhooks end to end', () => {
  it('delivers a signed job.completed to the configured receiver, verifiable with an independent HMAC', async () => {
    const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    try {
      sandbox = await startTestSandbox({ config: { webhookAllowTargets: [`127.0.0.1:${port}`] } });
      const secret = 'whsec_sandbox_test_secret';
      const accepted = await enqueueBatch(sandbox, { skus: ['UDS-CHAIR-01'], webhook: { url: `http://127.0.0.1:${port}/hooks/svc`, secret } });
      expect(accepted.status).toBe(202);
      await waitFor(async () => received.length > 0);
      const [{ headers, body }] = received;
      const timestamp = String(headers['x-svc-timestamp']);
      const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
      const signature = Buffer.from(String(headers['x-svc-signature']));
      expect(signature.length === expected.length && timingSafeEqual(signature, expected)).toBe(true);
      const delivery = JSON.parse(body);
      const validate = createContractSchemas(loadContract('v1.3.0')).component('WebhookDelivery');
      expect(validate(delivery), JSON.stringify(validate.errors)).toBe(true);
      expect(delivery).toMatchObject({ event: 'job.completed', job: { id: accepted.body.jobId, status: 'COMPLETED', progress: 100 } });
      expect([headers['x-svc-event'], headers['x-svc-delivery-id'], headers['x-svc-attempt']]).toEqual(['job.completed', delivery.id, '1']);
      await waitFor(async () => (await sandbox.admin('GET', `/_sim/webhooks/deliveries?jobId=${accepted.body.jobId}`)).body.deliveries[0]?.status === 'delivered');
    } finally {
      receiver.close();
    }
  });

  it('refuses a webhook target in a blocked range at enqueue, and queues nothing', async () => {
    sandbox = await startTestSandbox();
    const refused = await enqueueBatch(sandbox, { skus: null, webhookUrl: 'http://169.254.169.254/latest/meta-data' });
    expect([refused.status, refused.body.code, refused.body.details?.field]).toEqual([400, 'INVALID_REQUEST', 'webhookUrl']);
    expect((await sandbox.call('GET', '/api/jobs')).body.count).toBe(0);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('upload size cap', () => {
  it('answers 413 FILE_TOO_LARGE, not a 500, to a file one byte over 50 MB', async () => {
    sandbox = await startTestSandbox();
    const tooLarge = Buffer.alloc(50 * 1024 * 1024 + 1, 0x41);
    const res = await sandbox.call('POST', '/api/ship/upload', { form: (req) => req.attach('file', tooLarge, 'invoices.csv') });
    expect([res.status, res.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
  });
});
