// Test values of the SIMA domain (simulator/TEST-VALUES.md): values an integrator chooses to get a known
// outcome, like a payment sandbox's test cards. Any other value behaves as the spec says.
import type { TestValue } from '../../kernel/test-values.js';

/** A screening job asked to screen a SKU starting with this ends FAILED (spec 3.1), with the error naming it. */
export const FAILING_SKU_PREFIX = 'SIMTEST-FAIL-';

export const SIMA_TEST_VALUES: readonly TestValue[] = [
  {
    id: 'sima.screening-job-fails',
    area: 'sima',
    value: `SKU prefix ${FAILING_SKU_PREFIX} (e.g. ${FAILING_SKU_PREFIX}001), in skus or in an uploaded file`,
    effect: 'the sima_validation job ends FAILED with an error naming the SKU (its job.failed webhook is sent); nothing is screened',
    operation: 'enqueueSimaBatch',
    test: 'simulator/control/test-values.test.ts',
  },
  {
    id: 'sima.needs-review-no-hs',
    area: 'sima',
    value: 'a catalog row with a blank HS code (any SKU, origin and material)',
    effect: 'screening always answers NEEDS_REVIEW (reason hsCode missing): nothing can be in scope without a code',
    operation: 'enqueueSimaBatch',
    test: 'simulator/domains/sima/screening.test.ts',
  },
  {
    id: 'sima.needs-review-no-origin',
    area: 'sima',
    value: 'HS code 7214.20.00 (concrete reinforcing bar, under a CA measure) with a blank country of origin',
    effect: 'screening answers NEEDS_REVIEW (reason countryOfOrigin missing)',
    operation: 'enqueueSimaBatch',
    test: 'simulator/domains/sima/screening.test.ts',
  },
];
