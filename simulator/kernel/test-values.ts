// What a test value is (simulator/TEST-VALUES.md, GET /_sim/test-values): a value an integrator chooses to
// get a known outcome, like a payment sandbox's test card. Each domain keeps one table of its own
// (`<domain>.trigger-values.ts`: production code, not tests), read where the behaviour lives;
// control/test-values.ts gathers them.
export interface TestValue {
  id: string;
  area: string;
  /** What to send (a SKU prefix, an HS code, a carrier, a sample row...). */
  value: string;
  /** What happens. */
  effect: string;
  /** The operation that shows it. */
  operation: string;
  /** The test proving the effect (a path in this repository). */
  test: string;
}
