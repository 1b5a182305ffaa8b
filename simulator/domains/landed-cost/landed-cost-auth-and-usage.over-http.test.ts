// Who may quote (spec 4.6 auth, 5.3) and what is billed (rule 5): an integration or dashboard bearer, the
// legacy x-api-key + x-org-id pair only with ALLOW_API_KEY_FALLBACK on (auth/authenticate.ts decides; these
// tests show it on this route), and one usage record per billable quote, read through the control API.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { postQuote, quotingTenant, usageOf } from './landed-cost.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const TEE = { productValue: 1200, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US', currency: 'USD' };

describe('landed-cost authentication', () => {
  it('quotes for an integration bearer and for a dashboard bearer, each recorded with its principal', async () => {
    sandbox = await startTestSandbox();
    expect((await postQuote(sandbox, TEE)).status).toBe(200);
    const dashboard = await sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/dashboard-token`);
    expect((await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 1 })).status).toBe(200);
    expect((await postQuote(sandbox, TEE, { token: dashboard.body.access_token })).status).toBe(200);
    expect((await usageOf(sandbox)).records.map((r) => r.principalType)).toEqual(['dashboard', 'integration']);
  });

  it('refuses the x-api-key + x-org-id pair with 401 INVALID_TOKEN while ALLOW_API_KEY_FALLBACK is off (the default)', async () => {
    sandbox = await startTestSandbox();
    const tenant = await quotingTenant(sandbox);
    const res = await postQuote(sandbox, TEE, { token: null, headers: { 'x-api-key': tenant.integrationKey, 'x-org-id': tenant.tenantId } });
    expect([res.status, res.body.code]).toEqual([401, 'INVALID_TOKEN']);
    expect((await usageOf(sandbox, tenant.tenantId)).billableQuotes).toBe(0);
  });

  it('quotes for the pair with ALLOW_API_KEY_FALLBACK on, as the key tenant; another tenant in x-org-id is 401 INVALID_API_KEY', async () => {
    sandbox = await startTestSandbox({ config: { allowApiKeyFallback: true } });
    const tenant = await quotingTenant(sandbox);
    const res = await postQuote(sandbox, TEE, { token: null, headers: { 'x-api-key': tenant.integrationKey, 'x-org-id': tenant.tenantId } });
    expect([res.status, res.body.status]).toEqual([200, 'authoritative']);
    expect((await usageOf(sandbox, tenant.tenantId)).records).toMatchObject([{ principalType: 'integration', destinationCountry: 'US' }]);
    const wrongOrg = await postQuote(sandbox, TEE, { token: null, headers: { 'x-api-key': tenant.integrationKey, 'x-org-id': sandbox.identity.tenantId } });
    expect([wrongOrg.status, wrongOrg.body.code]).toEqual([401, 'INVALID_API_KEY']);
  });
});

describe('billable usage', () => {
  it('records each engine result per tenant, newest first, and nothing for a refused request', async () => {
    sandbox = await startTestSandbox();
    const other = await quotingTenant(sandbox);
    // A second between quotes, so "newest first" is not decided by ids within one millisecond.
    const later = async () => expect((await sandbox!.admin('POST', '/_sim/clock/advance', { seconds: 1 })).status).toBe(200);
    await postQuote(sandbox, TEE);
    await later();
    await postQuote(sandbox, { ...TEE, destinationCountry: 'CA', currency: 'CAD' });
    await later();
    await postQuote(sandbox, { ...TEE, hsCode: '2204.21' }); // a specific duty without quantity: rate_not_available, billed
    expect((await postQuote(sandbox, { ...TEE, currency: 'XYZ' })).status).toBe(400);
    await postQuote(sandbox, TEE, { token: other.token });
    const mine = await usageOf(sandbox);
    expect(mine.billableQuotes).toBe(3);
    expect(mine.records.map((r) => [r.status, r.destinationCountry])).toEqual([['rate_not_available', 'US'], ['authoritative', 'CA'], ['authoritative', 'US']]);
    expect((await usageOf(sandbox, other.tenantId)).billableQuotes).toBe(1);
  });

  it('pages with limit and offset, and is 404 for an unknown tenant', async () => {
    sandbox = await startTestSandbox();
    for (let i = 0; i < 3; i++) await postQuote(sandbox, { ...TEE, productValue: 100 + i });
    const page = await sandbox.admin('GET', `/_sim/tenants/${sandbox.identity.tenantId}/usage?limit=2&offset=1`);
    expect(page.body).toMatchObject({ billableQuotes: 3, limit: 2, offset: 1 });
    expect(page.body.records).toHaveLength(2);
    expect((await sandbox.admin('GET', '/_sim/tenants/0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c/usage')).status).toBe(404);
  });
});
