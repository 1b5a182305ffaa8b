// Every domain's test values in one list (GET /_sim/test-values, simulator/TEST-VALUES.md).
import type { TestValue } from '../kernel/test-values.js';
import { LANDED_COST_TEST_VALUES } from '../domains/landed-cost/landed-cost.test-values.js';
import { SHIP_TEST_VALUES } from '../domains/ship/ship.test-values.js';
import { SIMA_TEST_VALUES } from '../domains/sima/sima.test-values.js';
import { TRADE_TEST_VALUES } from '../domains/trade/trade.test-values.js';

export const TEST_VALUES: readonly TestValue[] = [...SIMA_TEST_VALUES, ...TRADE_TEST_VALUES, ...SHIP_TEST_VALUES, ...LANDED_COST_TEST_VALUES];
