// The auth and billing domains in the assembled simulator: what an integrator sees on the wire for the
// token flow and the refusals. Every response is checked against the contract by the shared test client.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';

let sandbox: TestSandbox;
afterEach(async () => sandbox?.close());

describe('auth and billing over HTTP', () => {
  it('exchanges a key, then sets up billing with the bearer', async () => {
    sandbox = await startTestSandbox();
    const exchanged = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': sandbox.identity.integrationKey! } });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, default_adapter: 'catalog-excel' });
    const token = exchanged.body.access_token;
    const setup = await sandbox.call('POST', '/api/public/billing/setup-session', { token, body: { billingEmail: 'ap@northwind-imports.example' } });
    expect(setup.status).toBe(201);
    expect(setup.body).toMatchObject({ tenantId: sandbox.identity.tenantId });
    const again = await sandbox.call('POST', '/api/public/billing/setup-session', { token });
    expect(again.status).toBe(201);
    expect(again.body.paymentCustomerId).toBe(setup.body.paymentCustomerId);
  });

  it('answers the spec envelopes for a missing key, a missing bearer and a dashboard principal on billing', async () => {
    sandbox = await startTestSandbox();
    const missingKey = await sandbox.call('POST', '/api/auth/token/integration', { token: null });
    expect([missingKey.status, missingKey.body.code]).toEqual([400, 'MISSING_API_KEY']);
    const noBearer = await sandbox.call('POST', '/api/public/billing/setup-session', { token: null, body: {} });
    expect([noBearer.status, noBearer.body.code]).toEqual([401, 'INVALID_TOKEN']);
    const dashboardToken = await sandbox.sim.domains.auth.issueDashboardToken(sandbox.identity.tenantId);
    const dashboard = await sandbox.call('POST', '/api/public/billing/setup-session', { token: dashboardToken, body: {} });
    expect(dashboard.status).toBe(403);
    expect(dashboard.body).toEqual({ code: 'PRINCIPAL_DENIED', message: expect.any(String), details: { required: 'integration', actual: 'dashboard' } });
  });

  it('refuses billing setup to a tenant created suspended through the control API, whose key still exchanges', async () => {
    sandbox = await startTestSandbox();
    const created = await sandbox.admin('POST', '/_sim/tenants', { name: 'Suspended imports', status: 'suspended' });
    expect(created.status).toBe(201);
    expect((await sandbox.sim.domains.tenants.get(created.body.tenantId))!.status).toBe('suspended');
    const exchanged = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': created.body.integrationKey } });
    expect(exchanged.status).toBe(200);
    const refused = await sandbox.call('POST', '/api/public/billing/setup-session', { token: exchanged.body.access_token, body: {} });
    expect([refused.status, refused.body.code, refused.body.details?.actual]).toEqual([403, 'PRINCIPAL_DENIED', 'suspended']);
    expect((await sandbox.sim.domains.tenants.get(created.body.tenantId))!.paymentCustomerId).toBeNull();
    const unknownStatus = await sandbox.admin('POST', '/_sim/tenants', { status: 'closed' });
    expect(unknownStatus.status).toBe(400);
  });

  it('refuses a badly typed billing email with 400 INVALID_REQUEST before any customer is made', async () => {
    sandbox = await startTestSandbox();
    const bad = await sandbox.call('POST', '/api/public/billing/setup-session', { body: { billingEmail: 'not an email' } });
    expect([bad.status, bad.body.code, bad.body.details?.field]).toEqual([400, 'INVALID_REQUEST', 'billingEmail']);
    expect((await sandbox.sim.domains.tenants.get(sandbox.identity.tenantId))!.paymentCustomerId).toBeNull();
  });
});
