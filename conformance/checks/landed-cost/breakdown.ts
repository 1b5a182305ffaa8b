// The breakdown of an authoritative quote: its parts add up to its total in the request's currency, and
// an ad valorem duty is its rate on the customs value the breakdown reports. Spec 4.6 rule 8 leaves the
// breakdown's contents to the deployment (the contract marks them sandbox-defined), so only the simulator
// profile asserts them.
import fc from 'fast-check';
import { isObject, type Json } from '../../../contracts/lib/bundle.js';
import { defineCheck } from '../../harness/check.js';
import { seeded } from '../jobs-support.js';
import { landedCost, productValue, quoteSender, quoteTenant, served, shown } from './quote.js';

const BREAKDOWN_ID = 'landed-cost.breakdown-consistent';

/** Destinations with their threshold currency; values are drawn above every low-value threshold (EUR 150, GBP 135, CAD 150). */
const CIF_DESTINATIONS: Array<[string, string]> = [['GB', 'GBP'], ['DE', 'EUR'], ['FR', 'EUR'], ['NL', 'EUR']];
const FOB_DESTINATIONS: Array<[string, string]> = [['US', 'USD'], ['CA', 'CAD']];

const cents = (n: number) => Math.round(n * 100);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const breakdownConsistent = defineCheck({
  id: BREAKDOWN_ID,
  title: 'A breakdown adds up to its total in the request currency, its duty its rate on the customs value it reports',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    if (ctx.options.profile !== 'simulator') ctx.skip("the breakdown's contents are sandbox-defined (spec 4.6 rule 8): only the simulator profile asserts them");
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: breakdown');
    const send = quoteSender(ctx, lc, tenant, BREAKDOWN_ID);
    const cif = seeded(fc.constantFrom(...CIF_DESTINATIONS), ctx.seed, 20);
    const fob = seeded(fc.constantFrom(...FOB_DESTINATIONS), ctx.seed, 21);
    const costs = seeded(fc.tuple(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 1, max: 10_000 })), ctx.seed, 22).map((c) => c / 100);
    const originCountry = [cif[0], fob[0]].includes(lc.base.originCountry) ? 'CN' : lc.base.originCountry;
    for (const [destinationCountry, currency] of [cif, fob]) {
      const body = { ...lc.base, originCountry, destinationCountry, currency, productValue: 200 + productValue(ctx, 23), shippingCost: costs[0], insurance: costs[1] };
      const label = `${destinationCountry} in ${currency}`;
      const sent = await send({ body, what: label });
      const result = served(ctx, tenant, sent);
      if (!result || result.status !== 'authoritative') continue;
      if (!isObject(result.breakdown as Json)) {
        ctx.fail('breakdown-adds-up', `${label}: an authoritative quote without a breakdown (${shown(result.breakdown)})`, sent.exchange, sent.extra);
        continue;
      }
      const b = result.breakdown as Record<string, unknown>;
      if (b.currency !== currency) ctx.fail('breakdown-currency', `${label}: the breakdown is in ${shown(b.currency)}, not the request's ${currency}`, sent.exchange, sent.extra);
      const parts = ['productValue', 'shippingCost', 'insurance', 'dutyAmount', 'taxAmount', 'feesAmount'].filter((k) => k in b);
      const sum = parts.reduce((total, k) => total + cents(num(b[k]) ?? NaN), 0);
      const total = num(b.totalLandedCost);
      if (total === undefined || sum !== cents(total)) {
        ctx.fail('breakdown-adds-up', `${label}: ${parts.map((k) => `${k} ${shown(b[k])}`).join(' + ')} = ${sum / 100}, but totalLandedCost is ${shown(b.totalLandedCost)}`, sent.exchange, sent.extra);
      }
      const customsValue = num(b.customsValue);
      if (customsValue === undefined) continue;
      const expected = b.customsValueBasis === 'CIF' ? body.productValue + body.shippingCost + body.insurance : b.customsValueBasis === 'FOB' ? body.productValue : undefined;
      if (expected === undefined || cents(expected) !== cents(customsValue)) {
        ctx.fail('customs-value-basis', `${label}: customsValue ${customsValue} on basis ${shown(b.customsValueBasis)}; product ${body.productValue}, shipping ${body.shippingCost}, insurance ${body.insurance} make ${expected ?? '?'}`, sent.exchange, sent.extra);
      }
      const rate = num(b.dutyRate);
      if (rate !== undefined && b.dutyBasis === 'customs_value' && Math.abs(cents(rate * customsValue) - cents(num(b.dutyAmount) ?? NaN)) > 1) {
        ctx.fail('duty-on-customs-value', `${label}: dutyAmount ${shown(b.dutyAmount)} is not dutyRate ${rate} x customsValue ${customsValue} (${b.customsValueBasis}) = ${Math.round(rate * customsValue * 100) / 100}`, sent.exchange, sent.extra);
      }
    }
  },
});
