// The landed-cost engine on pinned dates (spec 4.6): believable numbers from the sourced tables, each rule
// the engine owns (2, 3, 4, 6), and a breakdown whose parts add up to its total whatever the request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MFN_DUTY_RATES } from '#fixtures/landed-cost/duty-rates.js';
import { breakdownOf, DATA, defectsOn, expectAddsUp, quoteOn, request } from './landed-cost.testing.js';
import { FIXTURE_TABLES, loadReferenceData } from './reference-data.js';

const TODAY = '2026-11-24';

describe('a quote into the US (FOB, no federal import tax)', () => {
  it('charges 16.5 % of the product value on cotton T-shirts, freight and insurance outside the duty base', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 1200, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US', shippingCost: 150, insurance: 12, currency: 'USD' })));
    expect(b).toMatchObject({ customsValue: 1200, customsValueBasis: 'FOB', dutyRate: 0.165, dutyExpression: '16.5%', dutyAmount: 198, taxAmount: 0, feesAmount: 0, totalLandedCost: 1560, currency: 'USD' });
    expectAddsUp(b);
  });

  it('computes a specific duty per KGM from the declared quantity (skimmed milk powder, 86.5 cents a kilogram)', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 4200, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'US', currency: 'USD', quantity: 1000, quantityUnit: 'KGM' })));
    expect(b).toMatchObject({ dutyRate: null, dutyExpression: '86.5¢/kg', dutyBasis: 'quantity', dutyAmount: 865, quantity: 1000, quantityUnit: 'KGM', totalLandedCost: 5065 });
  });

  it('keeps the quantity as given: 12.345 KGM is neither rounded nor converted', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 100, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'US', currency: 'USD', quantity: 12.345, quantityUnit: 'KGM' })));
    expect(b).toMatchObject({ quantity: 12.345, quantityUnit: 'KGM', dutyAmount: 10.68 }); // 0.865 x 12.345 = 10.678
  });

  it('computes a specific duty per LTR (wine, 6.3 cents a litre on 900 litres)', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 5400, hsCode: '2204.21', originCountry: 'FR', destinationCountry: 'US', shippingCost: 650, currency: 'USD', quantity: 900, quantityUnit: 'LTR' })));
    expect(b).toMatchObject({ dutyAmount: 56.7, totalLandedCost: 6106.7 });
  });

  it('computes a compound duty, per KGM plus ad valorem (whey, $1.035/kg + 8.5 %)', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 10_000, hsCode: '0404.10.15', originCountry: 'NZ', destinationCountry: 'US', currency: 'USD', quantity: 2000, quantityUnit: 'KGM' })));
    expect(b).toMatchObject({ dutyRate: null, dutyBasis: 'customs_value_and_quantity', dutyAmount: 2920 }); // 2,070 + 850
  });

  it('converts a duty stated in USD into the request currency at the FX table rate', () => {
    const result = quoteOn(TODAY, request({ productValue: 4000, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'US', currency: 'EUR', quantity: 1000, quantityUnit: 'KGM' }));
    expect(breakdownOf(result).dutyAmount).toBe(739.32); // 865 USD / 1.17
    expect(result.metadata.exchangeRates).toEqual([{ from: 'USD', to: 'EUR', rate: 1 / 1.17, asOf: DATA.fxAsOf }]);
  });

  it('reads amounts as USD when no currency is given', () => {
    expect(breakdownOf(quoteOn(TODAY, request({ productValue: 100, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US' }))).currency).toBe('USD');
  });
});

describe('a quote into Canada (FOB, GST on value for duty plus duty)', () => {
  it('charges MFN 18 % and GST 5 % on cotton T-shirts from China', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 2400, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'CA', shippingCost: 180, currency: 'CAD' })));
    expect(b).toMatchObject({ dutyAmount: 432, taxAmount: 141.6, totalLandedCost: 3153.6, taxes: [{ code: 'GST', rate: 0.05, baseAmount: 2832, amount: 141.6 }] });
  });

  it('spares a CAD 30 courier shipment from the US both duty and GST (CUSMA CAD 40 threshold)', () => {
    const result = quoteOn(TODAY, request({ productValue: 30, hsCode: '6109.10', originCountry: 'US', destinationCountry: 'CA', shippingCost: 8, currency: 'CAD' }));
    expect(result.deMinimis).toEqual({ threshold: 40, currency: 'CAD', exempt: true, skipped: null, ruleId: 'CA-COURIER-CUSMA-40', relief: 'duty_and_tax' });
    expect(breakdownOf(result)).toMatchObject({ dutyAmount: 0, dutyBasis: 'de_minimis_relief', taxAmount: 0, taxes: [], totalLandedCost: 38 });
  });

  it('spares a CAD 100 courier shipment from the US the duty but not the GST (CAD 40.01 to 150)', () => {
    const result = quoteOn(TODAY, request({ productValue: 100, hsCode: '6109.10', originCountry: 'US', destinationCountry: 'CA', currency: 'CAD' }));
    expect(result.deMinimis).toMatchObject({ threshold: 150, exempt: true, ruleId: 'CA-COURIER-CUSMA-150', relief: 'duty' });
    expect(breakdownOf(result)).toMatchObject({ dutyAmount: 0, taxAmount: 5, totalLandedCost: 105 });
  });

  it('charges duty and GST on a CAD 30 courier shipment from China (CAD 20 threshold)', () => {
    const result = quoteOn(TODAY, request({ productValue: 30, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'CA', currency: 'CAD' }));
    expect(result.deMinimis).toMatchObject({ threshold: 20, exempt: false, ruleId: 'CA-COURIER-20' });
    expect(breakdownOf(result)).toMatchObject({ dutyAmount: 5.4, taxAmount: 1.77, totalLandedCost: 37.17 }); // GST on 35.40
  });

  it('computes a compound duty per TNE plus ad valorem (barley flakes, $106.50/tonne plus 7 %)', () => {
    const b = breakdownOf(quoteOn(TODAY, request({ productValue: 8000, hsCode: '1104.19.12', originCountry: 'AU', destinationCountry: 'CA', currency: 'CAD', quantity: 20, quantityUnit: 'TNE' })));
    expect(b).toMatchObject({ dutyAmount: 2690, taxAmount: 534.5, totalLandedCost: 11_224.5 }); // 2,130 + 560; GST on 10,690
  });

  it('reports the Canada source code (spec 4.6 rule 6)', () => {
    expect(quoteOn(TODAY, request({ productValue: 500, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'CA' }))).toMatchObject({ authority: 'CA_CBSA', metadata: { sourceCode: 'CBSA_T2025' } });
  });
});

