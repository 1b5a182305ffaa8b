// Spec 4.6 rules 1-2 (decision 13): provider comparison, refused beside quantity and run only in USD.
import fc from 'fast-check';
import { defineCheck } from '../../harness/check.js';
import { expectError } from '../../harness/expect-error.js';
import { seeded } from '../jobs-support.js';
import { describe, landedCost, productValue, quoteSender, quoteTenant, served, shown } from './quote.js';

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
    const send = quoteSender(ctx, lc, tenant, PROVIDER_QUANTITY_ID);
    const quantity = seeded(fc.integer({ min: 1, max: 10_000 }), ctx.seed, 0);
    const quantityUnit = seeded(fc.constantFrom(...lc.units), ctx.seed, 1);
    const withQuantity = { ...lc.base, productValue: productValue(ctx, 2), currency: 'USD', quantity, quantityUnit };
    const refused = await send({ body: { ...withQuantity, provider: lc.provider } });
    expectError(ctx, refused.exchange, 400, 'INVALID_REQUEST', 'provider with quantity and quantityUnit (spec 4.6 rule 1)', refused.extra);
    const control = await send({ body: withQuantity });
    if (control.exchange.response.status !== 200) {
      ctx.fail('landed-cost-served', `the same request without provider answered ${describe(control.exchange)}, not 200: quantity with quantityUnit is valid (spec 4.6), so the refusal is not shown to be about rule 1`, control.exchange, control.extra);
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
    const send = quoteSender(ctx, lc, tenant, NON_USD_ID);
    const value = productValue(ctx, 3);
    const cases: Array<{ label: string; body: Record<string, unknown>; skipped: boolean }> = [
      { label: 'provider with currency EUR', body: { ...lc.base, productValue: value, currency: 'EUR', provider: lc.provider }, skipped: true },
      { label: 'provider without currency', body: { ...lc.base, productValue: value, provider: lc.provider }, skipped: true },
      { label: 'provider with currency USD', body: { ...lc.base, productValue: value, currency: 'USD', provider: lc.provider }, skipped: false },
    ];
    for (const { label, body, skipped } of cases) {
      const sent = await send({ body, what: label });
      const result = served(ctx, tenant, sent);
      if (!result) continue;
      if (skipped && result.providerSkipReason !== 'non_usd_corridor') {
        ctx.fail('provider-skip-reason', `${label}: providerSkipReason is ${shown(result.providerSkipReason)}, not non_usd_corridor (spec 4.6 rule 2)`, sent.exchange, sent.extra);
      }
      if (!skipped && result.providerSkipReason === 'non_usd_corridor') {
        ctx.fail('provider-skip-reason', `${label}: providerSkipReason is non_usd_corridor, but the comparison runs when currency is USD (spec 4.6 rule 2)`, sent.exchange, sent.extra);
      }
    }
  },
});
