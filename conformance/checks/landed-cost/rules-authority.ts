// Spec 4.6 rule 6: the authority source follows the destination, and an unsupported quantity-aware duty
// expression is rate_not_available with metadata.unsupportedExpression.
import fc from 'fast-check';
import { isObject, type Json, type JsonObject } from '../../../contracts/lib/bundle.js';
import { deref } from '../../../contracts/lib/operations.js';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { seeded } from '../jobs-support.js';
import { landedCost, productValue, quoteSender, quoteTenant, served, shown, type LandedCost, type QuoteResult } from './quote.js';

// ---------------------------------------------------------------------------------------------------------
// Source codes.

const AUTHORITY_ID = 'landed-cost.authority-follows-destination';
const EU_MEMBERS = ['DE', 'FR', 'NL', 'IT', 'ES', 'BE', 'IE', 'AT', 'PL', 'SE'];

// Spec 4.6 rule 6: separate source codes for US/default, Canada, UK and EU member states, and "for Canada
// the authoritative result reports metadata.sourceCode with the Canada-specific code". The values are the
// deployment's (the contract names the sandbox's); what holds everywhere: each of the four has a code, the
// four differ, and two EU members share theirs.
export const authorityFollowsDestination = defineCheck({
  id: AUTHORITY_ID,
  title: 'metadata.sourceCode follows the destination: one each for US, Canada, UK and the EU members',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: authority source');
    const send = quoteSender(ctx, lc, tenant, AUTHORITY_ID);
    const [eu, otherEu] = seeded(fc.uniqueArray(fc.constantFrom(...EU_MEMBERS), { minLength: 2, maxLength: 2 }), ctx.seed, 16);
    const destinations: Array<[string, string]> = [['US', 'US'], ['Canada', 'CA'], ['UK', 'GB'], ['EU', eu], ['EU', otherEu]];
    const originCountry = destinations.some(([, d]) => d === lc.base.originCountry) ? 'CN' : lc.base.originCountry;
    const codes: Array<{ group: string; destination: string; code: unknown; exchange: Exchange; extra: object }> = [];
    for (const [group, destinationCountry] of destinations) {
      const sent = await send({ body: { ...lc.base, originCountry, destinationCountry, productValue: productValue(ctx, 17) }, what: `a quote into ${destinationCountry}` });
      const result = served(ctx, tenant, sent);
      if (!result) return;
      const code = result.metadata?.sourceCode;
      if (typeof code !== 'string' || !code) {
        ctx.fail('authority-source-code', `a quote into ${destinationCountry}: metadata.sourceCode is ${shown(code)}; the authority source follows the destination (spec 4.6 rule 6)`, sent.exchange, sent.extra);
        return;
      }
      codes.push({ group, destination: destinationCountry, code, exchange: sent.exchange, extra: sent.extra });
    }
    const [us, ca, uk, eu1, eu2] = codes;
    if (eu1.code !== eu2.code) {
      ctx.fail('authority-source-code', `EU members ${eu1.destination} and ${eu2.destination} report sourceCode ${shown(eu1.code)} and ${shown(eu2.code)}: EU member states share one source (spec 4.6 rule 6)`, eu2.exchange, eu2.extra);
    }
    for (const [a, b] of [[ca, us], [ca, uk], [ca, eu1], [us, uk], [us, eu1], [uk, eu1]]) {
      if (a.code === b.code) {
        ctx.fail('authority-source-code', `${a.group} (${a.destination}) and ${b.group} (${b.destination}) both report sourceCode ${shown(a.code)}: each has its own source${a.group === 'Canada' ? ', Canada the Canada-specific code' : ''} (spec 4.6 rule 6)`, a.exchange, a.extra);
      }
    }
  },
});

// ---------------------------------------------------------------------------------------------------------
// Unsupported expressions.

const UNSUPPORTED_ID = 'landed-cost.unsupported-expression';

/** The request unit a duty expression is stated per (`$2.01/kg` is per KGM), else the first the contract offers. */
function unitOf(expression: string, lc: LandedCost): string {
  const unit = /\/\s*kg|\bkg\b|KGM/i.test(expression) ? 'KGM' : /liter|litre|\bhl\b|HLT|LTR/i.test(expression) ? 'LTR' : /tonne|TNE/i.test(expression) ? 'TNE' : /doz|DZN/i.test(expression) ? 'DZN' : lc.units[0];
  return lc.units.includes(unit) ? unit : lc.units[0];
}