describe('a quote into the EU (CIF, member VAT)', () => {
  it('at EUR 149 on 2026-11-24: no tariff duty, the EUR 3 flat charge in its place, VAT on CIF plus the charge, trust indicative', () => {
    const result = quoteOn(TODAY, request({ productValue: 149, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 10, currency: 'EUR' }));
    expect(result.deMinimis).toEqual({ threshold: 150, currency: 'EUR', exempt: false, skipped: null, ruleId: 'EU-150-FLAT-3', relief: 'flat_charge' });
    expect(result.trust).toEqual({ level: 'indicative' });
    const b = breakdownOf(result);
    expect(b).toMatchObject({ customsValue: 159, customsValueBasis: 'CIF', dutyAmount: 0, feesAmount: 3, taxAmount: 30.78, totalLandedCost: 192.78 });
    expect(b.fees).toEqual([expect.objectContaining({ code: 'EU_LOW_VALUE_FLAT_CHARGE', amount: 3 })]);
    expectAddsUp(b);
  });

  it('at EUR 151 on 2026-11-24: MFN 12 % on the CIF value, VAT 19 % on CIF plus duty, trust authoritative', () => {
    const result = quoteOn(TODAY, request({ productValue: 151, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 10, currency: 'EUR' }));
    expect(result.deMinimis).toMatchObject({ threshold: 150, exempt: false, relief: 'none' });
    expect(result.trust).toEqual({ level: 'authoritative' });
    expect(breakdownOf(result)).toMatchObject({ customsValue: 161, dutyAmount: 19.32, feesAmount: 0, taxAmount: 34.26, totalLandedCost: 214.58 });
  });

  it('at EUR 149 before 2026-07-01: the EUR 150 duty relief, VAT still due', () => {
    const result = quoteOn('2026-06-30', request({ productValue: 149, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 10, currency: 'EUR' }));
    expect(result.deMinimis).toMatchObject({ exempt: true, ruleId: 'EU-150', relief: 'duty' });
    expect(breakdownOf(result)).toMatchObject({ dutyAmount: 0, feesAmount: 0, taxAmount: 30.21, totalLandedCost: 189.21 });
  });

  it('at EUR 149 from 2028-07-01: full tariffs', () => {
    const result = quoteOn('2028-07-01', request({ productValue: 149, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 10, currency: 'EUR' }));
    expect(result.deMinimis).toMatchObject({ exempt: false, ruleId: 'EU-150-ABOLISHED' });
    expect(breakdownOf(result)).toMatchObject({ dutyAmount: 19.08, feesAmount: 0 });
  });

  it('charges sports footwear 16.9 % and each member its own VAT under the one EU source code', () => {
    for (const [member, vat] of [['DE', 0.19], ['FR', 0.2], ['NL', 0.21]] as const) {
      const result = quoteOn(TODAY, request({ productValue: 1000, hsCode: '6404.11', originCountry: 'VN', destinationCountry: member, currency: 'EUR' }));
      expect(result).toMatchObject({ authority: 'EU_TARIC', metadata: { sourceCode: 'EU_TARIC' } });
      expect(breakdownOf(result)).toMatchObject({ dutyAmount: 169, taxes: [{ code: 'VAT', rate: vat, baseAmount: 1169 }] });
    }
  });

  it('charges a specific duty per hectolitre on litres as given (wine, 13.100 EUR HLT on 900 litres)', () => {
    expect(breakdownOf(quoteOn(TODAY, request({ productValue: 3000, hsCode: '2204.21', originCountry: 'AU', destinationCountry: 'IT', currency: 'EUR', quantity: 900, quantityUnit: 'LTR' }))).dutyAmount).toBe(117.9);
  });
});

