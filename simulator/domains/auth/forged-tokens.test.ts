// The auth attacks of the conformance suite (conformance/checks/auth-attacks.ts) and the defects that prove
// them: each attack is refused by default and let through only by its own defect.
import { decodeJwt, decodeProtectedHeader, exportJWK, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import { authFixture, expectApiError, operation } from './auth.testing.js';

const listJobs = operation('listJobs');
const otherKey = new TextEncoder().encode('an attacker key that is not the sandbox signing key!');

/** A dashboard-only operation as contracts/sandbox-dashboard.openapi.yaml declares it. */
const dashboardOnly: ContractOperation = {
  section: 'paths',
  path: '/api/trade/feeds/{sessionId}/issues/acknowledge',
  method: 'post',
  operationId: 'acknowledgeTradeFeedIssues',
  operation: { operationId: 'acknowledgeTradeFeedIssues', 'x-principal-types': ['dashboard'] },
  parameters: [],
  tags: ['dashboard'],
};

async function genuine(defects: string[] = []) {
  const fixture = await authFixture({ config: { defects } });
  const { integrationKey } = await fixture.auth.keys.create({ tenantId: fixture.tenant.id });
  const token = await fixture.exchange(integrationKey);
  return { ...fixture, token, claims: decodeJwt(token), header: decodeProtectedHeader(token) };
}

const forgeries = {
  'auth.alg-none-accepted': async ({ claims }: Awaited<ReturnType<typeof genuine>>) => new UnsecuredJWT(claims).encode(),
  'auth.foreign-key-accepted': async ({ claims }: Awaited<ReturnType<typeof genuine>>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', jwk: await exportJWK(otherKey) }).sign(otherKey),
  'auth.foreign-issuer-unverified': async ({ claims }: Awaited<ReturnType<typeof genuine>>) =>
    new SignJWT({ ...claims, iss: 'https://issuer.invalid' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(otherKey),
};

describe('forged bearer tokens (spec 5.1, 7)', () => {
  it.each(Object.entries(forgeries))('are refused with 401 INVALID_TOKEN unless %s is on', async (defect, forge) => {
    const healthy = await genuine();
    await expectApiError(async () => healthy.auth.authenticate(listJobs, healthy.bearer(await forge(healthy))), 401, 'INVALID_TOKEN');
    const defective = await genuine([defect]);
    await expect(defective.auth.authenticate(listJobs, defective.bearer(await forge(defective)))).resolves.toMatchObject({ tenantId: defective.tenant.id });
  });

  it('keeps each forgery defect to its own attack: the other forgeries stay refused', async () => {
    for (const defect of Object.keys(forgeries)) {
      const fixture = await genuine([defect]);
      for (const [other, forge] of Object.entries(forgeries)) {
        if (other === defect) continue;
        await expectApiError(async () => fixture.auth.authenticate(listJobs, fixture.bearer(await forge(fixture))), 401, 'INVALID_TOKEN');
      }
      await expect(fixture.auth.authenticate(listJobs, fixture.bearer(fixture.token))).resolves.toMatchObject({ tenantId: fixture.tenant.id });
    }
  });
});

describe('the bearer alone names the tenant (spec 5.1)', () => {
  it('ignores x-org-id beside a bearer, unless auth.org-header-trusted is on', async () => {
    for (const [defects, expected] of [[[], 'own'], [['auth.org-header-trusted'], 'other']] as const) {
      const { auth, tenants, tenant, token, bearer } = await genuine([...defects]);
      const other = await tenants.create({ name: 'Other Imports' });
      const principal = await auth.authenticate(listJobs, { ...bearer(token), 'x-org-id': other.id });
      expect(principal?.tenantId).toBe(expected === 'own' ? tenant.id : other.id);
    }
  });
});

describe('dashboard-only routes (spec 5.5)', () => {
  it('refuse an integration token with 403 PRINCIPAL_DENIED, unless auth.dashboard-route-open is on', async () => {
    const healthy = await genuine();
    const error = await expectApiError(() => healthy.auth.authenticate(dashboardOnly, healthy.bearer(healthy.token)), 403, 'PRINCIPAL_DENIED');
    expect(error.details).toEqual({ required: 'dashboard', actual: 'integration' });
    await expect(healthy.auth.authenticate(dashboardOnly, healthy.bearer(await healthy.auth.issueDashboardToken(healthy.tenant.id)))).resolves.toMatchObject({ type: 'dashboard' });

    const defective = await genuine(['auth.dashboard-route-open']);
    await expect(defective.auth.authenticate(dashboardOnly, defective.bearer(defective.token))).resolves.toMatchObject({ type: 'integration' });
    // Billing setup (integration only) still refuses a dashboard token: the defect is the dashboard routes'.
    await expectApiError(async () => defective.auth.authenticate(operation('createBillingSetupSession'), defective.bearer(await defective.auth.issueDashboardToken(defective.tenant.id))), 403, 'PRINCIPAL_DENIED');
  });
});
