// The landed-cost checks (spec 4.6 rules 1-7, 5.3) proved on a small spec-correct stub server: they pass on
// it, and each fails on a variant of the stub that breaks the one rule it asserts. They all pass against the
// simulator (its landed-cost domain, issue 11), and each simulator defect of the domain is caught in
// conformance/self-test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/runner.js';
import type { RunReport, TargetOptions } from '../harness/types.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';
import { startStub, stubError, type StubRequest, type StubResponse, type StubRoute, type StubSettings, type StubTarget } from '../testing/stub-target.js';
import { landedCostChecks } from './landed-cost.js';

// ---------------------------------------------------------------------------------------------------------
// The stub: POST /api/trade/landed-cost as spec 4.6 and contracts/README.md decisions 11-13 describe it.

type Defect =
  | 'provider-quantity-accepted' // rule 1
  | 'provider-runs-without-usd' // rule 2
  | 'de-minimis-ignores-currency' // rule 3: never currency_mismatch
  | 'de-minimis-without-currency' // rule 3: evaluated without currency
  | 'de-minimis-without-currency-mismatch' // rule 3: without currency, skipped as a currency_mismatch
  | 'mismatch-exempts' // rule 3: a currency_mismatch is reported as an exemption
  | 'trust-boundary-exclusive' // rule 4: 150 EUR itself is not indicative
  | 'wildcard-ignored' // rule 5: no wildcard-origin fallback
  | 'unconfigured-metadata-swapped' // rule 5: metadata names the corridor the wrong way round
  | 'alias-hint-missing' // rule 7: no X-Deprecation-Hint
  | 'alias-flagged-beside-canonical' // rule 7: an alias beside its canonical field is flagged
  | 'alias-value-kept' // rule 7: a lone alias's value is used for its canonical field, not dropped
  | 'legacy-fallback-on' // 5.3: the x-api-key + x-org-id pair is served
  | 'canada-default-source' // rule 6: Canada reports the US/default source code
  | 'unsupported-unflagged' // rule 6: rate_not_available without unsupportedExpression
  | 'unsupported-quoted' // rule 6: the documented unsupported expression is quoted authoritative
  | 'duty-on-fob' // breakdown: CIF duty computed on the FOB value
  | 'total-omits-tax'; // breakdown: the total leaves the tax out

const ALIASES: Record<string, string> = {
  shipping: 'shippingCost', freight: 'shippingCost', shipping_cost: 'shippingCost', insurance_cost: 'insurance',
  currencyCode: 'currency', currency_code: 'currency', destination: 'destinationCountry', destCountry: 'destinationCountry',
  destinationCountryCode: 'destinationCountry', origin: 'originCountry', originCountryCode: 'originCountry',
};
const EU = new Set(['AT', 'BE', 'DE', 'ES', 'FR', 'IE', 'IT', 'NL', 'PL', 'SE']);
/** Reference de minimis thresholds: US USD 800, CA CAD 20, UK GBP 135, EU EUR 150, AU AUD 1000. */
const threshold = (country: string): [string, number] | undefined =>
  EU.has(country) ? ['EUR', 150] : ({ US: ['USD', 800], CA: ['CAD', 20], GB: ['GBP', 135], AU: ['AUD', 1000] } as Record<string, [string, number]>)[country];
const authority = (country: string, defect?: Defect): [string, string] =>
  EU.has(country) ? ['EU_TARIC', 'EU_TARIC'] : country === 'CA' ? ['CA_CBSA', defect === 'canada-default-source' ? 'USITC_HTSUS' : 'CBSA_T2025'] : country === 'GB' ? ['UK_HMRC', 'UK_GLOBAL_TARIFF'] : ['US_CBP', 'USITC_HTSUS'];
const round2 = (n: number) => Math.round(n * 100) / 100;

const invalid = (field: string, message: string) => stubError(400, 'INVALID_REQUEST', message, { field });

