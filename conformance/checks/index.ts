// Every check of the suite, in the order they run. Each file holds one property (or one family); the
// per-operation checks are generated from the contract being certified.
import type { Check } from '../harness/check.js';
import type { LoadedContract } from '../harness/contract.js';
import { journeysFor } from '../journeys/index.js';
import { advancedTradeChecks } from './advanced-trade/index.js';
import { authAttackChecks } from './auth-attacks.js';
import { authChecks } from './auth.js';
import { billingChecks } from './billing.js';
import { idempotencyChecks } from './idempotency/index.js';
import { isolationChecks } from './isolation.js';
import { jobFailureChecks } from './jobs-failed.js';
import { jobChecks } from './jobs.js';
import { landedCostChecks } from './landed-cost.js';
import { limitChecks, previewInflightLimit } from './limits.js';
import { operationChecks } from './operations.js';
import { paginationChecks } from './pagination.js';
import { shipAuditFilters } from './ship/audit-filters.js';
import { shipChecks } from './ship/index.js';
import { simaChecks } from './sima/index.js';
import { signupChecks } from './signup.js';
import { tokenExchange } from './token-exchange.js';
import { tradeChecks } from './trade/index.js';
import { sandboxUploadChecks, uploadChecks, uploadRunPolicy } from './uploads.js';
import { validationChecks } from './validation.js';
import { webhookChecks } from './webhooks.js';

/** Checks that do not depend on the contract version's operation list. Limits run last: they fill buckets. */
const allChecks: Check[] = [
  tokenExchange,
  ...authChecks,
  ...authAttackChecks,
  ...validationChecks,
  ...isolationChecks,
  ...billingChecks,
  ...jobChecks,
  ...jobFailureChecks,
  ...paginationChecks,
  ...simaChecks,
  ...idempotencyChecks,
  ...webhookChecks,
  ...uploadChecks,
  uploadRunPolicy,
  ...sandboxUploadChecks,
  ...landedCostChecks,
  ...limitChecks,
];

/** Everything the suite runs against a contract version: the checks above and one pair per operation. */
export function checksFor(contract: LoadedContract): Check[] {
  // Signup (spec 4.7) is in the archived versions only: its checks join for a contract that has it, before limits.
  const signup = contract.operation('createSignupSession') ? signupChecks : [];
  const rest = allChecks.slice(1, allChecks.length - limitChecks.length);
  // The advanced trade path (spec 4.6) is in v1.3.0 only: its checks join for a contract that has it.
  const advancedTrade = contract.operation('classifyProduct') ? advancedTradeChecks : [];
  // Trade feed sessions (spec 4.4): their checks join for a contract that has them.
  const trade = contract.operation('uploadTradeFeed') ? tradeChecks : [];
  // Freight audit, workflow C (spec 4.5): its checks join for a contract with the finding workflow (v1.2.0, v1.3.0).
  // The audit list (spec 4.5) is in the v1.2.0 artifact only: its filter check joins for a contract that has it.
  const ship = contract.operation('listFindings') ? [...shipChecks, ...(contract.operation('listShipmentAudits') ? [shipAuditFilters] : [])] : [];
  // The journeys (spec 1: workflows A, B, C) walk what the domain checks above test one by one: after them,
  // before limits; each joins for a contract with its workflow's operations.
  // The classify-preview limit (spec 4.4, 8.4) runs with the limits, for a contract with classify-preview.
  const previewLimit = contract.operation('startTradeFeedClassifyPreview') ? [previewInflightLimit] : [];
  return [...allChecks.slice(0, 1), ...operationChecks(contract), ...rest, ...trade, ...ship, ...advancedTrade, ...signup, ...journeysFor(contract), ...limitChecks, ...previewLimit];
}
