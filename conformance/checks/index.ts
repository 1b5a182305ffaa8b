// Every check of the suite, in the order they run. Each file holds one property (or one family); the
// per-operation checks are generated from the contract being certified.
import type { Check } from '../harness/check.js';
import type { LoadedContract } from '../harness/contract.js';
import { authChecks } from './auth.js';
import { billingChecks } from './billing.js';
import { idempotencyChecks } from './idempotency.js';
import { isolationChecks } from './isolation.js';
import { jobChecks } from './jobs.js';
import { landedCostChecks } from './landed-cost.js';
import { limitChecks } from './limits.js';
import { operationChecks } from './operations.js';
import { paginationChecks } from './pagination.js';
import { simaChecks } from './sima/index.js';
import { tokenExchange } from './token-exchange.js';
import { uploadChecks } from './uploads.js';
import { validationChecks } from './validation.js';
import { webhookChecks } from './webhooks.js';

/** Checks that do not depend on the contract version's operation list. Limits run last: they fill buckets. */
export const allChecks: Check[] = [
  tokenExchange,
  ...authChecks,
  ...validationChecks,
  ...isolationChecks,
  ...billingChecks,
  ...jobChecks,
  ...paginationChecks,
  ...simaChecks,
  ...idempotencyChecks,
  ...webhookChecks,
  ...uploadChecks,
  ...landedCostChecks,
  ...limitChecks,
];

/** Everything the suite runs against a contract version: the checks above and one pair per operation. */
export function checksFor(contract: LoadedContract): Check[] {
  return [...allChecks.slice(0, 1), ...operationChecks(contract), ...allChecks.slice(1)];
}