function landedCostStub(defect?: Defect): StubRoute {
  return (request: StubRequest): StubResponse | undefined => {
    if (request.method !== 'POST' || request.path !== '/api/trade/landed-cost') return undefined;
    let tenant = request.tenant;
    const apiKey = request.headers['x-api-key'];
    if (!tenant && defect === 'legacy-fallback-on' && typeof apiKey === 'string') {
      const keyTenant = request.tenantsByKey.get(apiKey);
      if (!keyTenant) return stubError(401, 'INVALID_API_KEY', 'unknown integration key');
      if (request.headers['x-org-id'] === keyTenant.tenantId) tenant = keyTenant;
    }
    if (!tenant) return stubError(401, 'INVALID_TOKEN', 'Authorization: Bearer <access_token> is required');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body.toString('utf8'));
    } catch {
      return invalid('body', 'malformed JSON');
    }
    if (defect === 'alias-value-kept') {
      for (const [alias, canonical] of Object.entries(ALIASES)) if (alias in body && !(canonical in body)) body = { ...body, [canonical]: body[alias] };
    }
    const { productValue, hsCode, originCountry, destinationCountry, currency, quantity, quantityUnit, provider } = body as Record<string, any>;
    if (typeof productValue !== 'number') return invalid('productValue', 'productValue is required');
    if (typeof hsCode !== 'string' || !hsCode) return invalid('hsCode', 'hsCode is required');
    for (const [field, value] of [['originCountry', originCountry], ['destinationCountry', destinationCountry]]) {
      if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) return invalid(field, `${field} is required`);
    }
    if (currency !== undefined && !/^[A-Z]{3}$/.test(String(currency))) return invalid('currency', 'currency must be an ISO 4217 code');
    if ((quantity === undefined) !== (quantityUnit === undefined)) return invalid('quantityUnit', 'quantity and quantityUnit must be given together');
    if (provider !== undefined && quantity !== undefined && defect !== 'provider-quantity-accepted') return invalid('provider', 'provider comparison is only available for value-only requests');

    const headers: Record<string, string> = {};
    const hints = Object.keys(body)
      .filter((field) => field in ALIASES && (!(ALIASES[field] in body) || defect === 'alias-flagged-beside-canonical'))
      .map((alias) => `use '${ALIASES[alias]}' not '${alias}'`);
    if (hints.length && defect !== 'alias-hint-missing') headers['x-deprecation-hint'] = hints.join('; ');

    const corridors = tenant.settings.quoteCorridors;
    if (corridors.length) {
      const enabled = corridors.filter((c) => c.enabled !== false && c.destinationCountry === destinationCountry);
      const match = enabled.find((c) => c.originCountry === originCountry) ?? (defect === 'wildcard-ignored' ? undefined : enabled.find((c) => c.originCountry === '*'));
      if (!match) {
        const [o, d] = defect === 'unconfigured-metadata-swapped' ? [destinationCountry, originCountry] : [originCountry, destinationCountry];
        return {
          status: 200,
          headers,
          body: { authority: 'internal', status: 'unconfigured_corridor', breakdown: null, reason: 'no_enabled_matching_corridor', metadata: { policyMode: 'configured', originCountry: o, destinationCountry: d, corridorConfigured: false } },
        };
      }
    }

    const cur = typeof currency === 'string' ? currency : undefined;
    const shippingCost = typeof body.shippingCost === 'number' ? body.shippingCost : 0;
    const insurance = typeof body.insurance === 'number' ? body.insurance : 0;
    // 10 % duty on the customs value (CIF into the EU and the UK, FOB elsewhere), 10 % tax outside the US.
    const basis = EU.has(destinationCountry) || destinationCountry === 'GB' ? 'CIF' : 'FOB';
    const customsValue = basis === 'CIF' ? round2(productValue + shippingCost + insurance) : productValue;
    const dutyAmount = round2((defect === 'duty-on-fob' ? productValue : customsValue) * 0.1);
    const taxAmount = destinationCountry === 'US' ? 0 : round2((customsValue + dutyAmount) * 0.1);
    const limit = threshold(destinationCountry);
    let deMinimis: Record<string, unknown> | null = null;
    if (limit && (cur || defect === 'de-minimis-without-currency' || defect === 'de-minimis-without-currency-mismatch')) {
      const matching = cur === limit[0] || defect === 'de-minimis-ignores-currency';
      const mismatch = !matching && (cur !== undefined || defect === 'de-minimis-without-currency-mismatch');
      deMinimis = { threshold: limit[1], currency: limit[0], exempt: mismatch ? defect === 'mismatch-exempts' : matching && productValue <= limit[1], skipped: mismatch ? 'currency_mismatch' : null };
    }
    let trust: Record<string, unknown> | null = null;
    if (EU.has(destinationCountry)) {
      const low = defect === 'trust-boundary-exclusive' ? productValue < 150 : productValue <= 150;
      trust = { level: cur === 'EUR' ? (low ? 'indicative' : 'authoritative') : 'undetermined' };
    }
    const compare = provider !== undefined && (cur === 'USD' || defect === 'provider-runs-without-usd');
    const total = round2(productValue + shippingCost + insurance + dutyAmount + (defect === 'total-omits-tax' ? 0 : taxAmount));
    const [authorityName, sourceCode] = authority(destinationCountry, defect);
    const metadata = { policyMode: corridors.length ? 'configured' : 'unrestricted', originCountry, destinationCountry, corridorConfigured: corridors.length > 0, sourceCode, unsupportedExpression: false };
    // The contract's unsupported expression (0402.10 into Canada, "201.5 % but not less than $2.01/kg").
    if (String(hsCode).replace(/\D/g, '').startsWith('040210') && destinationCountry === 'CA' && defect !== 'unsupported-quoted') {
      return {
        status: 200,
        headers,
        body: { status: 'rate_not_available', authority: authorityName, breakdown: null, reason: 'unsupported_duty_expression', metadata: { ...metadata, unsupportedExpression: defect !== 'unsupported-unflagged' }, providerSkipReason: null, deMinimis, trust },
      };
    }
    return {
      status: 200,
      headers,
      body: {
        status: 'authoritative',
        authority: authorityName,
        breakdown: { productValue, customsValue, customsValueBasis: basis, dutyRate: 0.1, dutyExpression: '10%', dutyBasis: 'customs_value', dutyAmount, taxAmount, shippingCost, insurance, totalLandedCost: total, currency: cur ?? 'USD' },
        reason: null,
        metadata,
        providerSkipReason: provider !== undefined && !compare ? 'non_usd_corridor' : null,
        deMinimis,
        trust,
        providerComparison: compare ? { provider: String(provider), dutyAmount, totalLandedCost: total + 1, currency: 'USD', difference: 1 } : null,
      },
    };
  };
}

