// Spec 4.6 request fields: "shippingCost | no | number (defaults to 0 when absent)". A quote without
// shippingCost is the quote with shippingCost 0. What the two answers may differ in beyond that (a quote id,
// a timestamp) is learned from the server itself: a second quote without shippingCost shows which fields
// change between identical requests, and only the fields that do not are compared.
import { defineCheck } from '../../harness/check.js';
import { landedCost, productValue, quoteSender, quoteTenant, served } from './quote.js';

const SHIPPING_DEFAULT_ID = 'landed-cost.shipping-default-zero';

type Flat = Map<string, string>;

/** Every leaf of a JSON value by its path (`breakdown.duty`), as JSON text. */
function leaves(value: unknown, path = '', out: Flat = new Map()): Flat {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) leaves(inner, path ? `${path}.${key}` : key, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}

export const shippingDefaultZero = defineCheck({
  id: SHIPPING_DEFAULT_ID,
  title: 'A quote without shippingCost equals the quote with shippingCost 0',
  area: 'landed-cost',
  needs: ['writes'],
  async run(ctx) {
    const lc = landedCost(ctx);
    const tenant = await quoteTenant(ctx, 'Conformance landed cost: shipping default');
    const send = quoteSender(ctx, lc, tenant, SHIPPING_DEFAULT_ID);
    const body = { ...lc.base, productValue: productValue(ctx, 41) };
    const absent = await send({ body, what: 'a quote without shippingCost' });
    const again = await send({ body, what: 'the same quote again' });
    const zero = await send({ body: { ...body, shippingCost: 0 }, what: 'the same quote with shippingCost 0' });
    const [a, b, z] = [served(ctx, tenant, absent), served(ctx, tenant, again), served(ctx, tenant, zero)];
    if (!a || !b || !z) return;
    const [first, second, withZero] = [leaves(a), leaves(b), leaves(z)];
    // Fields that differ between two identical requests (ids, times) say nothing about the default.
    const stable = [...first.keys()].filter((path) => second.get(path) === first.get(path));
    // A field present on one side only with 0 (or null) is the default shown or not (an echo of the request
    // as given), not a different quote.
    const echo = (x: string | undefined, y: string | undefined) => (x === undefined && (y === '0' || y === 'null')) || (y === undefined && (x === '0' || x === 'null'));
    const differing = stable.filter((path) => withZero.get(path) !== first.get(path) && !echo(first.get(path), withZero.get(path)));
    const added = [...withZero.keys()].filter((path) => !first.has(path) && !second.has(path) && !echo(undefined, withZero.get(path)));
    if (differing.length || added.length) {
      const shown = [...differing, ...added].slice(0, 5).map((path) => `${path}: ${first.get(path) ?? 'absent'} without shippingCost, ${withZero.get(path) ?? 'absent'} with 0`);
      ctx.fail('shipping-default-zero', `the quote without shippingCost differs from the quote with shippingCost 0 (spec 4.6: shippingCost defaults to 0 when absent): ${shown.join('; ')}`, zero.exchange, zero.extra);
    }
  },
});