describe('a quote into the UK (CIF, VAT 20 %)', () => {
  it('spares GBP 120 of T-shirts the duty (GBP 135) but not the VAT, and charges both at GBP 200', () => {
    const low = quoteOn(TODAY, request({ productValue: 120, hsCode: '6109.10', originCountry: 'BD', destinationCountry: 'GB', shippingCost: 15, currency: 'GBP' }));
    expect(breakdownOf(low)).toMatchObject({ dutyAmount: 0, taxAmount: 27, totalLandedCost: 162 });
    const high = quoteOn(TODAY, request({ productValue: 200, hsCode: '6109.10', originCountry: 'BD', destinationCountry: 'GB', shippingCost: 15, currency: 'GBP' }));
    expect(breakdownOf(high)).toMatchObject({ customsValue: 215, dutyAmount: 25.8, taxAmount: 48.16, totalLandedCost: 288.96 });
    expect(high).toMatchObject({ authority: 'UK_HMRC', metadata: { sourceCode: 'UK_GLOBAL_TARIFF' }, trust: null });
  });

  it('computes a specific duty per 100 KGM (butter, 158.00 GBP / 100 kg)', () => {
    expect(breakdownOf(quoteOn(TODAY, request({ productValue: 2000, hsCode: '0405.10.11.20', originCountry: 'NZ', destinationCountry: 'GB', currency: 'GBP', quantity: 500, quantityUnit: 'KGM' }))).dutyAmount).toBe(790);
  });
});