// ---------------------------------------------------------------------------------------------------------

const IDS = landedCostChecks.map((c) => c.id);

const summary = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');
const verdicts = (report: RunReport) => Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));

async function withStub<T>(route: StubRoute, body: (stub: StubTarget) => Promise<T>, primarySettings?: Partial<StubSettings>): Promise<T> {
  const stub = await startStub(route, { label: 'landed-cost', primarySettings });
  try {
    return await body(stub);
  } finally {
    await stub.close();
  }
}

const sandbox = (stub: StubTarget, extra: Partial<TargetOptions> = {}) => stub.options({ profile: 'sandbox', adminToken: undefined, ...extra });

describe('landed-cost checks on a spec-correct stub', () => {
  it('pass in the simulator profile', async () => {
    const report = await withStub(landedCostStub(), (stub) => runSuite(stub.options(), landedCostChecks));
    expect(report.results.map((r) => r.verdict), summary(report)).toEqual(IDS.map(() => 'passed'));
  });

  it('pass with other seeds too (other destinations, currencies, aliases and corridors are drawn)', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const report = await withStub(landedCostStub(), (stub) => runSuite(stub.options({ seed }), landedCostChecks));
      expect(report.results.map((r) => r.verdict), `seed ${seed}\n${summary(report)}`).toEqual(IDS.map(() => 'passed'));
    }
  });

  it('pass in the sandbox profile; the corridor, breakdown and legacy-pair checks skip with their reasons', async () => {
    const report = await withStub(landedCostStub(), (stub) => runSuite(sandbox(stub), landedCostChecks));
    const results = Object.fromEntries(report.results.map((r) => [r.id, r]));
    expect(results['landed-cost.breakdown-consistent'].verdict).toBe('skipped');
    expect(results['landed-cost.breakdown-consistent'].reason).toMatch(/sandbox-defined/);
    expect(results['landed-cost.unconfigured-corridor'].verdict).toBe('skipped');
    expect(results['landed-cost.unconfigured-corridor'].reason).toMatch(/simulator profile/);
    expect(results['landed-cost.legacy-pair-off-by-default'].verdict).toBe('skipped');
    expect(results['landed-cost.legacy-pair-off-by-default'].reason).toMatch(/a deployment may enable/);
    const others = report.results.filter((r) => !['landed-cost.unconfigured-corridor', 'landed-cost.legacy-pair-off-by-default', 'landed-cost.breakdown-consistent'].includes(r.id));
    expect(others.map((r) => r.verdict), summary(report)).toEqual(others.map(() => 'passed'));
  });

  it('read the de minimis exempt flag only in the simulator profile (a sandbox-defined field): a mismatch reported as exempt passes in sandbox', async () => {
    const report = await withStub(landedCostStub('mismatch-exempts'), (stub) => runSuite(sandbox(stub), landedCostChecks));
    expect(report.results.find((r) => r.id === 'landed-cost.de-minimis-currency-mismatch')!.verdict, summary(report)).toBe('passed');
  });

  it('skip rules 2-4 on a shared tenant whose corridors do not cover the quote, rather than fail', async () => {
    const corridors = { quoteCorridors: [{ originCountry: 'ZZ', destinationCountry: 'ZZ', enabled: true }] };
    const report = await withStub(landedCostStub(), (stub) => runSuite(sandbox(stub), landedCostChecks), corridors);
    for (const id of ['landed-cost.non-usd-skips-provider', 'landed-cost.de-minimis-currency-mismatch', 'landed-cost.eu-trust-gate']) {
      const result = report.results.find((r) => r.id === id)!;
      expect(result.verdict, summary(report)).toBe('skipped');
      expect(result.reason).toMatch(/unconfigured_corridor/);
    }
  });
});

