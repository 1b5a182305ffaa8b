// Landed cost (spec 4.6 rules 1-5 and 7, 5.3; contracts/README.md decisions 11-13): each check asserts one
// rule the spec names, never a sandbox-defined value (duty amounts, authority values, the de minimis
// structure beyond `skipped`, trust beyond the two levels the spec names).
import fc from 'fast-check';
import { isObject, type Json, type JsonObject } from '../../contracts/lib/bundle.js';
import { mediaExample } from '../../contracts/lib/example-request.js';
import { deref, type ContractOperation } from '../../contracts/lib/operations.js';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import { replayCommand } from '../harness/runner.js';
import { flatten } from '../harness/schema-arbitraries.js';
import type { Exchange, Failure } from '../harness/types.js';
import { expectError, isErrorEnvelope } from './auth.js';
import { isRateLimited, seeded, sleep } from './jobs-support.js';

// ---------------------------------------------------------------------------------------------------------
// The operation and its request.

const OPERATION_ID = 'calculateLandedCost';

interface LandedCost {
  op: ContractOperation;
  /** The canonical required fields of the contract's first example (a product every deployment quotes). */
  base: { productValue: number; hsCode: string; originCountry: string; destinationCountry: string };
  /** The provider the contract's examples name (decision 11: a provider identifier). */
  provider: string;
  /** `quantityUnit` values of the request schema. */
  units: string[];
  /** Legacy aliases (`x-alias-of`, rule 7): alias -> canonical field. */
  aliases: Array<{ alias: string; canonical: string }>;
  required: string[];
}

function landedCost(ctx: CheckContext): LandedCost {
  const op = ctx.contract.operation(OPERATION_ID);
  if (!op) ctx.skip(`contract ${ctx.contract.version} has no ${OPERATION_ID}`);
  const doc = ctx.contract.doc;
  const body = deref(doc, op.operation.requestBody ?? null);
  const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
  const example = mediaExample(doc, media ?? null);
  const ex = (isObject(example) ? example : {}) as JsonObject;
  const schema = flatten(doc, (isObject(media) ? media.schema : {}) as Json);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const units = flatten(doc, properties.quantityUnit).enum;
  const aliases = Object.entries(properties)
    .map(([alias, raw]) => ({ alias, target: flatten(doc, raw)['x-alias-of'] }))
    .filter((a): a is { alias: string; target: string } => typeof a.target === 'string')
    .map(({ alias, target }) => ({ alias, canonical: target }));
  return {
    op,
    base: {
      productValue: typeof ex.productValue === 'number' ? ex.productValue : 1200,
      hsCode: typeof ex.hsCode === 'string' ? ex.hsCode : '6109.10',
      originCountry: typeof ex.originCountry === 'string' ? ex.originCountry : 'IN',
      destinationCountry: typeof ex.destinationCountry === 'string' ? ex.destinationCountry : 'US',
    },
    provider: typeof ex.provider === 'string' ? ex.provider : 'conformance-provider',
    units: Array.isArray(units) && units.length ? units.map(String) : ['KGM'],
    aliases,
    required: Array.isArray(schema.required) ? schema.required.map(String) : [],
  };
}

interface QuoteTenant {
  client: ConformanceClient;
  /** Created for this check: no quote-corridor rows, so every corridor is quoted (rule 5: configured mode
   *  needs rows). */
  fresh: boolean;
  tenantId?: string;
}