describe('rates the engine cannot quote (spec 4.6 rule 6)', () => {
  it('answers rate_not_available with unsupportedExpression for a duty with a specific minimum (0402.10 into Canada)', () => {
    const result = quoteOn(TODAY, request({ productValue: 5000, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'CA', currency: 'CAD', quantity: 2000, quantityUnit: 'KGM' }));
    expect(result).toMatchObject({ status: 'rate_not_available', authority: 'CA_CBSA', breakdown: null, reason: 'unsupported_duty_expression' });
    expect(result.metadata).toMatchObject({ sourceCode: 'CBSA_T2025', unsupportedExpression: true, dutyExpression: '201.5 % but not less than $2.01/kg' });
  });

  it('answers rate_not_available with unsupportedExpression for a duty per kilogram of protein (EU 0404 10 26)', () => {
    expect(quoteOn(TODAY, request({ productValue: 5000, hsCode: '0404.10.26', originCountry: 'NZ', destinationCountry: 'FR', quantity: 1000, quantityUnit: 'KGM' })).metadata.unsupportedExpression).toBe(true);
  });

  it('answers rate_not_available, not unsupported, for a specific duty without a quantity or with another unit', () => {
    const missing = quoteOn(TODAY, request({ productValue: 5400, hsCode: '2204.21', originCountry: 'FR', destinationCountry: 'US', currency: 'USD' }));
    expect(missing).toMatchObject({ status: 'rate_not_available', reason: 'quantity_required', metadata: { unsupportedExpression: false, requiredQuantityUnit: 'LTR' } });
    const otherUnit = quoteOn(TODAY, request({ productValue: 5400, hsCode: '2204.21', originCountry: 'FR', destinationCountry: 'US', currency: 'USD', quantity: 675, quantityUnit: 'KGM' }));
    expect(otherUnit).toMatchObject({ status: 'rate_not_available', reason: 'quantity_unit_mismatch', metadata: { unsupportedExpression: false } });
  });

  it('answers rate_not_available for a code the tariff table does not hold, with the US/default source for other destinations', () => {
    expect(quoteOn(TODAY, request({ productValue: 10, hsCode: '9999.99', originCountry: 'CN', destinationCountry: 'US' }))).toMatchObject({ status: 'rate_not_available', reason: 'no_rate_for_hs_code' });
    expect(quoteOn(TODAY, request({ productValue: 10, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'JP' }))).toMatchObject({ authority: 'US_CBP', metadata: { sourceCode: 'USITC_HTSUS' } });
  });

  it('computes a specific duty per DZN (no sourced row is per dozen: a test rate)', () => {
    const data = loadReferenceData({
      ...FIXTURE_TABLES,
      dutyRates: { ...MFN_DUTY_RATES, rows: [...MFN_DUTY_RATES.rows, { authority: 'US', code: '999990', description: 'test line', published: '$1.20/doz.', duty: { parts: [{ kind: 'specific', amount: 1.2, currency: 'USD', per: 1, unit: 'DZN' }] }, verified: false, source: 'engine.test.ts' }] },
    });
    expect(breakdownOf(quoteOn(TODAY, request({ productValue: 900, hsCode: '9999.90', originCountry: 'CN', destinationCountry: 'US', currency: 'USD', quantity: 50, quantityUnit: 'DZN' }), { data })).dutyAmount).toBe(60);
  });
});

describe('de minimis on the virtual-clock date (spec 4.6 rule 3)', () => {
  const us = (date: string, originCountry: string) => quoteOn(date, request({ productValue: 500, hsCode: '6109.10', originCountry, destinationCountry: 'US', currency: 'USD' }));

  it('exempts USD 500 from India until 2025-08-28 and not from 2025-08-29 (EO 14324), threshold still reported', () => {
    expect(us('2025-08-28', 'IN').deMinimis).toMatchObject({ threshold: 800, exempt: true, ruleId: 'US-800' });
    expect(breakdownOf(us('2025-08-28', 'IN')).totalLandedCost).toBe(500);
    expect(us('2025-08-29', 'IN').deMinimis).toMatchObject({ threshold: 800, exempt: false, ruleId: 'US-SUSPENDED', relief: 'none' });
    expect(breakdownOf(us('2025-08-29', 'IN')).dutyAmount).toBe(82.5);
  });

  it('stops exempting China from 2025-05-02 (EO 14256)', () => {
    expect(us('2025-05-01', 'CN').deMinimis).toMatchObject({ exempt: true });
    expect(us('2025-05-02', 'CN').deMinimis).toMatchObject({ exempt: false, ruleId: 'US-SUSPENDED-CN-HK' });
  });

  it('is skipped without currency, and reports currency_mismatch with no exemption in another currency', () => {
    expect(quoteOn(TODAY, request({ productValue: 10, hsCode: '6109.10', originCountry: 'US', destinationCountry: 'CA' })).deMinimis).toBeNull();
    const mismatch = quoteOn(TODAY, request({ productValue: 10, hsCode: '6109.10', originCountry: 'US', destinationCountry: 'CA', currency: 'USD' }));
    expect(mismatch.deMinimis).toMatchObject({ threshold: 40, currency: 'CAD', exempt: false, skipped: 'currency_mismatch' });
    expect(breakdownOf(mismatch).dutyAmount).toBe(1.8);
  });
});

describe('the EU trust gate (spec 4.6 rule 4)', () => {
  const de = (productValue: number, currency: string | null) => quoteOn(TODAY, request({ productValue, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'DE', currency })).trust;

  it('is indicative in EUR up to and including 150, authoritative above, undetermined in another currency or none', () => {
    expect([de(1, 'EUR'), de(150, 'EUR'), de(150.01, 'EUR'), de(100, 'USD'), de(100, null)]).toEqual([{ level: 'indicative' }, { level: 'indicative' }, { level: 'authoritative' }, { level: 'undetermined' }, { level: 'undetermined' }]);
  });

  it('is absent outside the EU', () => {
    expect(quoteOn(TODAY, request({ productValue: 100, hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'GB', currency: 'EUR' })).trust).toBeNull();
  });
});

