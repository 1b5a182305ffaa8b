// POST /api/trade/landed-cost over HTTP (spec 4.6), every response checked against the contract: the
// validation the contract and the handler do, each rule 1-7 on a tenant whose clock is pinned to a date
// of the current regimes, and the date read from the tenant's virtual clock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { expectAddsUp, postQuote, quotingTenant, setCorridors, usageOf } from './landed-cost.testing.js';
import type { Breakdown } from './landed-cost.types.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A date inside today's regimes (US exemption suspended, EU flat charge): tests pin tenants to it. */
const PINNED = '2027-01-15';
const TEE = { productValue: 1200, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US' };

async function pinned() {
  sandbox = await startTestSandbox();
  const tenant = await quotingTenant(sandbox, { date: PINNED });
  const quote = (body: unknown, headers?: Record<string, string>) => postQuote(sandbox!, body, { token: tenant.token, headers });
  return { s: sandbox, tenant, quote };
}

describe('requests', () => {
  it('need productValue, hsCode, originCountry and destinationCountry: 400 INVALID_REQUEST naming the missing one', async () => {
    const { quote } = await pinned();
    for (const field of ['productValue', 'hsCode', 'originCountry', 'destinationCountry'] as const) {
      const { [field]: _gone, ...rest } = TEE;
      const res = await quote(rest);
      expect([res.status, res.body.code, res.body.details?.field], field).toEqual([400, 'INVALID_REQUEST', field]);
    }
  });

  it('take currency as an ISO 4217 code: another three letters or another shape is 400 naming currency', async () => {
    const { quote } = await pinned();
    for (const currency of ['XYZ', 'usd', 'EURO']) {
      const res = await quote({ ...TEE, currency });
      expect([res.status, res.body.code, res.body.details?.field], currency).toEqual([400, 'INVALID_REQUEST', 'currency']);
    }
  });

  it('take quantity and quantityUnit only together, and no negative amount', async () => {
    const { quote } = await pinned();
    expect((await quote({ ...TEE, quantity: 10 })).body.details).toEqual({ field: 'quantityUnit' });
    expect((await quote({ ...TEE, quantityUnit: 'KGM' })).body.details).toEqual({ field: 'quantity' });
    const negative = await quote({ ...TEE, shippingCost: -5 });
    expect([negative.status, negative.body.details?.field]).toEqual([400, 'shippingCost']);
  });

  it('default shippingCost to 0 and answer in the request currency, the parts adding up to the total', async () => {
    const { quote } = await pinned();
    const res = await quote({ ...TEE, currency: 'USD', insurance: 12 });
    expect(res.status).toBe(200);
    const breakdown = res.body.breakdown as Breakdown;
    expect(breakdown).toMatchObject({ shippingCost: 0, insurance: 12, dutyAmount: 198, totalLandedCost: 1410, currency: 'USD' });
    expectAddsUp(breakdown);
  });
});

describe('spec 4.6 rule 1', () => {
  it('refuses provider with quantity with 400 INVALID_REQUEST; the same request without provider is quoted', async () => {
    const { quote } = await pinned();
    const wine = { productValue: 5400, hsCode: '2204.21', originCountry: 'FR', destinationCountry: 'US', currency: 'USD', quantity: 900, quantityUnit: 'LTR' };
    const refused = await quote({ ...wine, provider: 'customs-broker' });
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
    // The contract's example names the field to drop.
    expect(refused.body.details.field).toBe('provider');
    expect(refused.body.message).toBe('provider may not be sent together with quantity');
    const served = await quote(wine);
    expect([served.status, served.body.breakdown.dutyAmount]).toEqual([200, 56.7]);
  });
});

describe('spec 4.6 rule 2', () => {
  it('compares with the provider in USD only; otherwise the internal result with providerSkipReason non_usd_corridor', async () => {
    const { quote } = await pinned();
    const usd = await quote({ ...TEE, currency: 'USD', provider: 'customs-broker' });
    expect(usd.body).toMatchObject({ providerSkipReason: null, providerComparison: { provider: 'customs-broker', currency: 'USD', difference: 1.2 } });
    for (const currency of ['EUR', undefined]) {
      const skipped = await quote({ ...TEE, currency, provider: 'customs-broker' });
      expect(skipped.body, String(currency)).toMatchObject({ status: 'authoritative', providerSkipReason: 'non_usd_corridor', providerComparison: null });
    }
  });
});

describe('spec 4.6 rule 3', () => {
  it('exempts a CAD 30 courier shipment from the US to Canada (CAD 40), and skips de minimis in USD or without currency', async () => {
    const { quote } = await pinned();
    const parcel = { productValue: 30, hsCode: '6109.10', originCountry: 'US', destinationCountry: 'CA', shippingCost: 8 };
    const cad = await quote({ ...parcel, currency: 'CAD' });
    expect(cad.body.deMinimis).toMatchObject({ threshold: 40, currency: 'CAD', exempt: true, skipped: null });
    expect(cad.body.breakdown).toMatchObject({ dutyAmount: 0, taxAmount: 0, totalLandedCost: 38 });
    const usd = await quote({ ...parcel, currency: 'USD' });
    expect(usd.body.deMinimis).toMatchObject({ threshold: 40, currency: 'CAD', exempt: false, skipped: 'currency_mismatch' });
    expect(usd.body.breakdown.dutyAmount).toBe(5.4);
    expect((await quote(parcel)).body.deMinimis).toBeNull();
  });
});

describe('spec 4.6 rule 4', () => {
  it('quotes DE at EUR 149 as indicative (flat EUR 3 charge in place of duty) and at EUR 151 as authoritative (MFN 12 % on CIF)', async () => {
    const { quote } = await pinned();
    const tee = { hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 10, currency: 'EUR' };
    const low = await quote({ ...tee, productValue: 149 });
    expect(low.body).toMatchObject({ trust: { level: 'indicative' }, deMinimis: { threshold: 150, exempt: false, relief: 'flat_charge' } });
    expect(low.body.breakdown).toMatchObject({ dutyAmount: 0, feesAmount: 3, taxAmount: 30.78, totalLandedCost: 192.78 });
    const high = await quote({ ...tee, productValue: 151 });
    expect(high.body).toMatchObject({ trust: { level: 'authoritative' } });
    expect(high.body.breakdown).toMatchObject({ customsValue: 161, dutyAmount: 19.32, taxAmount: 34.26, totalLandedCost: 214.58 });
    expect((await quote({ ...tee, productValue: 149, currency: 'GBP' })).body.trust).toEqual({ level: 'undetermined' });
  });

  it('reads the rules in force on the tenant clock date: from 2028-07-01 EUR 149 pays the full tariff', async () => {
    sandbox = await startTestSandbox();
    const later = await quotingTenant(sandbox, { date: '2028-07-02' });
    const res = await postQuote(sandbox, { productValue: 149, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 10, currency: 'EUR' }, { token: later.token });
    expect(res.body.metadata.evaluatedOn).toBe('2028-07-02');
    expect(res.body.breakdown).toMatchObject({ dutyAmount: 19.08, feesAmount: 0 });
  });
});

describe('spec 4.6 rule 5', () => {
  it('answers the unconfigured_corridor outcome exactly as the spec writes it, logs a warning and bills nothing', async () => {
    const { s, tenant, quote } = await pinned();
    await setCorridors(s, [{ originCountry: 'IN', destinationCountry: 'US', enabled: true }, { originCountry: '*', destinationCountry: 'CA', enabled: true }, { originCountry: 'CN', destinationCountry: 'GB', enabled: false }], tenant.tenantId);
    const warn = vi.spyOn(s.sim.deps.log, 'warn');
    for (const [originCountry, destinationCountry] of [['CN', 'GB'], ['VN', 'US']]) {
      const res = await quote({ ...TEE, originCountry, destinationCountry, currency: 'USD' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ authority: 'internal', status: 'unconfigured_corridor', breakdown: null, reason: 'no_enabled_matching_corridor', metadata: { policyMode: 'configured', originCountry, destinationCountry, corridorConfigured: false } });
    }
    expect(warn.mock.calls.filter(([, message]) => String(message).includes('unconfigured_corridor'))).toHaveLength(2);
    expect((await usageOf(s, tenant.tenantId)).billableQuotes).toBe(0);
  });

  it('quotes an enabled exact corridor, and another origin through the wildcard-origin row of the destination', async () => {
    const { s, tenant, quote } = await pinned();
    await setCorridors(s, [{ originCountry: 'IN', destinationCountry: 'US', enabled: true }, { originCountry: '*', destinationCountry: 'CA', enabled: true }, { originCountry: 'CN', destinationCountry: 'CA', enabled: false }], tenant.tenantId);
    for (const [originCountry, destinationCountry] of [['IN', 'US'], ['MX', 'CA'], ['CN', 'CA']]) {
      const res = await quote({ ...TEE, originCountry, destinationCountry });
      expect(res.body, `${originCountry} -> ${destinationCountry}`).toMatchObject({ status: 'authoritative', metadata: { policyMode: 'configured', corridorConfigured: true } });
    }
    expect((await usageOf(s, tenant.tenantId)).billableQuotes).toBe(3);
  });

  it('quotes every corridor for a tenant without corridor rows (policyMode unrestricted)', async () => {
    const { quote } = await pinned();
    expect((await quote(TEE)).body.metadata).toMatchObject({ policyMode: 'unrestricted', corridorConfigured: false });
  });
});

describe('spec 4.6 rule 6', () => {
  it('reports the authority source of the destination: Canada its own code, the EU members one code', async () => {
    const { quote } = await pinned();
    const sources: Record<string, unknown> = {};
    for (const destinationCountry of ['US', 'CA', 'GB', 'DE', 'FR', 'JP']) sources[destinationCountry] = (await quote({ ...TEE, originCountry: 'CN', destinationCountry })).body.metadata.sourceCode;
    expect(sources).toEqual({ US: 'USITC_HTSUS', CA: 'CBSA_T2025', GB: 'UK_GLOBAL_TARIFF', DE: 'EU_TARIC', FR: 'EU_TARIC', JP: 'USITC_HTSUS' });
  });

  it('answers rate_not_available with unsupportedExpression for skimmed milk powder into Canada, billed as an engine result', async () => {
    const { s, tenant, quote } = await pinned();
    const res = await quote({ productValue: 5000, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'CA', currency: 'CAD', quantity: 2000, quantityUnit: 'KGM' });
    expect(res.body).toMatchObject({ status: 'rate_not_available', breakdown: null, metadata: { sourceCode: 'CBSA_T2025', unsupportedExpression: true } });
    expect((await usageOf(s, tenant.tenantId)).records.map((r) => r.status)).toEqual(['rate_not_available']);
  });
});

describe('spec 4.6 rule 7', () => {
  it("flags an alias without its canonical field as use 'canonical' not 'alias', drops its value and logs a warning", async () => {
    const { s, quote } = await pinned();
    const warn = vi.spyOn(s.sim.deps.log, 'warn');
    const res = await quote({ ...TEE, freight: 150, currency_code: 'EUR', currency: 'USD' });
    expect(res.status).toBe(200);
    expect(res.headers['x-deprecation-hint']).toBe("use 'shippingCost' not 'freight'");
    expect(res.body.breakdown).toMatchObject({ shippingCost: 0, currency: 'USD' });
    expect(warn.mock.calls.some(([fields, message]) => String(message).includes('legacy field aliases') && JSON.stringify(fields).includes('freight'))).toBe(true);
    const two = await quote({ ...TEE, shipping_cost: 10, insurance_cost: 3 });
    expect(two.headers['x-deprecation-hint']).toBe("use 'shippingCost' not 'shipping_cost'; use 'insurance' not 'insurance_cost'");
    expect(two.body.breakdown).toMatchObject({ shippingCost: 0, insurance: 0 });
  });

  it('does not flag an alias beside its canonical field, and an alias does not stand for a required field', async () => {
    const { quote } = await pinned();
    const beside = await quote({ ...TEE, shippingCost: 40, shipping: 99 });
    expect(beside.headers['x-deprecation-hint']).toBeUndefined();
    expect(beside.body.breakdown.shippingCost).toBe(40);
    const { destinationCountry: _d, ...noDestination } = TEE;
    const refused = await quote({ ...noDestination, destination: 'US' });
    expect([refused.status, refused.body.details?.field]).toEqual([400, 'destinationCountry']);
  });
});
