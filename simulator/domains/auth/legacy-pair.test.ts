import { describe, expect, it } from 'vitest';
import { authFixture, expectApiError, operation } from './auth.testing.js';

const landedCost = operation('calculateLandedCost');

describe('the legacy x-api-key + x-org-id pair (spec 5.3, decision 3)', () => {
  it('is refused with 401 INVALID_TOKEN while ALLOW_API_KEY_FALLBACK is off', async () => {
    const { auth, tenant } = await authFixture({ config: { allowApiKeyFallback: false } });
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    const error = await expectApiError(() => auth.authenticate(landedCost, { 'x-api-key': integrationKey, 'x-org-id': tenant.id }), 401, 'INVALID_TOKEN');
    expect(error.message).toMatch(/fallback is disabled/);
  });

  it('is accepted on landed cost when the setting is on, as an integration principal of the key', async () => {
    const { auth, tenant } = await authFixture({ config: { allowApiKeyFallback: true } });
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expect(auth.authenticate(landedCost, { 'x-api-key': integrationKey, 'x-org-id': tenant.id })).resolves.toMatchObject({ type: 'integration', keyId, tenantId: tenant.id });
  });

  it('is refused with 401 INVALID_API_KEY when x-org-id is not the key tenant, or missing', async () => {
    const { auth, tenant, tenants } = await authFixture({ config: { allowApiKeyFallback: true } });
    const other = await tenants.create({ name: 'Other' });
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expectApiError(() => auth.authenticate(landedCost, { 'x-api-key': integrationKey, 'x-org-id': other.id }), 401, 'INVALID_API_KEY');
    await expectApiError(() => auth.authenticate(landedCost, { 'x-api-key': integrationKey }), 401, 'INVALID_API_KEY');
  });

  it('answers the key codes for an unknown or revoked key', async () => {
    const { auth, tenant } = await authFixture({ config: { allowApiKeyFallback: true } });
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expectApiError(() => auth.authenticate(landedCost, { 'x-api-key': 'tfk_sbx_unknown', 'x-org-id': tenant.id }), 401, 'INVALID_API_KEY');
    await auth.keys.revoke(keyId);
    await expectApiError(() => auth.authenticate(landedCost, { 'x-api-key': integrationKey, 'x-org-id': tenant.id }), 401, 'REVOKED_API_KEY');
  });

  it('yields to a bearer when an Authorization header is also sent', async () => {
    const { auth, tenant } = await authFixture({ config: { allowApiKeyFallback: true } });
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expectApiError(() => auth.authenticate(landedCost, { authorization: 'Bearer nope', 'x-api-key': integrationKey, 'x-org-id': tenant.id }), 401, 'INVALID_TOKEN');
  });

  it('is not accepted on routes that do not declare it, even with the setting on', async () => {
    const { auth, tenant } = await authFixture({ config: { allowApiKeyFallback: true } });
    const { integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    await expectApiError(() => auth.authenticate(operation('listJobs'), { 'x-api-key': integrationKey, 'x-org-id': tenant.id }), 401, 'INVALID_TOKEN');
  });
});