describe('provider comparison (spec 4.6 rule 2)', () => {
  const t = (currency: string | null, provider: string | null = 'customs-broker') => quoteOn(TODAY, request({ productValue: 1200, hsCode: '6109.10', originCountry: 'IN', destinationCountry: 'US', currency, provider }));

  it('runs in USD: the sandbox provider adds a 0.1 % handling charge to the internal total', () => {
    expect(t('USD')).toMatchObject({ providerSkipReason: null, providerComparison: { provider: 'customs-broker', dutyAmount: 198, totalLandedCost: 1399.2, currency: 'USD', difference: 1.2 } });
  });

  it('is skipped with non_usd_corridor in another currency or without one; not mentioned without a provider', () => {
    expect(t('EUR')).toMatchObject({ providerSkipReason: 'non_usd_corridor', providerComparison: null });
    expect(t(null)).toMatchObject({ providerSkipReason: 'non_usd_corridor', providerComparison: null });
    expect(t('USD', null)).toMatchObject({ providerSkipReason: null, providerComparison: null });
  });
});

describe('every breakdown', () => {
  it('adds up to its total in the request currency, whatever the destination, value, costs and date', () => {
    const destinations = ['US', 'CA', 'GB', 'DE', 'FR', 'IT', 'PL', 'SE', 'JP', 'AU'];
    const codes = ['6109.10', '6110.20', '6404.11', '9403.60', '7318.15', '3304.99', '0402.10', '2204.21', '0404.10.15', '1104.19.12'];
    const money = fc.integer({ min: 0, max: 5_000_000 }).map((c) => c / 100);
    fc.assert(
      fc.property(
        fc.record({
          destinationCountry: fc.constantFrom(...destinations),
          originCountry: fc.constantFrom('CN', 'US', 'MX', 'IN', 'VN', 'DE'),
          hsCode: fc.constantFrom(...codes),
          productValue: money,
          shippingCost: money,
          insurance: money,
          currency: fc.constantFrom('USD', 'EUR', 'CAD', 'GBP', 'JPY', null),
          quantity: fc.option(fc.double({ min: 0.001, max: 100_000, noNaN: true }), { nil: null }),
          quantityUnit: fc.constantFrom('KGM', 'LTR', 'TNE', 'DZN' as const),
          date: fc.constantFrom('2025-01-15', '2025-08-29', '2026-06-30', TODAY, '2028-07-01'),
        }),
        ({ date, quantity, quantityUnit, ...input }) => {
          const result = quoteOn(date, request({ ...input, quantity, quantityUnit: quantity === null ? null : quantityUnit }));
          if (result.status !== 'authoritative') return;
          const b = breakdownOf(result);
          expectAddsUp(b);
          expect(b.currency).toBe(input.currency ?? 'USD');
          for (const amount of [b.dutyAmount, b.taxAmount, b.feesAmount, b.totalLandedCost]) expect(amount).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('the defect hooks of the engine', () => {
  it('landedcost.duty-on-fob levies CIF duty on the FOB value while reporting the CIF customs value', () => {
    const input = request({ productValue: 180, hsCode: '6404.11', originCountry: 'CN', destinationCountry: 'DE', shippingCost: 20, currency: 'GBP' });
    expect(breakdownOf(quoteOn(TODAY, input, { defects: defectsOn('landedcost.duty-on-fob') }))).toMatchObject({ customsValue: 200, dutyAmount: 30.42 });
  });

  it('landedcost.canada-default-source and landedcost.unsupported-expression-unflagged change what rule 6 reports', () => {
    const ca = request({ productValue: 5000, hsCode: '0402.10', originCountry: 'NZ', destinationCountry: 'CA', quantity: 10, quantityUnit: 'KGM' });
    expect(quoteOn(TODAY, ca, { defects: defectsOn('landedcost.canada-default-source') }).metadata.sourceCode).toBe('USITC_HTSUS');
    expect(quoteOn(TODAY, ca, { defects: defectsOn('landedcost.unsupported-expression-unflagged') }).metadata.unsupportedExpression).toBe(false);
  });
});
