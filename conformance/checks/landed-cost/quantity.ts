// Spec 4.6 request field `quantity`: "total customs quantity for the shipment line matched to the HS code;
// kept as given, no rounding or unit conversion". The product is the contract's own quantity-aware example
// (a specific duty on a customs quantity), quoted at q, 2q and 3q for a q with a fraction of a unit: the
// quantity is the only input that changes, so a total kept on the quantity as given moves by the same
// amount from q to 2q as from 2q to 3q (whatever the rate, the fees and the taxes on the value, which do
// not change); a rounded quantity (q, 2q, 3q rounded to whole units are not evenly spaced) breaks that by a
// whole unit's duty. In the simulator profile also the contract's breakdown (sandbox-defined, rule 8):
// `quantity` and `quantityUnit` echo the request's, and a duty on the quantity is proportional to it.
import fc from 'fast-check';
import { isObject, type Json } from '../../../contracts/lib/bundle.js';
import { deref } from '../../../contracts/lib/operations.js';
import { defineCheck } from '../../harness/check.js';
import { seeded } from '../jobs-support.js';
import { landedCost, quoteSender, quoteTenant, served, shown } from './quote.js';

const QUANTITY_ID = 'landed-cost.quantity-kept';
const cents = (n: number) => Math.round(n * 100);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const quantityKept = defineCheck({
  id: QUANTITY_ID,
  title: 'A customs quantity is quoted as given: the total moves evenly with it, no rounding or unit conversion',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const body = deref(ctx.contract.doc, lc.op.operation.requestBody ?? null);
    const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
    const examples = isObject(media) && isObject(media.examples) ? Object.values(media.examples).map((e) => deref(ctx.contract.doc, e as Json)) : [];
    const found = examples.map((e) => (isObject(e) ? e.value : undefined)).find((v): v is Record<string, Json> => isObject(v) && typeof v.quantity === 'number' && typeof v.quantityUnit === 'string');
    if (!found) return ctx.skip(`contract ${ctx.contract.version} gives no landed-cost request example with a quantity`);
    const example: Record<string, Json> = found;
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: quantity kept');
    const send = quoteSender(ctx, lc, tenant, QUANTITY_ID);
    // q: the example's order of magnitude with a fraction of a unit that no rounding keeps (.13 to .87).
    const whole = Math.max(1, Math.floor(Number(example.quantity)));
    const q = whole + seeded(fc.integer({ min: 13, max: 87 }), ctx.seed, 30) / 100;
    const request = (quantity: number) => {
      const { provider: _provider, ...rest } = example;
      return { ...rest, quantity: Math.round(quantity * 100) / 100 };
    };
    const quotes = [];
    for (const k of [1, 2, 3]) {
      const sent = await send({ body: request(k * q), what: `${shown(example.hsCode)} ${shown(example.originCountry)} -> ${shown(example.destinationCountry)} at ${Math.round(k * q * 100) / 100} ${String(example.quantityUnit)}` });
      const result = served(ctx, tenant, sent);
      if (!result) return;
      quotes.push({ sent, result, quantity: Math.round(k * q * 100) / 100 });
    }
    if (quotes.some((x) => x.result.status !== 'authoritative')) {
      ctx.skip(`the contract's quantity-aware example is not quoted authoritative here (${quotes.map((x) => shown(x.result.status)).join(', ')}): no amounts to compare`);
    }
    const totals = quotes.map((x) => {
      const b = x.result.breakdown as Record<string, unknown> | null;
      return num(b?.totalLandedCost) ?? num(b?.total);
    });
    if (totals.every((t) => t !== undefined)) {
      const [a, b, c] = totals as number[];
      const drift = Math.abs(cents(c) - 2 * cents(b) + cents(a));
      // Each total is rounded to the cent: the second difference of three may be off by 2 cents, not more.
      if (drift > 2) {
        ctx.fail('quantity-kept-as-given', `the same line quoted at ${quotes.map((x) => x.quantity).join(', ')} ${String(example.quantityUnit)} totals ${totals.join(', ')}: from the first to the second it moves ${(cents(b) - cents(a)) / 100}, from the second to the third ${(cents(c) - cents(b)) / 100}; with the quantity kept as given (no rounding or unit conversion) the two steps are equal (spec 4.6 quantity)`, quotes[2].sent.exchange, quotes[2].sent.extra);
      }
    } else if (ctx.options.profile === 'simulator') {
      ctx.fail('quantity-kept-as-given', `an authoritative quote without breakdown.totalLandedCost (${totals.map(shown).join(', ')})`, quotes[0].sent.exchange, quotes[0].sent.extra);
    }
    if (ctx.options.profile !== 'simulator') return;
    // The breakdown (sandbox-defined; the contract names no quantity in it): a quantity it reports is the one
    // sent, and a duty on the quantity is proportional to it. A breakdown without a quantity says nothing.
    for (const x of quotes) {
      const b = (x.result.breakdown ?? {}) as Record<string, unknown>;
      const reported = b.quantity !== undefined || b.quantityUnit !== undefined;
      if (reported && (b.quantity !== x.quantity || b.quantityUnit !== example.quantityUnit)) {
        ctx.fail('quantity-kept-as-given', `quoted at ${x.quantity} ${String(example.quantityUnit)}, the breakdown reports quantity ${shown(b.quantity)} ${shown(b.quantityUnit)}: kept as given, no rounding or unit conversion (spec 4.6)`, x.sent.exchange, x.sent.extra);
      }
    }
    const duty = quotes.map((x) => ((x.result.breakdown ?? {}) as Record<string, unknown>));
    if (duty.every((b) => b.dutyBasis === 'quantity' && num(b.dutyAmount) !== undefined)) {
      const [first, , third] = duty.map((b) => num(b.dutyAmount)!);
      if (Math.abs(cents(third) - cents(3 * first)) > 3) {
        ctx.fail('quantity-duty-proportional', `a duty on the quantity: ${first} at ${quotes[0].quantity} but ${third} at ${quotes[2].quantity} ${String(example.quantityUnit)}, not three times as much (spec 4.6: the quantity kept as given)`, quotes[2].sent.exchange, quotes[2].sent.extra);
      }
    }
  },
});
