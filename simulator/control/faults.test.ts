// Faults per tenant and per request (kernel/defects.ts, kernel/http/fault-scope.ts): a defect switched on
// for one tenant alters only that tenant, the X-Sim-Fault header only one request of a sandbox that allows
// it, and a tenant's webhook chaos only its deliveries.
import { createHmac } from 'node:crypto';
import Koa from 'koa';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefects, inRequestScope, inTenantScope, markedFaults } from '../kernel/defects.js';
import { faultScope } from '../kernel/http/fault-scope.js';
import type { TestSandbox } from '../testing/contract-client.js';
import { enqueue, sandboxWith, waitFor, webhookReceiver } from './defects.testing.js';

let sandbox: TestSandbox | undefined;
let receiver: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
afterEach(async () => {
  await sandbox?.close();
  await receiver?.close();
  sandbox = receiver = undefined;
});

/** A second tenant and a bearer of its own. */
async function otherTenant(s: TestSandbox): Promise<{ tenantId: string; token: string }> {
  const created = await s.admin('POST', '/_sim/tenants', {});
  const exchanged = await s.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': created.body.integrationKey } });
  return { tenantId: created.body.tenantId, token: exchanged.body.access_token };
}

const listJobs = (s: TestSandbox, options: { token?: string; headers?: Record<string, string> } = {}) => s.call('GET', '/api/jobs', { ...options, unchecked: true });

describe('faults of one tenant', () => {
  it('a defect on for tenant A is not on for tenant B, and a reset forgets it', async () => {
    sandbox = await sandboxWith([]);
    const b = await otherTenant(sandbox);
    const a = sandbox.identity.tenantId;
    const set = await sandbox.admin('PUT', `/_sim/tenants/${a}/faults`, { defects: ['jobs.list-count-missing'] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ tenantId: a, defects: ['jobs.list-count-missing'], webhookChaos: { duplicate: false, reorder: false, delaySeconds: 0, badSignature: false, oldTimestamp: false, wrongPrefix: false }, requestChaos: { serverErrorEvery: 0, serverErrorAt: [] } });
    expect((await listJobs(sandbox)).body).not.toHaveProperty('count');
    expect((await listJobs(sandbox, { token: b.token })).body).toHaveProperty('count', 0);
    expect((await sandbox.admin('GET', `/_sim/tenants/${b.tenantId}/faults`)).body.defects).toEqual([]);
    expect((await sandbox.admin('GET', '/_sim/defects')).body.active).toEqual([]);
    await sandbox.admin('POST', '/_sim/reset');
    expect(sandbox.sim.deps.defects.tenant(a).defects).toEqual([]);
  });

  it('refuses an unknown defect id (400) and an unknown tenant (404), changing nothing', async () => {
    sandbox = await sandboxWith([]);
    const a = sandbox.identity.tenantId;
    const bad = await sandbox.admin('PUT', `/_sim/tenants/${a}/faults`, { defects: ['no.such-defect'] });
    expect([bad.status, bad.body.code, bad.body.details.field]).toEqual([400, 'INVALID_REQUEST', 'defects']);
    expect((await sandbox.admin('PUT', '/_sim/tenants/00000000-0000-4000-8000-000000000000/faults', { defects: [] })).status).toBe(404);
    expect((await sandbox.admin('GET', `/_sim/tenants/${a}/faults`)).body.defects).toEqual([]);
  });
});

describe('the X-Sim-Fault header', () => {
  const fault = { 'X-Sim-Fault': 'jobs.list-count-missing' };

  it('is ignored by a sandbox that does not allow it (the default), even with an unknown id', async () => {
    sandbox = await sandboxWith([]);
    expect((await listJobs(sandbox, { headers: fault })).body).toHaveProperty('count', 0);
    expect((await listJobs(sandbox, { headers: { 'X-Sim-Fault': 'no.such-defect' } })).status).toBe(200);
    expect((await sandbox.admin('GET', '/_sim/fault-header')).body).toEqual({ allowed: false, setting: null, environment: false });
  });

  it('alters only the request that carries it when SIM_ALLOW_FAULT_HEADER is on; an unknown id is 400', async () => {
    sandbox = await sandboxWith([], { allowFaultHeader: true });
    expect((await listJobs(sandbox, { headers: fault })).body).not.toHaveProperty('count');
    expect((await listJobs(sandbox)).body).toHaveProperty('count', 0);
    const unknown = await listJobs(sandbox, { headers: { 'X-Sim-Fault': 'jobs.list-count-missing, no.such-defect' } });
    expect([unknown.status, unknown.body.code, unknown.body.details.field]).toEqual([400, 'INVALID_REQUEST', 'X-Sim-Fault']);
  });

  it('is allowed and refused again at run time through PUT /_sim/fault-header', async () => {
    sandbox = await sandboxWith([]);
    expect((await sandbox.admin('PUT', '/_sim/fault-header', { allowed: true })).body).toEqual({ allowed: true, setting: true, environment: false });
    expect((await listJobs(sandbox, { headers: fault })).body).not.toHaveProperty('count');
    await sandbox.admin('PUT', '/_sim/fault-header', { allowed: null });
    expect((await listJobs(sandbox, { headers: fault })).body).toHaveProperty('count', 0);
  });

  it('records the faults that altered a request on ctx.state.faults (the request log reads it)', async () => {
    const defects = createDefects([], ['jobs.list-count-missing', 'pagination.duplicate']);
    const seen: unknown[] = [];
    const app = new Koa();
    app.use(async (ctx, next) => {
      await next();
      seen.push([...(ctx.state.faults ?? [])]);
    });
    app.use(faultScope(defects, { allowFaultHeader: true }));
    app.use((ctx) => {
      ctx.body = { altered: defects.has('jobs.list-count-missing'), other: defects.has('pagination.duplicate') };
    });
    const server = app.callback();
    expect((await request(server).get('/api/jobs').set(fault)).body).toEqual({ altered: true, other: false });
    expect((await request(server).get('/api/jobs')).body).toEqual({ altered: false, other: false });
    expect(seen).toEqual([['jobs.list-count-missing'], []]);
  });
});