/** With the control API a new tenant (no corridors, raised write bucket); else the primary tenant. */
async function quoteTenant(ctx: CheckContext, name: string): Promise<QuoteTenant> {
  if (!ctx.admin) return { client: ctx.client, fresh: false };
  const created = await ctx.admin.createTenant({ name });
  await ctx.admin.updateSettings(created.tenantId, { rateLimits: { write: { limit: 100_000, windowMs: 60_000 } } });
  return { client: ctx.client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}

/** Posts a quote; a 429 (spec 8.1) is waited out as spec 7 asks (virtual clock with the control API). */
async function quote(ctx: CheckContext, client: ConformanceClient, lc: LandedCost, body: Record<string, unknown>): Promise<Exchange> {
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    const exchange = await client.call('POST', lc.op.path, { json: body });
    if (!isRateLimited(exchange) || attempt > 5) return exchange;
    const details = (exchange.response.body as { details?: { retryAfterSeconds?: unknown } }).details;
    const asked = Number(details?.retryAfterSeconds ?? exchange.response.headers['retry-after'] ?? 1);
    const seconds = Number.isFinite(asked) && asked > 0 ? asked : 1;
    if (ctx.admin) await ctx.admin.advanceClock(seconds);
    else {
      if (waitedMs + seconds * 1000 > 15_000) return exchange;
      await sleep(seconds * 1000);
      waitedMs += seconds * 1000;
    }
  }
}

interface QuoteResult {
  status?: unknown;
  authority?: unknown;
  breakdown?: unknown;
  reason?: unknown;
  metadata?: Record<string, unknown> | null;
  providerSkipReason?: unknown;
  deMinimis?: { skipped?: unknown } | null;
  trust?: { level?: unknown } | null;
}

/** A response value for messages: `absent` when the field is missing. */
const shown = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

const describe = (exchange: Exchange) =>
  isErrorEnvelope(exchange.response.body) ? `${exchange.response.status} ${exchange.response.body.code}` : String(exchange.response.status);

/**
 * The 200 result of a quote the rule is about, or undefined after failing the check. A quote answered with
 * the unconfigured-corridor outcome says nothing about rules 2-4: skipped on a shared tenant (its corridors
 * are its operator's), a failure on a tenant without corridors (rule 5: that outcome needs configured mode).
 */
function served(ctx: CheckContext, tenant: QuoteTenant, exchange: Exchange, what: string, extra: Partial<Failure>): QuoteResult | undefined {
  if (isRateLimited(exchange)) ctx.skip(`${what} was still rate limited after waiting as the 429 asked`);
  if (exchange.response.status !== 200 || !isObject(exchange.response.body as Json)) {
    ctx.fail('landed-cost-served', `${what} answered ${describe(exchange)}, not 200 with a landed-cost result (spec 4.6)`, exchange, extra);
    return undefined;
  }
  const result = exchange.response.body as QuoteResult;
  if (result.status === 'unconfigured_corridor') {
    const corridor = `${result.metadata?.originCountry ?? '?'} -> ${result.metadata?.destinationCountry ?? '?'}`;
    if (!tenant.fresh) ctx.skip(`${what}: the tenant's quote corridors do not cover ${corridor} (unconfigured_corridor), so the rule cannot be observed here`);
    ctx.fail('landed-cost-served', `${what} answered the unconfigured_corridor outcome for a tenant without quote-corridor rows (spec 4.6 rule 5: only in configured mode)`, exchange, extra);
    return undefined;
  }
  return result;
}

/** Seed, drawn input and replay command for a failure whose input was drawn with the run's seed. */
const drawn = (ctx: CheckContext, id: string, input: unknown): Partial<Failure> => ({
  seed: ctx.seed,
  counterexample: JSON.stringify(input),
  replay: replayCommand(ctx.options, [id]),
});

const productValue = (ctx: CheckContext, index: number, max = 5_000) => seeded(fc.integer({ min: 1, max }), ctx.seed, index);

// ---------------------------------------------------------------------------------------------------------
// Rule 1.

const PROVIDER_QUANTITY_ID = 'landed-cost.provider-with-quantity-rejected';