/** The contract's example of an unsupported expression: its corridor, HS code (from the summary) and expression. */
function documentedUnsupported(ctx: CheckContext, lc: LandedCost): { hsCode: string; originCountry: string; destinationCountry: string; expression: string; currency?: string } | undefined {
  const doc = ctx.contract.doc;
  const responses = isObject(lc.op.operation.responses) ? lc.op.operation.responses : {};
  const ok = deref(doc, responses['200'] ?? null);
  const media = isObject(ok) && isObject(ok.content) ? ok.content['application/json'] : undefined;
  const examples = isObject(media) && isObject(media.examples) ? media.examples : {};
  for (const raw of Object.values(examples)) {
    const example = deref(doc, raw as Json);
    if (!isObject(example) || !isObject(example.value)) continue;
    const value = example.value as JsonObject;
    const metadata = isObject(value.metadata) ? value.metadata : {};
    if (value.status !== 'rate_not_available' || metadata.unsupportedExpression !== true) continue;
    const hsCode = /\b(\d{4}(?:\.\d{2}){1,3})\b/.exec(String(example.summary ?? ''))?.[1];
    if (!hsCode || typeof metadata.originCountry !== 'string' || typeof metadata.destinationCountry !== 'string') continue;
    const currency = isObject(value.deMinimis) && typeof value.deMinimis.currency === 'string' ? value.deMinimis.currency : undefined;
    return { hsCode, originCountry: metadata.originCountry, destinationCountry: metadata.destinationCountry, expression: String(metadata.dutyExpression ?? ''), currency };
  }
  return undefined;
}

// Spec 4.6 rule 6: "unsupported quantity-aware duty expressions return status: rate_not_available with
// metadata.unsupportedExpression: true". Which expressions a deployment computes is its own: the check
// quotes the one the contract documents as unsupported (its rate_not_available example), with a customs
// quantity in the expression's unit. A deployment that computes it is skipped outside the simulator
// profile; a rate_not_available without the flag fails everywhere.
export const unsupportedExpression = defineCheck({
  id: UNSUPPORTED_ID,
  title: 'An unsupported quantity-aware duty expression answers rate_not_available with metadata.unsupportedExpression',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const documented = documentedUnsupported(ctx, lc);
    if (!documented) return ctx.skip(`contract ${ctx.contract.version} documents no unsupported duty expression (a rate_not_available example with metadata.unsupportedExpression and an HS code in its summary)`);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: unsupported expression');
    const send = quoteSender(ctx, lc, tenant, UNSUPPORTED_ID);
    const quantity = seeded(fc.integer({ min: 1, max: 20_000 }), ctx.seed, 18);
    const body = {
      productValue: productValue(ctx, 19, 50_000),
      hsCode: documented.hsCode,
      originCountry: documented.originCountry,
      destinationCountry: documented.destinationCountry,
      ...(documented.currency ? { currency: documented.currency } : {}),
      quantity,
      quantityUnit: unitOf(documented.expression, lc),
    };
    const label = `${documented.hsCode} from ${documented.originCountry} into ${documented.destinationCountry} (${documented.expression || 'the documented expression'})`;
    const sent = await send({ body, what: label });
    const result: QuoteResult | undefined = served(ctx, tenant, sent);
    if (!result) return;
    const flag = result.metadata?.unsupportedExpression;
    if (result.status === 'rate_not_available') {
      if (flag !== true) ctx.fail('unsupported-expression', `${label}: rate_not_available with metadata.unsupportedExpression ${shown(flag)}, not true (spec 4.6 rule 6)`, sent.exchange, sent.extra);
      if (result.breakdown !== null && result.breakdown !== undefined) ctx.fail('unsupported-expression', `${label}: rate_not_available with a breakdown ${shown(result.breakdown)}`, sent.exchange, sent.extra);
      return;
    }
    if (ctx.options.profile !== 'simulator') ctx.skip(`${label} was quoted ${shown(result.status)}: this deployment computes the expression the contract documents as unsupported`);
    ctx.fail('unsupported-expression', `${label}: status ${shown(result.status)} with unsupportedExpression ${shown(flag)}; the contract documents this expression as unsupported: rate_not_available with metadata.unsupportedExpression: true (spec 4.6 rule 6)`, sent.exchange, sent.extra);
  },
});