describe('the fault scope', () => {
  it('answers has() from the sandbox-wide set, the tenant running now and the request header, and marks what fired', () => {
    const defects = createDefects(['error.wrong-code'], ['error.wrong-code', 'jobs.list-count-missing', 'pagination.duplicate']);
    defects.setTenant('tenant-a', { defects: ['pagination.duplicate'] });
    expect(defects.has('pagination.duplicate')).toBe(false);
    expect(inTenantScope('tenant-a', () => defects.has('pagination.duplicate'))).toBe(true);
    expect(inTenantScope('tenant-b', () => defects.has('pagination.duplicate'))).toBe(false);
    const marked: string[] = [];
    inRequestScope(['jobs.list-count-missing'], marked, () => {
      expect(defects.has('jobs.list-count-missing')).toBe(true);
      expect(defects.has('error.wrong-code')).toBe(true);
      expect(defects.isOn('pagination.duplicate')).toBe(false);
      expect(markedFaults()).toEqual(['jobs.list-count-missing', 'error.wrong-code']);
    });
    // Background work started inside a request runs in its tenant's scope, without the request's header.
    inRequestScope(['jobs.list-count-missing'], [], () => expect(inTenantScope('tenant-b', () => defects.has('jobs.list-count-missing'))).toBe(false));
  });
});

const SECRET = 'whsec_tenant_chaos_secret';
const hmac = (message: string) => `v1=${createHmac('sha256', SECRET).update(message).digest('hex')}`;

