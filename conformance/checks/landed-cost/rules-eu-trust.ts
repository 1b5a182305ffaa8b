// Spec 4.6 rule 4: the EU trust gate around the 150 EUR low-value boundary.
import fc from 'fast-check';
import { defineCheck } from '../../harness/check.js';
import { seeded } from '../jobs-support.js';
import { landedCost, quoteSender, quoteTenant, served, shown } from './quote.js';

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
    const send = quoteSender(ctx, lc, tenant, TRUST_ID);
    const destinationCountry = seeded(fc.constantFrom(...EU_MEMBERS.filter((d) => d !== lc.base.originCountry)), ctx.seed, 7);
    const low = seeded(fc.integer({ min: 1, max: EU_LOW_VALUE_EUR - 1 }), ctx.seed, 8);
    const other = seeded(fc.constantFrom('USD', 'GBP', 'CAD', 'CHF', 'JPY'), ctx.seed, 9);
    const cases = [
      { body: { ...lc.base, destinationCountry, productValue: low, currency: 'EUR' }, level: 'indicative' },
      { body: { ...lc.base, destinationCountry, productValue: EU_LOW_VALUE_EUR, currency: 'EUR' }, level: 'indicative' },
      { body: { ...lc.base, destinationCountry, productValue: low, currency: other }, level: 'undetermined' },
    ];
    for (const { body, level } of cases) {
      const label = `${destinationCountry} at ${body.productValue} ${body.currency}`;
      const sent = await send({ body, what: label });
      const result = served(ctx, tenant, sent);
      if (result && result.trust?.level !== level) {
        ctx.fail('eu-trust-gate', `${label}: trust is ${shown(result.trust)}, not level ${level} (spec 4.6 rule 4)`, sent.exchange, sent.extra);
      }
    }
  },
});