// Spec 4.6 rule 1 (decision 13): `provider` with `quantity` is 400 INVALID_REQUEST. The same request without
// `provider` is a valid quantity-aware request: it is served, so the 400 is about the pair.
export const providerWithQuantityRejected = defineCheck({
  id: PROVIDER_QUANTITY_ID,
  title: 'A landed-cost request with both provider and quantity is refused with 400 INVALID_REQUEST',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: provider with quantity');
    const quantity = seeded(fc.integer({ min: 1, max: 10_000 }), ctx.seed, 0);
    const quantityUnit = seeded(fc.constantFrom(...lc.units), ctx.seed, 1);
    const withQuantity = { ...lc.base, productValue: productValue(ctx, 2), currency: 'USD', quantity, quantityUnit };
    const body = { ...withQuantity, provider: lc.provider };
    const extra = drawn(ctx, PROVIDER_QUANTITY_ID, body);
    const refused = await quote(ctx, tenant.client, lc, body);
    if (isRateLimited(refused)) ctx.skip('the request was still rate limited after waiting as the 429 asked');
    expectError(ctx, refused, 400, 'INVALID_REQUEST', 'provider with quantity and quantityUnit (spec 4.6 rule 1)', extra);
    const control = await quote(ctx, tenant.client, lc, withQuantity);
    if (isRateLimited(control)) ctx.skip('the request was still rate limited after waiting as the 429 asked');
    if (control.response.status !== 200) {
      ctx.fail('landed-cost-served', `the same request without provider answered ${describe(control)}, not 200: quantity with quantityUnit is valid (spec 4.6), so the refusal is not shown to be about rule 1`, control, drawn(ctx, PROVIDER_QUANTITY_ID, withQuantity));
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Rule 2.

const NON_USD_ID = 'landed-cost.non-usd-skips-provider';

// Spec 4.6 rule 2: provider comparison runs only when `currency` is given and is USD; otherwise the internal
// result carries `providerSkipReason: non_usd_corridor`. With USD it runs, so that reason is not given.
export const nonUsdSkipsProvider = defineCheck({
  id: NON_USD_ID,
  title: 'Provider comparison without USD is skipped with providerSkipReason non_usd_corridor',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: provider currency');
    const value = productValue(ctx, 3);
    const cases: Array<{ label: string; body: Record<string, unknown>; skipped: boolean }> = [
      { label: 'provider with currency EUR', body: { ...lc.base, productValue: value, currency: 'EUR', provider: lc.provider }, skipped: true },
      { label: 'provider without currency', body: { ...lc.base, productValue: value, provider: lc.provider }, skipped: true },
      { label: 'provider with currency USD', body: { ...lc.base, productValue: value, currency: 'USD', provider: lc.provider }, skipped: false },
    ];
    for (const { label, body, skipped } of cases) {
      const extra = drawn(ctx, NON_USD_ID, body);
      const exchange = await quote(ctx, tenant.client, lc, body);
      const result = served(ctx, tenant, exchange, label, extra);
      if (!result) continue;
      if (skipped && result.providerSkipReason !== 'non_usd_corridor') {
        ctx.fail('provider-skip-reason', `${label}: providerSkipReason is ${shown(result.providerSkipReason)}, not non_usd_corridor (spec 4.6 rule 2)`, exchange, extra);
      }
      if (!skipped && result.providerSkipReason === 'non_usd_corridor') {
        ctx.fail('provider-skip-reason', `${label}: providerSkipReason is non_usd_corridor, but the comparison runs when currency is USD (spec 4.6 rule 2)`, exchange, extra);
      }
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Rule 3.

const DE_MINIMIS_ID = 'landed-cost.de-minimis-currency-mismatch';

/** Threshold currency per destination (reference thresholds: US USD 800, CA CAD, UK GBP 135, EU EUR 150, AU AUD 1000). */
const THRESHOLD_CURRENCY: Record<string, string> = { US: 'USD', CA: 'CAD', GB: 'GBP', DE: 'EUR', FR: 'EUR', AU: 'AUD' };

// Spec 4.6 rule 3: with `currency`, the destination's de minimis threshold is evaluated, and a currency other
// than the threshold's gives `deMinimis.skipped: currency_mismatch`; without `currency` it is skipped.
export const deMinimisCurrencyMismatch = defineCheck({
  id: DE_MINIMIS_ID,
  title: 'De minimis is skipped with currency_mismatch for a foreign currency and not evaluated without one',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: de minimis');
    const destinations = Object.keys(THRESHOLD_CURRENCY).filter((d) => d !== lc.base.originCountry);
    const destinationCountry = seeded(fc.constantFrom(...destinations), ctx.seed, 4);
    const local = THRESHOLD_CURRENCY[destinationCountry];
    const foreign = seeded(fc.constantFrom(...new Set(Object.values(THRESHOLD_CURRENCY).filter((c) => c !== local))), ctx.seed, 5);
    const base = { ...lc.base, destinationCountry, productValue: productValue(ctx, 6) };

    const mismatch = { ...base, currency: foreign };
    let extra = drawn(ctx, DE_MINIMIS_ID, mismatch);
    let exchange = await quote(ctx, tenant.client, lc, mismatch);
    let result = served(ctx, tenant, exchange, `destination ${destinationCountry} quoted in ${foreign}`, extra);
    if (result && result.deMinimis?.skipped !== 'currency_mismatch') {
      ctx.fail('de-minimis-currency-mismatch', `destination ${destinationCountry} (threshold in ${local}) quoted in ${foreign}: deMinimis is ${shown(result.deMinimis)}, not skipped: currency_mismatch (spec 4.6 rule 3)`, exchange, extra);
    }

    const matching = { ...base, currency: local };
    extra = drawn(ctx, DE_MINIMIS_ID, matching);
    exchange = await quote(ctx, tenant.client, lc, matching);
    result = served(ctx, tenant, exchange, `destination ${destinationCountry} quoted in ${local}`, extra);
    if (result && (!isObject(result.deMinimis as Json) || result.deMinimis?.skipped === 'currency_mismatch')) {
      ctx.fail('de-minimis-evaluated', `destination ${destinationCountry} quoted in its threshold currency ${local}: deMinimis is ${shown(result.deMinimis)}; with currency the threshold is evaluated (spec 4.6 rule 3)`, exchange, extra);
    }

    extra = drawn(ctx, DE_MINIMIS_ID, base);
    exchange = await quote(ctx, tenant.client, lc, base);
    result = served(ctx, tenant, exchange, `destination ${destinationCountry} without currency`, extra);
    // "Without it they are skipped": no de minimis result, or one that says it was skipped.
    const deMinimis = result?.deMinimis;
    const notEvaluated = deMinimis === undefined || deMinimis === null || (typeof deMinimis.skipped === 'string' && deMinimis.skipped !== '');
    if (result && !notEvaluated) {
      ctx.fail('de-minimis-without-currency', `destination ${destinationCountry} without currency: deMinimis is ${shown(deMinimis)}, evaluated although thresholds are skipped without currency (spec 4.6 rule 3)`, exchange, extra);
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Rule 4.

const TRUST_ID = 'landed-cost.eu-trust-gate';
const EU_MEMBERS = ['DE', 'FR', 'NL', 'IT', 'ES', 'BE', 'IE', 'AT', 'PL', 'SE'];
/** Spec 4.6 rule 4: the low-value boundary. */
const EU_LOW_VALUE_EUR = 150;

// Spec 4.6 rule 4: for EU destinations, EUR values at or below 150 EUR give `trust.level: indicative`, and
// non-EUR currencies give `trust.level: undetermined`. The boundary itself is always among the values.
export const euTrustGate = defineCheck({
  id: TRUST_ID,
  title: 'EU quotes report trust indicative for EUR values up to 150 and undetermined for other currencies',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: EU trust gate');
    const destinationCountry = seeded(fc.constantFrom(...EU_MEMBERS.filter((d) => d !== lc.base.originCountry)), ctx.seed, 7);
    const low = seeded(fc.integer({ min: 1, max: EU_LOW_VALUE_EUR - 1 }), ctx.seed, 8);
    const other = seeded(fc.constantFrom('USD', 'GBP', 'CAD', 'CHF', 'JPY'), ctx.seed, 9);
    const cases = [
      { body: { ...lc.base, destinationCountry, productValue: low, currency: 'EUR' }, level: 'indicative' },
      { body: { ...lc.base, destinationCountry, productValue: EU_LOW_VALUE_EUR, currency: 'EUR' }, level: 'indicative' },
      { body: { ...lc.base, destinationCountry, productValue: low, currency: other }, level: 'undetermined' },
    ];
    for (const { body, level } of cases) {
      const extra = drawn(ctx, TRUST_ID, body);
      const label = `${destinationCountry} at ${body.productValue} ${body.currency}`;
      const exchange = await quote(ctx, tenant.client, lc, body);
      const result = served(ctx, tenant, exchange, label, extra);
      if (result && result.trust?.level !== level) {
        ctx.fail('eu-trust-gate', `${label}: trust is ${shown(result.trust)}, not level ${level} (spec 4.6 rule 4)`, exchange, extra);
      }
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Rule 5.

const CORRIDOR_ID = 'landed-cost.unconfigured-corridor';
/** Destinations the spec names an authority source for (rule 6: US/default, Canada, UK, EU member states). */
const CORRIDOR_DESTINATIONS = ['CA', 'US', 'GB', 'DE', 'FR'];
const CORRIDOR_ORIGINS = ['CN', 'VN', 'IN', 'MX', 'TR', 'US', 'CA', 'GB', 'DE'];

// Spec 4.6 rule 5: a tenant with quote-corridor rows resolves the corridor by exact (origin, destination)
// match, then wildcard origin with the destination; with no enabled match the 200 is the business outcome
// { authority: internal, status: unconfigured_corridor, breakdown: null, reason: no_enabled_matching_corridor,
// metadata: { policyMode: configured, originCountry, destinationCountry, corridorConfigured: false } }.
// Corridors are set through the control API (simulator profile): one enabled wildcard-origin row, and a
// disabled exact row for the pair that must stay unconfigured.
export const unconfiguredCorridor = defineCheck({
  id: CORRIDOR_ID,
  title: 'A corridor without an enabled match answers the unconfigured_corridor outcome; a wildcard origin matches',
  area: 'landed-cost',
  needs: ['admin', 'writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: corridors');
    const [configured, unmatchedDestination, unmatchedOrigin, wildcardOrigin] = seeded(
      fc
        .tuple(fc.constantFrom(...CORRIDOR_DESTINATIONS), fc.constantFrom(...CORRIDOR_DESTINATIONS), fc.constantFrom(...CORRIDOR_ORIGINS), fc.constantFrom(...CORRIDOR_ORIGINS))
        .filter(([d, u, o, w]) => u !== d && o !== u && w !== d),
      ctx.seed,
      10,
    );
    const corridors = [
      { originCountry: '*', destinationCountry: configured, enabled: true },
      { originCountry: unmatchedOrigin, destinationCountry: unmatchedDestination, enabled: false },
    ];
    await ctx.admin!.updateSettings(tenant.tenantId!, { quoteCorridors: corridors });

    const body = { ...lc.base, originCountry: unmatchedOrigin, destinationCountry: unmatchedDestination, productValue: productValue(ctx, 11) };
    let extra = drawn(ctx, CORRIDOR_ID, { quoteCorridors: corridors, request: body });
    let exchange = await quote(ctx, tenant.client, lc, body);
    if (isRateLimited(exchange)) ctx.skip('the request was still rate limited after waiting as the 429 asked');
    if (exchange.response.status !== 200) {
      ctx.fail('unconfigured-corridor', `${unmatchedOrigin} -> ${unmatchedDestination} with no enabled matching corridor answered ${describe(exchange)}, not 200 with the business outcome (spec 4.6 rule 5)`, exchange, extra);
    } else {
      const result = exchange.response.body as QuoteResult;
      const metadata = isObject(result.metadata as Json) ? (result.metadata as Record<string, unknown>) : undefined;
      const expected: Array<[string, unknown, unknown]> = [
        ['status', result.status, 'unconfigured_corridor'],
        ['authority', result.authority, 'internal'],
        ['breakdown', result.breakdown, null],
        ['reason', result.reason, 'no_enabled_matching_corridor'],
        ['metadata.policyMode', metadata?.policyMode, 'configured'],
        ['metadata.originCountry', metadata?.originCountry, unmatchedOrigin],
        ['metadata.destinationCountry', metadata?.destinationCountry, unmatchedDestination],
        ['metadata.corridorConfigured', metadata?.corridorConfigured, false],
      ];
      const wrong = expected.filter(([, got, want]) => got !== want).map(([name, got, want]) => `${name} is ${shown(got)}, not ${JSON.stringify(want)}`);
      if (wrong.length) ctx.fail('unconfigured-corridor', `${unmatchedOrigin} -> ${unmatchedDestination} with no enabled matching corridor: ${wrong.join('; ')} (spec 4.6 rule 5)`, exchange, extra);
    }

    const matched = { ...lc.base, originCountry: wildcardOrigin, destinationCountry: configured, productValue: productValue(ctx, 12) };
    extra = drawn(ctx, CORRIDOR_ID, { quoteCorridors: corridors, request: matched });
    exchange = await quote(ctx, tenant.client, lc, matched);
    if (isRateLimited(exchange)) ctx.skip('the request was still rate limited after waiting as the 429 asked');
    const status = (exchange.response.body as QuoteResult | null)?.status;
    if (exchange.response.status !== 200 || status === 'unconfigured_corridor') {
      ctx.fail('corridor-wildcard-origin', `${wildcardOrigin} -> ${configured} answered ${describe(exchange)} with status ${shown(status)}, though the enabled corridor * -> ${configured} matches it by wildcard origin (spec 4.6 rule 5)`, exchange, extra);
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Rule 7.

const ALIAS_ID = 'landed-cost.legacy-alias-hint';

/** A value of the canonical field's kind for an alias (aliases are never validated; the value is dropped). */
function aliasValue(canonical: string, base: LandedCost['base']): unknown {
  if (canonical === 'currency') return 'USD';
  if (canonical === 'originCountry') return base.originCountry;
  if (canonical === 'destinationCountry') return base.destinationCountry;
  return 25;
}

/** The entries of an X-Deprecation-Hint header (semicolon-separated, spec 4.6 rule 7). */
const hintEntries = (exchange: Exchange) =>
  (exchange.response.headers['x-deprecation-hint'] ?? '')
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean);

// Spec 4.6 rule 7, 9.4: an alias without its canonical field is detected, not rejected: 200 with
// X-Deprecation-Hint carrying `use 'canonical' not 'alias'`. An alias alongside its canonical field is not
// flagged. The aliases are the contract's (`x-alias-of`).
export const legacyAliasHint = defineCheck({
  id: ALIAS_ID,
  title: 'A legacy alias without its canonical field is served with an X-Deprecation-Hint; beside it, not flagged',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const optional = lc.aliases.filter((a) => !lc.required.includes(a.canonical));
    if (!optional.length) ctx.skip(`contract ${ctx.contract.version} declares no legacy alias of an optional landed-cost field (x-alias-of)`);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: legacy aliases');
    const alone = seeded(fc.constantFrom(...optional), ctx.seed, 13);
    const beside = seeded(fc.constantFrom(...lc.aliases), ctx.seed, 14);
    const value = productValue(ctx, 15);

    // The canonical fields the base request carries keep it valid; the alias's own canonical is left out.
    const withAlias: Record<string, unknown> = { ...lc.base, productValue: value, [alone.alias]: aliasValue(alone.canonical, lc.base) };
    let extra = drawn(ctx, ALIAS_ID, withAlias);
    let exchange = await quote(ctx, tenant.client, lc, withAlias);
    if (isRateLimited(exchange)) ctx.skip('the request was still rate limited after waiting as the 429 asked');
    const entry = `use '${alone.canonical}' not '${alone.alias}'`;
    if (exchange.response.status !== 200) {
      ctx.fail('legacy-alias-accepted', `a request with ${alone.alias} instead of ${alone.canonical} answered ${describe(exchange)}, not 200: aliases are detected, not rejected (spec 4.6 rule 7)`, exchange, extra);
    } else if (!hintEntries(exchange).includes(entry)) {
      ctx.fail('legacy-alias-hint', `a request with ${alone.alias} instead of ${alone.canonical}: X-Deprecation-Hint is ${JSON.stringify(exchange.response.headers['x-deprecation-hint'] ?? null)}, without the entry "${entry}" (spec 4.6 rule 7)`, exchange, extra);
    }

    const both: Record<string, unknown> = { ...lc.base, productValue: value, [beside.canonical]: beside.canonical in lc.base ? (lc.base as Record<string, unknown>)[beside.canonical] : aliasValue(beside.canonical, lc.base), [beside.alias]: aliasValue(beside.canonical, lc.base) };
    extra = drawn(ctx, ALIAS_ID, both);
    exchange = await quote(ctx, tenant.client, lc, both);
    if (isRateLimited(exchange)) ctx.skip('the request was still rate limited after waiting as the 429 asked');
    if (exchange.response.status !== 200) {
      ctx.fail('legacy-alias-accepted', `a request with ${beside.alias} beside ${beside.canonical} answered ${describe(exchange)}, not 200: aliases are never rejected (spec 4.6 rule 7)`, exchange, extra);
    } else {
      const flagged = hintEntries(exchange).filter((e) => e.endsWith(`not '${beside.alias}'`));
      if (flagged.length) ctx.fail('legacy-alias-not-flagged', `a request with ${beside.alias} beside its canonical ${beside.canonical} was flagged: X-Deprecation-Hint "${flagged.join('; ')}" (spec 4.6 rule 7: an alias alongside its canonical field is not flagged)`, exchange, extra);
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Spec 5.3.

const LEGACY_PAIR_ID = 'landed-cost.legacy-pair-off-by-default';

// Spec 5.3 (decision 3): the legacy pair x-api-key + x-org-id works only with ALLOW_API_KEY_FALLBACK on, and
// it should stay disabled for public use. A deployment may enable it, so only the simulator profile, whose
// default is off, asserts that a valid pair without a bearer is 401.
export const legacyPairOffByDefault = defineCheck({
  id: LEGACY_PAIR_ID,
  title: 'Landed cost refuses the legacy x-api-key + x-org-id pair without a bearer (fallback off by default)',
  area: 'landed-cost',
  needs: [],
  async run(ctx) {
    if (ctx.options.profile !== 'simulator' || !ctx.admin) {
      ctx.skip('spec 5.3: ALLOW_API_KEY_FALLBACK is a server setting a deployment may enable; only the simulator profile (its default is off, with --admin-token) knows it is off');
    }
    const lc = landedCost(ctx);
    const tenant = await ctx.admin!.createTenant({ name: 'Conformance landed cost: legacy pair' });
    const exchange = await ctx.client.call('POST', lc.op.path, { auth: { apiKey: tenant.integrationKey, orgId: tenant.tenantId }, json: { ...lc.base } });
    if (exchange.response.status !== 401) {
      ctx.fail('legacy-pair-disabled', `a valid x-api-key + x-org-id pair without a bearer answered ${describe(exchange)}, not 401: the compatibility fallback should stay disabled (spec 5.3; the simulator's default is off)`, exchange);
    }
  },
});

export const landedCostChecks: Check[] = [
  providerWithQuantityRejected,
  nonUsdSkipsProvider,
  deMinimisCurrencyMismatch,
  euTrustGate,
  unconfiguredCorridor,
  legacyAliasHint,
  legacyPairOffByDefault,
];
