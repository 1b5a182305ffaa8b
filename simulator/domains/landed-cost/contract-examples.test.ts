// The contract's landed-cost response examples are what the engine answers to the requests they describe
// (on 2026-11-24, in configured mode with the corridor matched), so the documentation and the sandbox agree.
import { describe, expect, it } from 'vitest';
import { isObject, loadContract } from '../../../contracts/lib/bundle.js';
import { quoteOn, request } from './landed-cost.testing.js';
import type { QuoteInput } from './landed-cost.types.js';

const doc = loadContract('v1.3.0');
const examples = (() => {
  const media = (doc.paths['/api/trade/landed-cost'] as any).post.responses['200'].content['application/json'];
  return Object.fromEntries(Object.entries(media.examples as Record<string, { value: unknown }>).map(([name, e]) => [name, e.value]));
})();

/** The request each engine example answers (its summary names the product; the breakdown the amounts). */
const REQUESTS: Record<string, QuoteInput> = {
  authoritativeUs: request({ productValue: 1200, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US', shippingCost: 150, insurance: 12, currency: 'USD', provider: 'customs-broker' }),
  authoritativeQuantityUs: request({ productValue: 5400, hsCode: '2204.21', originCountry: 'FR', destinationCountry: 'US', shippingCost: 650, currency: 'USD', quantity: 900, quantityUnit: 'LTR' }),
  authoritativeCanada: request({ productValue: 2400, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'CA', shippingCost: 180, currency: 'CAD' }),
  euNonEurCurrency: request({ productValue: 180, hsCode: '6404.11', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 20, currency: 'GBP', provider: 'customs-broker' }),
  rateNotAvailable: request({ productValue: 5000, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'CA', currency: 'CAD', quantity: 2000, quantityUnit: 'KGM' }),
};

describe("the contract's landed-cost examples", () => {
  it('cover every engine example (the unconfigured corridor is the route, landed-cost.over-http.test.ts)', () => {
    expect(Object.keys(examples).filter((name) => name !== 'unconfiguredCorridor').sort()).toEqual(Object.keys(REQUESTS).sort());
  });

  it.each(Object.entries(REQUESTS))('%s is what the engine answers', (name, input) => {
    const result = quoteOn('2026-11-24', input, { policy: { policyMode: 'configured', corridorConfigured: true } });
    const example = examples[name];
    expect(isObject(example as never)).toBe(true);
    expect(result).toMatchObject(example as object);
  });
});
