// Test values of landed cost (simulator/TEST-VALUES.md): reference-data codes whose published duty the
// engine cannot compute. They are real tariff lines (fixtures/landed-cost/duty-rates.ts), not special cases.
import type { TestValue } from '../../kernel/test-values.js';

export const UNSUPPORTED_DUTY_CODES = [
  { destination: 'CA', hsCode: '0402.10', published: '201.5 % but not less than $2.01/kg' },
  { destination: 'DE', hsCode: '0404.10.26', published: '0.070 EUR KGM P + 16.800 EUR DTN' },
] as const;

export const LANDED_COST_TEST_VALUES: readonly TestValue[] = UNSUPPORTED_DUTY_CODES.map((c) => ({
  id: `landed-cost.unsupported-expression.${c.destination.toLowerCase()}`,
  area: 'landed-cost',
  value: `hsCode ${c.hsCode} to ${c.destination}${c.destination === 'DE' ? ' (any EU member)' : ''}`,
  effect: `the duty line is rate_not_available with unsupportedExpression: true (published as "${c.published}")`,
  operation: 'calculateLandedCost',
  test: 'simulator/control/test-values.test.ts',
}));