/** Each variant breaks one rule: the check meant for it fails with that rule, the others still pass. */
const VARIANTS: Array<[Defect, string, string]> = [
  ['provider-quantity-accepted', 'landed-cost.provider-with-quantity-rejected', 'error-status'],
  ['provider-runs-without-usd', 'landed-cost.non-usd-skips-provider', 'provider-skip-reason'],
  ['de-minimis-ignores-currency', 'landed-cost.de-minimis-currency-mismatch', 'de-minimis-currency-mismatch'],
  ['de-minimis-without-currency', 'landed-cost.de-minimis-currency-mismatch', 'de-minimis-without-currency'],
  ['de-minimis-without-currency-mismatch', 'landed-cost.de-minimis-currency-mismatch', 'de-minimis-without-currency'],
  ['mismatch-exempts', 'landed-cost.de-minimis-currency-mismatch', 'de-minimis-mismatch-not-exempt'],
  ['trust-boundary-exclusive', 'landed-cost.eu-trust-gate', 'eu-trust-gate'],
  ['wildcard-ignored', 'landed-cost.unconfigured-corridor', 'corridor-wildcard-origin'],
  ['unconfigured-metadata-swapped', 'landed-cost.unconfigured-corridor', 'unconfigured-corridor'],
  ['alias-hint-missing', 'landed-cost.legacy-alias-hint', 'legacy-alias-hint'],
  ['alias-flagged-beside-canonical', 'landed-cost.legacy-alias-hint', 'legacy-alias-not-flagged'],
  ['alias-value-kept', 'landed-cost.legacy-alias-hint', 'legacy-alias-value-dropped'],
  ['legacy-fallback-on', 'landed-cost.legacy-pair-off-by-default', 'legacy-pair-disabled'],
  ['canada-default-source', 'landed-cost.authority-follows-destination', 'authority-source-code'],
  ['unsupported-unflagged', 'landed-cost.unsupported-expression', 'unsupported-expression'],
  ['unsupported-quoted', 'landed-cost.unsupported-expression', 'unsupported-expression'],
  ['duty-on-fob', 'landed-cost.breakdown-consistent', 'duty-on-customs-value'],
  ['total-omits-tax', 'landed-cost.breakdown-consistent', 'breakdown-adds-up'],
];

describe('each landed-cost check fails on a stub that breaks its rule', () => {
  it.each(VARIANTS)('%s: %s fails with %s', async (defect, id, rule) => {
    const report = await withStub(landedCostStub(defect), (stub) => runSuite(stub.options(), landedCostChecks));
    const result = report.results.find((r) => r.id === id)!;
    expect(result.verdict, summary(report)).toBe('failed');
    expect(result.failures.map((f) => f.rule)).toContain(rule);
    const failure = result.failures.find((f) => f.rule === rule)!;
    expect(failure.exchange).toBeDefined();
    if (id !== 'landed-cost.legacy-pair-off-by-default') expect(failure.replay).toContain(`--only ${id}`);
    // Rule 7's hint is held by two checks (its presence and value handling; its exact format): a stub without
    // the hint breaks both.
    const alsoHolds = defect === 'alias-hint-missing' || defect === 'alias-value-kept' ? ['landed-cost.deprecation-hint-format'] : [];
    expect(Object.entries(verdicts(report)).filter(([other, verdict]) => other !== id && !alsoHolds.includes(other) && verdict !== 'passed'), summary(report)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'landed-cost-test' });
});
afterAll(async () => {
  await target?.close();
});

describe('landed-cost checks against the simulator', () => {
  it('all pass', async () => {
    const report = await runSuite(target.options(), landedCostChecks);
    expect(verdicts(report), summary(report)).toEqual(Object.fromEntries(IDS.map((id) => [id, 'passed'])));
  });

  it('all pass with other seeds too', async () => {
    for (const seed of [7, 8, 9]) {
      const report = await runSuite(target.options({ seed }), landedCostChecks);
      expect(verdicts(report), `seed ${seed}\n${summary(report)}`).toEqual(Object.fromEntries(IDS.map((id) => [id, 'passed'])));
    }
  });
});
