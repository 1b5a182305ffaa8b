import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../kernel/clock.js';
import { authFixture, expectApiError, operation } from './auth.testing.js';

const listJobs = operation('listJobs');

describe('bearer authentication (spec 5.1, 5.2; decisions 1 and 2)', () => {
  it('accepts a fresh bearer and yields the integration principal of its key', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: ['jobs:read'], allowedAdapters: ['ups-csv'], defaultAdapter: 'ups-csv' });
    const principal = await auth.authenticate(listJobs, bearer(await exchange(integrationKey)));
    expect(principal).toEqual({ type: 'integration', tenantId: tenant.id, keyId, scopes: ['jobs:read'], allowedAdapters: ['ups-csv'], defaultAdapter: 'ups-csv' });
  });

  it('refuses a call without Authorization with 401 INVALID_TOKEN, not MISSING_API_KEY', async () => {
    const { auth } = await authFixture();
    await expectApiError(() => auth.authenticate(listJobs, {}), 401, 'INVALID_TOKEN');
  });

  it('refuses an x-api-key sent to a bearer endpoint with 401 INVALID_TOKEN', async () => {
    const { auth, tenant } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expectApiError(() => auth.authenticate(listJobs, { 'x-api-key': integrationKey }), 401, 'INVALID_TOKEN');
  });

  it.each([['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer '], ['Bearer not-a-jwt'], ['Bearer a.b.c'], ['']])('refuses the malformed header %j with 401 INVALID_TOKEN', async (header) => {
    const { auth } = await authFixture();
    await expectApiError(() => auth.authenticate(listJobs, { authorization: header }), 401, 'INVALID_TOKEN');
  });

  it('accepts the scheme name in any case', async () => {
    const { auth, tenant, exchange } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expect(auth.authenticate(listJobs, { authorization: `bearer ${await exchange(integrationKey)}` })).resolves.toMatchObject({ tenantId: tenant.id });
  });

  it('refuses a token signed with another secret with 401 INVALID_TOKEN', async () => {
    const { auth, tenant, exchange, bearer, deps } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const genuine = decodeJwt(await exchange(integrationKey));
    const forged = await new SignJWT(genuine).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(deps.ids.secret(32)));
    await expectApiError(() => auth.authenticate(listJobs, bearer(forged)), 401, 'INVALID_TOKEN');
  });

  it('refuses a token whose payload was altered after signing with 401 INVALID_TOKEN', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: ['jobs:read'] });
    const [header, payload, signature] = (await exchange(integrationKey)).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, scopes: ['ship:upload'] })).toString('base64url');
    await expectApiError(() => auth.authenticate(listJobs, bearer(`${header}.${widened}.${signature}`)), 401, 'INVALID_TOKEN');
  });

  it('refuses a tampered copy of a token it has already verified (verified tokens are remembered by their whole string)', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: ['jobs:read'] });
    const token = await exchange(integrationKey);
    await expect(auth.authenticate(listJobs, bearer(token))).resolves.toMatchObject({ scopes: ['jobs:read'] });
    const [header, payload, signature] = token.split('.');
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), scopes: ['ship:upload'] })).toString('base64url');
    await expectApiError(() => auth.authenticate(listJobs, bearer(`${header}.${widened}.${signature}`)), 401, 'INVALID_TOKEN');
    await expect(auth.authenticate(listJobs, bearer(token))).resolves.toMatchObject({ scopes: ['jobs:read'] });
  });

  it('refuses an unsigned (alg none) token with 401 INVALID_TOKEN', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const unsigned = new UnsecuredJWT(decodeJwt(await exchange(integrationKey))).encode();
    await expectApiError(() => auth.authenticate(listJobs, bearer(unsigned)), 401, 'INVALID_TOKEN');
  });

  it('expires a token after 3600 s of virtual time with 401 INVALID_TOKEN', async () => {
    const { auth, tenant, exchange, bearer, deps } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const token = await exchange(integrationKey);
    deps.clock.advance(3_590_000);
    await expect(auth.authenticate(listJobs, bearer(token))).resolves.toMatchObject({ tenantId: tenant.id });
    deps.clock.advance(11_000);
    const error = await expectApiError(() => auth.authenticate(listJobs, bearer(token)), 401, 'INVALID_TOKEN');
    expect(error.message).toMatch(/expired/);
  });

  it('expires a token after deps.clock.advance(3601_000)', async () => {
    const { auth, tenant, exchange, bearer, deps } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const token = await exchange(integrationKey);
    deps.clock.advance(3601_000);
    await expectApiError(() => auth.authenticate(listJobs, bearer(token)), 401, 'INVALID_TOKEN');
  });

  it("expires the bearer of the one tenant whose own clock is advanced, and leaves another tenant's token of the same moment valid", async () => {
    // A frozen real time: both tokens are issued at the same instant, and only the advances below move time.
    const start = Date.parse('2026-03-02T09:00:00.000Z');
    const { auth, tenant: tenantA, tenants, exchange, bearer, deps } = await authFixture({ clock: createClock({ realNow: () => start }) });
    const tenantB = await tenants.create({ name: 'Other Imports' });
    const { integrationKey: keyOfA } = await auth.keys.create({ tenantId: tenantA.id });
    const { keyId: keyIdOfB, integrationKey: keyOfB } = await auth.keys.create({ tenantId: tenantB.id });
    const tokenA = await exchange(keyOfA);
    const tokenB = await exchange(keyOfB);
    expect(decodeJwt(tokenA).iat).toBe(decodeJwt(tokenB).iat);

    deps.clocks.of(tenantA.id).advance(3601_000);
    expect(deps.clock.now()).toBe(start); // the sandbox clock, and so tenant B's, did not move
    const error = await expectApiError(() => auth.authenticate(listJobs, bearer(tokenA)), 401, 'INVALID_TOKEN');
    expect(error.message).toMatch(/expired/);
    await expect(auth.authenticate(listJobs, bearer(tokenB))).resolves.toMatchObject({ type: 'integration', tenantId: tenantB.id, keyId: keyIdOfB });

    // Tenant B follows the sandbox clock: advancing that expires B's token too.
    deps.clock.advance(3601_000);
    await expectApiError(() => auth.authenticate(listJobs, bearer(tokenB)), 401, 'INVALID_TOKEN');
  });

  it('stops an already-issued token the moment its key is revoked, and the re-exchange says REVOKED_API_KEY', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const token = await exchange(integrationKey);
    await expect(auth.authenticate(listJobs, bearer(token))).resolves.toMatchObject({ keyId });
    await auth.keys.revoke(keyId);
    const error = await expectApiError(() => auth.authenticate(listJobs, bearer(token)), 401, 'INVALID_TOKEN');
    expect(error.message).toMatch(/revoked/);
    await expectApiError(() => exchange(integrationKey), 401, 'REVOKED_API_KEY');
  });

  it('stops an already-issued token when its key expires before the token does', async () => {
    const { auth, tenant, exchange, bearer, deps } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, expiresAt: new Date(deps.clock.now() + 600_000).toISOString() });
    const token = await exchange(integrationKey);
    deps.clock.advance(600_000);
    await expectApiError(() => auth.authenticate(listJobs, bearer(token)), 401, 'INVALID_TOKEN');
  });

  it('refuses a token whose tenant no longer exists with 401 INVALID_TOKEN', async () => {
    const { auth, tenant, bearer, deps } = await authFixture({ config: { jwtSecret: 'stable-across-the-reset-0123456789' } });
    const token = await auth.issueDashboardToken(tenant.id);
    await deps.store.clear(); // sandbox reset: the tenant is gone, the configured signing secret is not
    const error = await expectApiError(() => auth.authenticate(listJobs, bearer(token)), 401, 'INVALID_TOKEN');
    expect(error.message).toMatch(/tenant/);
  });

  it('issues dashboard tokens without a subject, and refuses them for an unknown tenant with 404', async () => {
    const { auth, tenant, bearer } = await authFixture();
    const token = await auth.issueDashboardToken(tenant.id);
    expect(decodeJwt(token)).toMatchObject({ tenant_id: tenant.id, principal_type: 'dashboard' });
    expect(decodeJwt(token).sub).toBeUndefined();
    await expect(auth.authenticate(listJobs, bearer(token))).resolves.toMatchObject({ type: 'dashboard', keyId: null, tenantId: tenant.id });
    await expectApiError(() => auth.issueDashboardToken('00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
  });
});
