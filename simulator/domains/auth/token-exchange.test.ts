import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { tenantStore } from '../tenants/index.js';
import { createTestDeps } from '../../testing/kernel.js';
import { authFixture, expectApiError, operation, request } from './auth.testing.js';
import { createAuth } from './index.js';

const exchangeOp = operation('exchangeIntegrationToken');

describe('the token exchange (spec 4.1, 2.1)', () => {
  it('exchanges a valid key for a 3600-second bearer carrying the key, tenant, principal type and scopes', async () => {
    const { auth, tenant, deps } = await authFixture();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: ['sima:write', 'jobs:read'], allowedAdapters: ['catalog-excel'], defaultAdapter: 'catalog-excel' });
    const principal = await auth.authenticate(exchangeOp, { 'x-api-key': integrationKey });
    const response = await auth.handlers.exchangeIntegrationToken!(request(exchangeOp, principal!));

    expect(response.status).toBe(200);
    const body = response.body as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, default_adapter: 'catalog-excel' });
    const schemas = createContractSchemas(loadContract('v1.3.0'));
    expect(schemas.component('TokenResponse')(body)).toBe(true);

    const claims = decodeJwt(body.access_token as string);
    const nowSeconds = Math.floor(deps.clock.now() / 1000);
    expect(claims).toMatchObject({ sub: keyId, tenant_id: tenant.id, principal_type: 'integration', scopes: ['sima:write', 'jobs:read'] });
    expect(typeof claims.jti).toBe('string');
    expect(Math.abs(claims.iat! - nowSeconds)).toBeLessThanOrEqual(1);
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('gives every token its own jti', async () => {
    const { auth, tenant, exchange } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    expect(decodeJwt(await exchange(integrationKey)).jti).not.toBe(decodeJwt(await exchange(integrationKey)).jti);
  });

  it('answers default_adapter null for a key without one', async () => {
    const { auth, tenant } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const principal = await auth.authenticate(exchangeOp, { 'x-api-key': integrationKey });
    const response = await auth.handlers.exchangeIntegrationToken!(request(exchangeOp, principal!));
    expect((response.body as Record<string, unknown>).default_adapter).toBeNull();
  });

  it('returns the key principal so the rate limiter counts the exchange per key', async () => {
    const { auth, tenant } = await authFixture();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    expect(await auth.authenticate(exchangeOp, { 'x-api-key': integrationKey })).toMatchObject({ type: 'integration', keyId, tenantId: tenant.id });
  });

  it('answers 400 MISSING_API_KEY without x-api-key, or with an empty one', async () => {
    const { auth } = await authFixture();
    await expectApiError(() => auth.authenticate(exchangeOp, {}), 400, 'MISSING_API_KEY');
    await expectApiError(() => auth.authenticate(exchangeOp, { 'x-api-key': '  ' }), 400, 'MISSING_API_KEY');
  });

  it('refuses an unknown key with 401 INVALID_API_KEY', async () => {
    const { auth } = await authFixture();
    await expectApiError(() => auth.authenticate(exchangeOp, { 'x-api-key': 'tfk_sbx_not-a-key' }), 401, 'INVALID_API_KEY');
  });

  it('refuses a revoked key with 401 REVOKED_API_KEY', async () => {
    const { auth, tenant } = await authFixture();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await auth.keys.revoke(keyId);
    await expectApiError(() => auth.authenticate(exchangeOp, { 'x-api-key': integrationKey }), 401, 'REVOKED_API_KEY');
  });

  it('refuses an expired key with 401 EXPIRED_API_KEY once the virtual clock passes its expiry', async () => {
    const { auth, tenant, deps } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, expiresAt: new Date(deps.clock.now() + 60_000).toISOString() });
    await expect(auth.authenticate(exchangeOp, { 'x-api-key': integrationKey })).resolves.toMatchObject({ type: 'integration' });
    deps.clock.advance(60_000);
    await expectApiError(() => auth.authenticate(exchangeOp, { 'x-api-key': integrationKey }), 401, 'EXPIRED_API_KEY');
  });

  it('reports a key that is both revoked and expired as revoked', async () => {
    const { auth, tenant, deps } = await authFixture();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id, expiresAt: new Date(deps.clock.now() + 1_000).toISOString() });
    await auth.keys.revoke(keyId);
    deps.clock.advance(2_000);
    await expectApiError(() => auth.authenticate(exchangeOp, { 'x-api-key': integrationKey }), 401, 'REVOKED_API_KEY');
  });

  it('signs with SIM_JWT_SECRET when it is configured', async () => {
    const { auth, tenant, exchange, deps } = await authFixture({ config: { jwtSecret: 'a-configured-signing-secret-of-some-length' } });
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const token = await exchange(integrationKey);
    const { payload } = await jwtVerify(token, new TextEncoder().encode('a-configured-signing-secret-of-some-length'), { currentDate: new Date(deps.clock.now()) });
    expect(payload.tenant_id).toBe(tenant.id);
  });

  it('issues tokens that still verify after a restart on the same store', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'auth-')), 'store.json');
    const first = await authFixture({ file });
    const { integrationKey } = await first.auth.keys.create({ tenantId: first.tenant.id });
    const token = await first.exchange(integrationKey);
    await first.deps.store.close();

    const deps = await createTestDeps({ file, seed: 99 });
    const auth = createAuth(deps, { tenants: tenantStore(deps) });
    await auth.start?.();
    await expect(auth.authenticate(operation('listJobs'), { authorization: `Bearer ${token}` })).resolves.toMatchObject({ tenantId: first.tenant.id });
  });
});
