// Spec 4.6 rule 3: the de minimis threshold, evaluated only with a currency, skipped on a foreign one.
import fc from 'fast-check';
import { isObject, type Json } from '../../../contracts/lib/bundle.js';
import { defineCheck } from '../../harness/check.js';
import { seeded } from '../jobs-support.js';
import { landedCost, productValue, quoteSender, quoteTenant, served, shown } from './quote.js';

const DE_MINIMIS_ID = 'landed-cost.de-minimis-currency-mismatch';

/** Every finite number anywhere in a value (the amounts of a structure the spec does not show). */
function amountsIn(value: unknown): number[] {
  if (typeof value === 'number' && Number.isFinite(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(amountsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(amountsIn);
  return [];
}

/** Threshold currency per destination (reference thresholds: US USD 800, CA CAD, UK GBP 135, EU EUR 150, AU AUD 1000). */
const THRESHOLD_CURRENCY: Record<string, string> = { US: 'USD', CA: 'CAD', GB: 'GBP', DE: 'EUR', FR: 'EUR', AU: 'AUD' };

// Spec 4.6 rule 3: with `currency`, the destination's de minimis threshold is evaluated, and a currency other
// than the threshold's gives `deMinimis.skipped: currency_mismatch` with no exemption; without `currency` it is
// skipped. `currency_mismatch` is the rule's word for a supplied currency that differs from the threshold's, so
// a quote without currency is never skipped as one. The mismatch's "no exemption" is read on `exempt`, a
// sandbox-defined field (contract LandedCostDeMinimis), in the simulator profile only. The mismatch still
// reports the threshold (rule 3: "no exemption, threshold still reported"): some amount in every profile (the
// structure is not shown, rule 8), and in the simulator profile the contract's `threshold` with its own
// `currency`, the one the evaluated quote reports and not the request's (a threshold is not converted).
export const deMinimisCurrencyMismatch = defineCheck({
  id: DE_MINIMIS_ID,
  title: 'De minimis is skipped with currency_mismatch for a foreign currency, its threshold still reported, and not evaluated without one',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: de minimis');
    const send = quoteSender(ctx, lc, tenant, DE_MINIMIS_ID);
    const destinations = Object.keys(THRESHOLD_CURRENCY).filter((d) => d !== lc.base.originCountry);
    const destinationCountry = seeded(fc.constantFrom(...destinations), ctx.seed, 4);
    const local = THRESHOLD_CURRENCY[destinationCountry];
    const foreign = seeded(fc.constantFrom(...new Set(Object.values(THRESHOLD_CURRENCY).filter((c) => c !== local))), ctx.seed, 5);
    const base = { ...lc.base, destinationCountry, productValue: productValue(ctx, 6) };

    let sent = await send({ body: { ...base, currency: foreign }, what: `destination ${destinationCountry} quoted in ${foreign}` });
    let result = served(ctx, tenant, sent);
    if (result && result.deMinimis?.skipped !== 'currency_mismatch') {
      ctx.fail('de-minimis-currency-mismatch', `destination ${destinationCountry} (threshold in ${local}) quoted in ${foreign}: deMinimis is ${shown(result.deMinimis)}, not skipped: currency_mismatch (spec 4.6 rule 3)`, sent.exchange, sent.extra);
    } else if (result && ctx.options.profile === 'simulator' && result.deMinimis?.exempt !== false) {
      ctx.fail('de-minimis-mismatch-not-exempt', `destination ${destinationCountry} (threshold in ${local}) quoted in ${foreign}: deMinimis is ${shown(result.deMinimis)}, not exempt: false; a currency mismatch gives no exemption (spec 4.6 rule 3)`, sent.exchange, sent.extra);
    }
    const mismatch = result?.deMinimis?.skipped === 'currency_mismatch' ? { deMinimis: result.deMinimis as Record<string, unknown>, sent } : undefined;
    if (mismatch && !amountsIn(mismatch.deMinimis).length) {
      ctx.fail('de-minimis-mismatch-threshold', `destination ${destinationCountry} (threshold in ${local}) quoted in ${foreign}: deMinimis is ${shown(mismatch.deMinimis)}, with no threshold amount: a currency mismatch still reports the threshold (spec 4.6 rule 3)`, sent.exchange, sent.extra);
    }

    sent = await send({ body: { ...base, currency: local }, what: `destination ${destinationCountry} quoted in ${local}` });
    result = served(ctx, tenant, sent);
    if (result && (!isObject(result.deMinimis as Json) || result.deMinimis?.skipped === 'currency_mismatch')) {
      ctx.fail('de-minimis-evaluated', `destination ${destinationCountry} quoted in its threshold currency ${local}: deMinimis is ${shown(result.deMinimis)}; with currency the threshold is evaluated (spec 4.6 rule 3)`, sent.exchange, sent.extra);
    } else if (result && mismatch && ctx.options.profile === 'simulator') {
      // The contract's LandedCostDeMinimis (sandbox-defined): `threshold` in the threshold's own `currency`.
      const evaluated = result.deMinimis as Record<string, unknown>;
      const m = mismatch.deMinimis;
      const ok = typeof m.threshold === 'number' && m.threshold > 0 && typeof m.currency === 'string' && m.currency === evaluated.currency && m.currency !== foreign;
      if (!ok) ctx.fail('de-minimis-mismatch-threshold', `destination ${destinationCountry} quoted in ${foreign}: deMinimis is ${shown(m)}; quoted in ${local} it reports ${shown(evaluated)}: a currency mismatch still reports the threshold, in the threshold's currency ${shown(evaluated.currency)}, not converted to ${foreign} (spec 4.6 rule 3; contract LandedCostDeMinimis)`, mismatch.sent.exchange, mismatch.sent.extra);
    }

    sent = await send({ body: base, what: `destination ${destinationCountry} without currency` });
    result = served(ctx, tenant, sent);
    // "Without it they are skipped": no de minimis result, or one that says it was skipped.
    const deMinimis = result?.deMinimis;
    const notEvaluated = deMinimis === undefined || deMinimis === null || (typeof deMinimis.skipped === 'string' && deMinimis.skipped !== '');
    if (result && !notEvaluated) {
      ctx.fail('de-minimis-without-currency', `destination ${destinationCountry} without currency: deMinimis is ${shown(deMinimis)}, evaluated although thresholds are skipped without currency (spec 4.6 rule 3)`, sent.exchange, sent.extra);
    } else if (result && deMinimis?.skipped === 'currency_mismatch') {
      ctx.fail('de-minimis-without-currency', `destination ${destinationCountry} without currency: deMinimis is ${shown(deMinimis)}; no currency was sent, so none differs from the threshold's: without currency the thresholds are skipped, not a currency_mismatch (spec 4.6 rule 3)`, sent.exchange, sent.extra);
    }
  },
});
