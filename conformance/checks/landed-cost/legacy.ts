// Legacy inputs: spec 4.6 rule 7 (legacy field aliases and X-Deprecation-Hint) and spec 5.3 (the legacy
// x-api-key + x-org-id pair).
import fc from 'fast-check';
import { defineCheck } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { seeded } from '../jobs-support.js';
import { describe, landedCost, productValue, quoteSender, quoteTenant, shown, type LandedCost } from './quote.js';

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

/** The fields of a quote's result its inputs decide (spec 4.6: status, rules 2-4, and the breakdown). */
const QUOTED_FIELDS = ['status', 'breakdown', 'providerSkipReason', 'deMinimis', 'trust'] as const;

/** The quoted fields on which two answers differ, by name (JSON comparison; an absent field is `undefined`). */
function differingFields(a: Exchange, b: Exchange, among: readonly string[]): string[] {
  const field = (exchange: Exchange, name: string) => JSON.stringify((exchange.response.body as Record<string, unknown> | null)?.[name]);
  return among.filter((name) => field(a, name) !== field(b, name));
}

// Spec 4.6 rule 7, 9.4: an alias without its canonical field is detected, not rejected: 200 with
// X-Deprecation-Hint carrying `use 'canonical' not 'alias'`, and its value is dropped (the canonical default
// applies), so the quote is the one of the same request without the alias. An alias alongside its canonical
// field is not flagged. The aliases are the contract's (`x-alias-of`).
export const legacyAliasHint = defineCheck({
  id: ALIAS_ID,
  title: 'A legacy alias without its canonical field is served with an X-Deprecation-Hint and its value dropped; beside it, not flagged',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const optional = lc.aliases.filter((a) => !lc.required.includes(a.canonical));
    if (!optional.length) ctx.skip(`contract ${ctx.contract.version} declares no legacy alias of an optional landed-cost field (x-alias-of)`);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: legacy aliases');
    const send = quoteSender(ctx, lc, tenant, ALIAS_ID);
    const alone = seeded(fc.constantFrom(...optional), ctx.seed, 13);
    const beside = seeded(fc.constantFrom(...lc.aliases), ctx.seed, 14);
    const value = productValue(ctx, 15);

    // The canonical fields the base request carries keep it valid; the alias's own canonical is left out.
    const withAlias: Record<string, unknown> = { ...lc.base, productValue: value, [alone.alias]: aliasValue(alone.canonical, lc.base) };
    let { exchange, extra } = await send({ body: withAlias });
    const entry = `use '${alone.canonical}' not '${alone.alias}'`;
    if (exchange.response.status !== 200) {
      ctx.fail('legacy-alias-accepted', `a request with ${alone.alias} instead of ${alone.canonical} answered ${describe(exchange)}, not 200: aliases are detected, not rejected (spec 4.6 rule 7)`, exchange, extra);
    } else {
      if (!hintEntries(exchange).includes(entry)) {
        ctx.fail('legacy-alias-hint', `a request with ${alone.alias} instead of ${alone.canonical}: X-Deprecation-Hint is ${JSON.stringify(exchange.response.headers['x-deprecation-hint'] ?? null)}, without the entry "${entry}" (spec 4.6 rule 7)`, exchange, extra);
      }
      // The request without the alias, sent twice: a field on which those two differ varies from call to call
      // and says nothing about the alias.
      const withoutAlias = { ...lc.base, productValue: value };
      const first = await send({ body: withoutAlias, what: 'the request without the alias' });
      const second = await send({ body: withoutAlias, what: 'the request without the alias' });
      const unserved = [first, second].find((sent) => sent.exchange.response.status !== 200);
      if (unserved) {
        ctx.fail('landed-cost-served', `${unserved.what} answered ${describe(unserved.exchange)}, not 200 (spec 4.6)`, unserved.exchange, unserved.extra);
      } else {
        const stable = QUOTED_FIELDS.filter((name) => !differingFields(first.exchange, second.exchange, [name]).length);
        const kept = differingFields(exchange, first.exchange, stable);
        if (kept.length) {
          const body = (e: Exchange) => e.response.body as Record<string, unknown>;
          const seen = kept.map((name) => `${name} ${shown(body(exchange)[name])} instead of ${shown(body(first.exchange)[name])}`).join('; ');
          ctx.fail('legacy-alias-value-dropped', `a request with ${alone.alias}: ${JSON.stringify(withAlias[alone.alias])} instead of ${alone.canonical} was not quoted as the same request without the alias: ${seen}; the aliased value is dropped and the canonical default applies (spec 4.6 rule 7)`, exchange, extra);
        }
      }
    }

    const both: Record<string, unknown> = { ...lc.base, productValue: value, [beside.canonical]: beside.canonical in lc.base ? (lc.base as Record<string, unknown>)[beside.canonical] : aliasValue(beside.canonical, lc.base), [beside.alias]: aliasValue(beside.canonical, lc.base) };
    ({ exchange, extra } = await send({ body: both }));
    if (exchange.response.status !== 200) {
      ctx.fail('legacy-alias-accepted', `a request with ${beside.alias} beside ${beside.canonical} answered ${describe(exchange)}, not 200: aliases are never rejected (spec 4.6 rule 7)`, exchange, extra);
    } else {
      const flagged = hintEntries(exchange).filter((e) => e.endsWith(`not '${beside.alias}'`));
      if (flagged.length) ctx.fail('legacy-alias-not-flagged', `a request with ${beside.alias} beside its canonical ${beside.canonical} was flagged: X-Deprecation-Hint "${flagged.join('; ')}" (spec 4.6 rule 7: an alias alongside its canonical field is not flagged)`, exchange, extra);
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Rule 7, the header's format.

const HINT_FORMAT_ID = 'landed-cost.deprecation-hint-format';
/** One entry of X-Deprecation-Hint exactly as spec 4.6 rule 7 writes it: use 'canonical' not 'alias'. */
const HINT_ENTRY = /^use '([^']+)' not '([^']+)'$/;

// Spec 4.6 rule 7: X-Deprecation-Hint is "semicolon-separated entries of the form use 'canonical' not
// 'alias'", one for each alias present without its canonical field. Two such aliases (of two optional
// fields) in one request: every entry of the header is of exactly that form, and the entries name exactly
// those two aliases with their canonicals. Without any alias the header names none. Whitespace around a
// semicolon, and an empty entry after a trailing one, are not the rule's concern.
export const deprecationHintFormat = defineCheck({
  id: HINT_FORMAT_ID,
  title: "X-Deprecation-Hint is semicolon-separated entries use 'canonical' not 'alias', exactly one per lone alias",
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const optional = lc.aliases.filter((a) => !lc.required.includes(a.canonical));
    const canonicals = [...new Set(optional.map((a) => a.canonical))];
    if (canonicals.length < 2) ctx.skip(`contract ${ctx.contract.version} declares legacy aliases of fewer than two optional landed-cost fields (x-alias-of)`);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: deprecation hint format');
    const send = quoteSender(ctx, lc, tenant, HINT_FORMAT_ID);
    const [first, second] = seeded(fc.shuffledSubarray(canonicals, { minLength: 2, maxLength: 2 }), ctx.seed, 16);
    const pick = (canonical: string, index: number) => seeded(fc.constantFrom(...optional.filter((a) => a.canonical === canonical)), ctx.seed, index);
    const lone = [pick(first, 17), pick(second, 18)];
    const value = productValue(ctx, 19);
    const body: Record<string, unknown> = { ...lc.base, productValue: value };
    for (const a of lone) body[a.alias] = aliasValue(a.canonical, lc.base);

    const { exchange, extra } = await send({ body, what: `a request with ${lone.map((a) => a.alias).join(' and ')}` });
    if (exchange.response.status !== 200) return ctx.fail('legacy-alias-accepted', `a request with ${lone.map((a) => `${a.alias} instead of ${a.canonical}`).join(' and ')} answered ${describe(exchange)}, not 200: aliases are detected, not rejected (spec 4.6 rule 7)`, exchange, extra);
    const header = exchange.response.headers['x-deprecation-hint'];
    const entries = hintEntries(exchange);
    const malformed = entries.filter((e) => !HINT_ENTRY.test(e));
    const expected = lone.map((a) => `use '${a.canonical}' not '${a.alias}'`);
    if (malformed.length) {
      ctx.fail('deprecation-hint-format', `X-Deprecation-Hint is ${JSON.stringify(header ?? null)}: ${malformed.map((e) => JSON.stringify(e)).join(', ')} ${malformed.length === 1 ? 'is not an entry' : 'are not entries'} of the form use 'canonical' not 'alias', separated by semicolons (spec 4.6 rule 7); expected entries ${expected.map((e) => JSON.stringify(e)).join('; ')}`, exchange, extra);
    } else if (entries.length !== expected.length || !expected.every((e) => entries.includes(e))) {
      ctx.fail('deprecation-hint-entries', `a request with ${lone.map((a) => `${a.alias} instead of ${a.canonical}`).join(' and ')}: X-Deprecation-Hint is ${JSON.stringify(header ?? null)}, not exactly the entries ${expected.map((e) => JSON.stringify(e)).join('; ')}, one per alias present without its canonical field (spec 4.6 rule 7)`, exchange, extra);
    }

    const plain = await send({ body: { ...lc.base, productValue: value }, what: 'the request without aliases' });
    if (plain.exchange.response.status === 200 && hintEntries(plain.exchange).length) {
      ctx.fail('deprecation-hint-entries', `a request without any legacy alias answered X-Deprecation-Hint ${JSON.stringify(plain.exchange.response.headers['x-deprecation-hint'])}: the header reports aliases present without their canonical field (spec 4.6 rule 7)`, plain.exchange, plain.extra);
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
