import { describe, expect, it } from 'vitest';
import type { Principal } from '../../kernel/http/types.js';
import { authFixture, expectApiError, operation } from './auth.testing.js';
import { ALL_SCOPES, assertAdapterAllowed } from './index.js';

const carrierAgreements = operation('uploadCarrierAgreement');
const billing = operation('createBillingSetupSession');

describe('required scopes (spec 5.4)', () => {
  it('refuses the carrier-agreement upload without ship:upload with 403 SCOPE_DENIED naming required and provided', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: ['sima:write', 'trade:write'] });
    const error = await expectApiError(async () => auth.authenticate(carrierAgreements, bearer(await exchange(integrationKey))), 403, 'SCOPE_DENIED');
    expect(error.details).toEqual({ required: 'ship:upload', provided: ['sima:write', 'trade:write'] });
  });

  it('admits the carrier-agreement upload with ship:upload', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: ['ship:upload'] });
    await expect(auth.authenticate(carrierAgreements, bearer(await exchange(integrationKey)))).resolves.toMatchObject({ scopes: ['ship:upload'] });
  });

  it('enforces no scope where the contract names none', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id, scopes: [] });
    await expect(auth.authenticate(operation('uploadShipFile'), bearer(await exchange(integrationKey)))).resolves.toMatchObject({ scopes: [] });
  });

  it('gives new keys every sandbox scope by default', async () => {
    const { auth, tenant } = await authFixture();
    const { keyId } = await auth.keys.create({ tenantId: tenant.id });
    expect((await auth.keys.get(keyId))!.scopes).toEqual(ALL_SCOPES);
    expect(ALL_SCOPES).toContain('ship:upload');
  });
});

describe('principal types (spec 5.4, 5.5)', () => {
  it('refuses billing setup with a dashboard token with 403 PRINCIPAL_DENIED naming required and actual', async () => {
    const { auth, tenant, bearer } = await authFixture();
    const error = await expectApiError(async () => auth.authenticate(billing, bearer(await auth.issueDashboardToken(tenant.id))), 403, 'PRINCIPAL_DENIED');
    expect(error.details).toEqual({ required: 'integration', actual: 'dashboard' });
  });

  it('admits billing setup with an integration token', async () => {
    const { auth, tenant, exchange, bearer } = await authFixture();
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expect(auth.authenticate(billing, bearer(await exchange(integrationKey)))).resolves.toMatchObject({ type: 'integration' });
  });

  it('admits a dashboard token on landed cost, which allows both principals (spec 4.6)', async () => {
    const { auth, tenant, bearer } = await authFixture();
    await expect(auth.authenticate(operation('calculateLandedCost'), bearer(await auth.issueDashboardToken(tenant.id)))).resolves.toMatchObject({ type: 'dashboard' });
  });

  it('asks nothing of signup, whose security is empty (spec 5.6)', async () => {
    const { auth } = await authFixture();
    await expect(auth.authenticate(operation('createSignupSession', 'v1.2.0'), {})).resolves.toBeNull();
  });
});

describe('the adapter allowlist (spec 5.4, 4.3)', () => {
  const principal = (allowedAdapters: string[] | null): Principal => ({ type: 'integration', tenantId: 't', keyId: 'k', scopes: [], allowedAdapters, defaultAdapter: null });

  it('refuses an adapter outside the key allowlist with 403 ADAPTER_NOT_ALLOWED on adapter_id', async () => {
    const error = await expectApiError(() => assertAdapterAllowed(principal(['ups-csv']), 'fedex-fbo-csv'), 403, 'ADAPTER_NOT_ALLOWED');
    expect(error.details).toMatchObject({ field: 'adapter_id' });
  });

  it('allows a listed adapter, any adapter without an allowlist, and no adapter at all', () => {
    expect(() => assertAdapterAllowed(principal(['ups-csv']), 'ups-csv')).not.toThrow();
    expect(() => assertAdapterAllowed(principal(null), 'fedex-fbo-csv')).not.toThrow();
    expect(() => assertAdapterAllowed(principal(['ups-csv']), undefined)).not.toThrow();
  });
});
