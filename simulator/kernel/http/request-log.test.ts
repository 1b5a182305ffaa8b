// GET /_sim/requests over HTTP: what the request-log middleware records of public API requests (and does not
// record of the control API), with secrets masked, uploads summarized and the faults that altered a request.
import { connect } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../../domains/jobs/jobs.testing.js';
import { agreementCsv } from '../../domains/ship/ship.testing.js';
import { seededIds } from '../ids.js';
import { createRequestJournal, MASK } from '../request-journal.js';
import { recordRefusal } from './request-log.js';
import { createHttpServer } from './server.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ config: SLOW_JOBS });
});
afterAll(async () => sandbox?.close());

const logged = async (query: Record<string, string> = {}) => {
  const res = await sandbox.admin('GET', `/_sim/requests?${new URLSearchParams(query)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.items as Array<Record<string, any>>;
};
const entryOf = async (requestId: string) => (await logged({ limit: '200' })).find((e) => e.id === requestId);

describe('the request log', () => {
  it("records a token exchange with the key and the token masked, under the key's tenant", async () => {
    const res = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': sandbox.identity.integrationKey! } });
    expect(res.status).toBe(200);
    const entry = await entryOf(res.headers['x-request-id']);
    expect(entry).toMatchObject({ method: 'POST', path: '/api/auth/token/integration', operationId: 'exchangeIntegrationToken', status: 200, tenantId: sandbox.identity.tenantId, faults: [] });
    expect(entry!.request.headers['x-api-key']).toBe(MASK);
    expect(entry!.response.body).toMatchObject({ access_token: MASK, token_type: 'Bearer' });
    expect(entry!.response.headers['x-request-id']).toBe(res.headers['x-request-id']);
    expect(JSON.stringify(entry)).not.toContain(sandbox.identity.integrationKey!);
    expect(JSON.stringify(entry)).not.toContain(res.body.access_token);
  });

  it('records an authenticated call with its tenant, masked bearer, parsed response body and duration', async () => {
    const missing = '6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61';
    const res = await sandbox.call('GET', `/api/jobs/${missing}?x=1`);
    expect(res.status).toBe(404);
    const entry = await entryOf(res.headers['x-request-id']);
    expect(entry).toMatchObject({ tenantId: sandbox.identity.tenantId, operationId: 'getJob', status: 404, path: `/api/jobs/${missing}`, query: 'x=1' });
    expect(entry!.request.headers.authorization).toBe(MASK);
    expect(entry!.response.body).toEqual(res.body);
    expect(entry!.response.bodyTruncated).toBe(false);
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('summarizes an upload: the file name and size, never its bytes', async () => {
    const file = agreementCsv('UPS');
    const res = await sandbox.call('POST', '/api/carrier/agreements/upload', { form: (req) => req.field('note', 'hello').attach('file', file, 'agreement-ups.csv') });
    expect(res.status, res.text).toBe(202);
    const entry = await entryOf(res.headers['x-request-id']);
    expect(entry!.request.body.multipart.files).toEqual([{ field: 'file', fileName: 'agreement-ups.csv', size: file.length, contentType: 'text/csv' }]);
    expect(JSON.stringify(entry)).not.toContain(file.toString('utf8').split('\n')[1]);
    expect(entry!.response.body).toEqual(res.body);
  });

  it('masks every credential-looking header and query parameter and the webhook secret inside a multipart JSON part (issue 30 item 5)', async () => {
    const file = Buffer.concat([agreementCsv('UPS'), Buffer.from('\n')]); // not the file uploaded above (409 DUPLICATE_UPLOAD)
    const secrets = { part: 'whsec_part_9f3e1c', query: 'eyJ_query_token_77', apiKey: 'tfk_query_key_41', auth: 'auth_header_5521', access: 'access_header_8812' };
    const webhook = JSON.stringify({ url: 'https://hooks.example.com/tfas', events: ['job.completed'], secret: secrets.part });
    const res = await sandbox.call('POST', `/api/carrier/agreements/upload?access_token=${secrets.query}&api_key=${secrets.apiKey}&note=kept`, {
      headers: { 'x-auth-token': secrets.auth, 'x-access-token': secrets.access },
      form: (req) => req.field('webhook', webhook).attach('file', file, 'agreement-ups.csv'),
    });
    expect([202, 400]).toContain(res.status); // whatever the answer, the request is logged without its secrets
    const entry = await entryOf(res.headers['x-request-id']);
    expect(entry).toBeDefined();
    expect(entry!.query).toBe(`access_token=${MASK}&api_key=${MASK}&note=kept`);
    expect(entry!.request.headers).toMatchObject({ 'x-auth-token': MASK, 'x-access-token': MASK, authorization: MASK });
    const webhookShown = entry!.request.body.multipart.fields.webhook;
    expect(typeof webhookShown === 'string' ? JSON.parse(webhookShown) : webhookShown).toMatchObject({ url: 'https://hooks.example.com/tfas', secret: MASK });
    const text = JSON.stringify(entry);
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
  });

  it('lists the faults that altered a request', async () => {
    await sandbox.admin('PUT', '/_sim/defects', { active: ['error.wrong-code'] });
    try {
      const res = await sandbox.call('GET', '/api/jobs/6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61', { unchecked: true });
      expect(res.body.code).toBe('JOB_NOT_FOUND');
      expect((await entryOf(res.headers['x-request-id']))!.faults).toEqual(['error.wrong-code']);
    } finally {
      await sandbox.admin('PUT', '/_sim/defects', { active: [] });
    }
  });

  it('shows the tenant virtual time beside the wall-clock time', async () => {
    // Half an hour: within the cached bearer token's hour (spec 5.2 expires_in 3600).
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 1800, tenantId: sandbox.identity.tenantId });
    const res = await sandbox.call('GET', '/api/jobs?limit=1');
    expect(res.status).toBe(200);
    const entry = await entryOf(res.headers['x-request-id']);
    expect(Date.parse(entry!.virtualAt) - Date.parse(entry!.at)).toBeGreaterThanOrEqual(1_800_000 - 1000);
  });

  it('records a wrong URL outside the control API, and never the control API itself', async () => {
    const wrong = await sandbox.call('GET', '/api/no-such-thing', { unchecked: true });
    expect(wrong.status).toBe(404);
    const entry = await entryOf(wrong.headers['x-request-id']);
    expect(entry).toMatchObject({ path: '/api/no-such-thing', operationId: null, status: 404 });
    const control = await sandbox.admin('GET', '/_sim/status');
    expect(await entryOf(control.headers['x-request-id'])).toBeUndefined();
    expect((await logged({ limit: '200' })).some((e) => e.path.startsWith('/_sim'))).toBe(false);
  });

  it('filters by tenant, operation and status class, newest first', async () => {
    const byOperation = await logged({ operationId: 'getJob' });
    expect(byOperation.length).toBeGreaterThanOrEqual(2);
    expect(byOperation.every((e) => e.operationId === 'getJob')).toBe(true);
    expect(byOperation.map((e) => Date.parse(e.at))).toEqual([...byOperation.map((e) => Date.parse(e.at))].sort((a, b) => b - a));
    const clientErrors = await logged({ status: '4xx' });
    expect(clientErrors.length).toBeGreaterThan(0);
    expect(clientErrors.every((e) => e.status >= 400 && e.status < 500)).toBe(true);
    const none = await logged({ tenantId: '0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c' });
    expect(none).toEqual([]);
    expect((await sandbox.admin('GET', '/_sim/requests?status=4x')).status).toBe(400);
  });
});

describe('parser refusals in the request log', () => {
  it('records a request the HTTP parser refused, with the envelope it was answered', async () => {
    const journal = createRequestJournal(10);
    const server = createHttpServer((_req, res) => res.end(), {
      log: pino({ level: 'silent' }),
      ids: seededIds(3),
      onRefused: (refusal) => recordRefusal(journal, sandbox.sim.deps.clocks, refusal),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GET /api/jobs HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      const requestId = /X-Request-Id: (\S+)/.exec(answer)![1];
      const [entry] = journal.list({}).items;
      expect(entry).toMatchObject({ id: requestId, status: 400, method: '', tenantId: null, operationId: null });
      expect(entry.response.body).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'malformed_request' } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