describe('webhook chaos of one tenant', () => {
  it('duplicates and back-dates the deliveries of the tenant that asked for it, and of no other', async () => {
    receiver = await webhookReceiver(204);
    sandbox = await sandboxWith([], { webhookAllowTargets: [receiver.target] });
    const b = await otherTenant(sandbox);
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/faults`, { defects: [], webhookChaos: { duplicate: true, oldTimestamp: true } });
    const body = { skus: ['UDS-CHAIR-01'], webhook: { url: receiver.url, secret: SECRET } };
    const jobA = (await enqueue(sandbox, body)).body.jobId;
    const jobB = (await sandbox.call('POST', '/api/sima/batch', { token: b.token, body, unchecked: true })).body.jobId;
    const of = (jobId: string) => receiver!.received.filter((r) => JSON.parse(r.body).data?.jobId === jobId || r.body.includes(jobId));
    await waitFor(() => of(jobA).length === 2 && of(jobB).length === 1, 'two deliveries for A, one for B');
    const [first, second] = of(jobA);
    expect(second.body).toBe(first.body);
    expect(second.headers['x-svc-delivery-id']).toBe(first.headers['x-svc-delivery-id']);
    const sentAt = Math.floor(sandbox.sim.deps.clocks.of(sandbox.identity.tenantId).now() / 1000);
    expect(sentAt - Number(first.headers['x-svc-timestamp'])).toBeGreaterThanOrEqual(600);
    // The signature still verifies over the old timestamp: only a replay window catches it.
    expect(first.headers['x-svc-signature']).toBe(hmac(`${first.headers['x-svc-timestamp']}.${first.body}`));
    const [onlyB] = of(jobB);
    expect(sentAt - Number(onlyB.headers['x-svc-timestamp'])).toBeLessThan(60);
  });

  it('delays the first attempt by delaySeconds and signs badly when asked', async () => {
    receiver = await webhookReceiver(204);
    sandbox = await sandboxWith([], { webhookAllowTargets: [receiver.target] });
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/faults`, { defects: [], webhookChaos: { delaySeconds: 300, badSignature: true } });
    const jobId = (await enqueue(sandbox, { skus: ['UDS-CHAIR-01'], webhook: { url: receiver.url, secret: SECRET } })).body.jobId;
    const delivery = async () => (await sandbox!.admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries[0];
    await waitFor(async () => (await delivery()) !== undefined, 'the delivery created');
    const created = await delivery();
    expect(Date.parse(created.nextAttemptAt) - Date.parse(created.createdAt)).toBe(300_000);
    expect(receiver.received).toHaveLength(0);
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 301 });
    await waitFor(() => receiver!.received.length === 1, 'the delayed delivery');
    const [{ headers, body }] = receiver.received;
    expect(headers['x-svc-signature']).not.toBe(hmac(`${headers['x-svc-timestamp']}.${body}`));
  });

  it('sends a pair of deliveries newest first under reorder', async () => {
    receiver = await webhookReceiver(204);
    sandbox = await sandboxWith([], { webhookAllowTargets: [receiver.target] });
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/faults`, { defects: [], webhookChaos: { reorder: true } });
    const hook = { webhook: { url: receiver.url, secret: SECRET } };
    const first = (await enqueue(sandbox, { skus: ['UDS-CHAIR-01'], ...hook })).body.jobId;
    const created = async (jobId: string) => (await sandbox!.admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries.length === 1;
    await waitFor(() => created(first), 'the first delivery held');
    const second = (await enqueue(sandbox, { skus: ['UDS-CHAIR-01'], ...hook })).body.jobId;
    await waitFor(() => created(second), 'the second delivery');
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 2 });
    await waitFor(() => receiver!.received.length === 2, 'both deliveries');
    expect(receiver.received.map((r) => (r.body.includes(second) ? 'second' : 'first'))).toEqual(['second', 'first']);
  });
});

describe('request chaos of one tenant', () => {
  it('answers every n-th write of the tenant 500 INTERNAL_ERROR before doing anything, and no read nor other tenant', async () => {
    sandbox = await sandboxWith([]);
    const b = await otherTenant(sandbox);
    const a = sandbox.identity.tenantId;
    const set = await sandbox.admin('PUT', `/_sim/tenants/${a}/faults`, { defects: [], requestChaos: { serverErrorEvery: 2 } });
    expect(set.body.requestChaos).toEqual({ serverErrorEvery: 2, serverErrorAt: [] });
    const body = { skus: ['UDS-CHAIR-01'] };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await sandbox.call('POST', '/api/sima/batch', { body, unchecked: true })).status);
    expect(statuses).toEqual([202, 500, 202, 500]);
    // Nothing was enqueued by the refused writes: two jobs, not four.
    expect((await listJobs(sandbox)).body.count).toBe(2);
    expect((await sandbox.call('POST', '/api/sima/batch', { token: b.token, body, unchecked: true })).status).toBe(202);
    expect((await sandbox.call('POST', '/api/sima/batch', { token: b.token, body, unchecked: true })).status).toBe(202);
    const refused = (await sandbox.admin('GET', `/_sim/requests?tenantId=${a}&status=500`)).body.items;
    expect(refused.map((r: { faults: string[]; response: { body: { code: string } } }) => [r.faults, r.response.body.code])).toEqual([
      [['requestChaos.serverError'], 'INTERNAL_ERROR'],
      [['requestChaos.serverError'], 'INTERNAL_ERROR'],
    ]);
    await sandbox.admin('PUT', `/_sim/tenants/${a}/faults`, { defects: [] });
    expect((await sandbox.call('POST', '/api/sima/batch', { body, unchecked: true })).status).toBe(202);
  });

  it('answers the writes a schedule names (counted from the setting) 500, so a write and its retry can both fail', async () => {
    sandbox = await sandboxWith([]);
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/faults`, { defects: [], requestChaos: { serverErrorAt: [1, 2, 4] } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await sandbox.call('POST', '/api/sima/batch', { body: { skus: ['UDS-CHAIR-01'] }, unchecked: true })).status);
    expect(statuses).toEqual([500, 500, 202, 500, 202]);
  });
});

describe('webhook chaos recorded with the attempt', () => {
  it('sends the right digest under v0= with wrongPrefix, and records the chaos and the answer to a duplicate', async () => {
    receiver = await webhookReceiver(204);
    sandbox = await sandboxWith([], { webhookAllowTargets: [receiver.target] });
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/faults`, { defects: [], webhookChaos: { wrongPrefix: true, duplicate: true } });
    const jobId = (await enqueue(sandbox, { skus: ['UDS-CHAIR-01'], webhook: { url: receiver.url, secret: SECRET } })).body.jobId;
    await waitFor(() => receiver!.received.length === 2, 'the delivery sent twice');
    const [{ headers, body }] = receiver.received;
    expect(headers['x-svc-signature']).toBe(hmac(`${headers['x-svc-timestamp']}.${body}`).replace(/^v1=/, 'v0='));
    const delivered = async () => (await sandbox!.admin('GET', `/_sim/webhooks/deliveries?jobId=${jobId}`)).body.deliveries[0];
    await waitFor(async () => (await delivered())?.attempts.length === 1, 'the attempt recorded');
    const [attempt] = (await delivered()).attempts;
    expect([attempt.chaos, attempt.statusCode, attempt.duplicateStatusCode]).toEqual([['wrongPrefix', 'duplicate'], 204, 204]);
  });
});
