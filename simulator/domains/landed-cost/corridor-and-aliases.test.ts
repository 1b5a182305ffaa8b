// Corridor resolution (spec 4.6 rule 5) and alias detection (rule 7) on their own.
import { describe, expect, it } from 'vitest';
import { resolveCorridor } from './corridor.js';
import { contractAliases, deprecationHint, detectAliases } from './legacy-aliases.js';
import { defectsOn } from './landed-cost.testing.js';

describe('resolveCorridor', () => {
  const rows = [
    { originCountry: 'CN', destinationCountry: 'CA', enabled: true },
    { originCountry: '*', destinationCountry: 'CA', enabled: true },
    { originCountry: 'VN', destinationCountry: 'GB', enabled: false },
    { originCountry: '*', destinationCountry: 'GB', enabled: false },
  ];

  it('is unrestricted without rows', () => {
    expect(resolveCorridor([], 'CN', 'US')).toEqual({ policyMode: 'unrestricted', corridor: null });
  });

  it('prefers the exact enabled row, then the wildcard-origin row of the destination', () => {
    expect(resolveCorridor(rows, 'CN', 'CA').corridor).toBe(rows[0]);
    expect(resolveCorridor(rows, 'MX', 'CA').corridor).toBe(rows[1]);
    expect(resolveCorridor(rows, 'MX', 'CA', defectsOn('landedcost.corridor-wildcard-skipped')).corridor).toBeNull();
  });

  it('matches nothing through a disabled row, and nothing for a destination without rows', () => {
    expect(resolveCorridor(rows, 'VN', 'GB')).toEqual({ policyMode: 'configured', corridor: null });
    expect(resolveCorridor(rows, 'CN', 'US')).toEqual({ policyMode: 'configured', corridor: null });
  });
});

describe('legacy aliases', () => {
  const aliases = contractAliases();

  it("are the contract's x-alias-of properties", () => {
    expect(aliases.map((a) => `${a.alias}->${a.canonical}`)).toEqual([
      'shipping->shippingCost', 'freight->shippingCost', 'shipping_cost->shippingCost', 'insurance_cost->insurance', 'currencyCode->currency',
      'currency_code->currency', 'destination->destinationCountry', 'destCountry->destinationCountry', 'destinationCountryCode->destinationCountry',
      'origin->originCountry', 'originCountryCode->originCountry',
    ]);
  });

  it('are dropped; flagged in request order only without their canonical field', () => {
    const detected = detectAliases({ productValue: 1, currencyCode: 'EUR', freight: 9, origin: 'CN', originCountry: 'CN' }, aliases);
    expect(detected.body).toEqual({ productValue: 1, originCountry: 'CN' });
    expect(deprecationHint(detected.flagged)).toBe("use 'currency' not 'currencyCode'; use 'shippingCost' not 'freight'");
  });
});
