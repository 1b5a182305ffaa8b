// Spec 4.6 rule 5: quote corridors, the unconfigured-corridor outcome and the wildcard origin.
import fc from 'fast-check';
import { isObject, type Json } from '../../../contracts/lib/bundle.js';
import { defineCheck } from '../../harness/check.js';
import { seeded } from '../jobs-support.js';
import { describe, landedCost, productValue, quoteSender, quoteTenant, shown, type QuoteResult } from './quote.js';

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
    const send = quoteSender(ctx, lc, tenant, CORRIDOR_ID);
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
    let { exchange, extra } = await send({ body, input: { quoteCorridors: corridors, request: body } });
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
    ({ exchange, extra } = await send({ body: matched, input: { quoteCorridors: corridors, request: matched } }));
    const status = (exchange.response.body as QuoteResult | null)?.status;
    if (exchange.response.status !== 200 || status === 'unconfigured_corridor') {
      ctx.fail('corridor-wildcard-origin', `${wildcardOrigin} -> ${configured} answered ${describe(exchange)} with status ${shown(status)}, though the enabled corridor * -> ${configured} matches it by wildcard origin (spec 4.6 rule 5)`, exchange, extra);
    }
  },
});
