// Every domain's test values in one list, in the order of domains/manifests.ts (GET /_sim/test-values,
// simulator/TEST-VALUES.md).
import type { TestValue } from '../kernel/test-values.js';
import { DOMAINS } from '../domains/manifests.js';

export const TEST_VALUES: readonly TestValue[] = DOMAINS.flatMap((d) => d.testValues);
