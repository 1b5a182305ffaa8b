// The advanced trade path (spec 2.10, 4.6; payload shapes sandbox-defined): classification reviews, applying
// a classification, the classification batch job and the compliance check's gates. Each check asserts what
// the contract or the spec makes certain in every writes profile, and the sandbox's documented behaviour in
// the simulator profile only.
//
//   support.ts                paths, the tenant, a classification that opens a review, deciding one
//   review-decided-once.ts    advanced-trade.review-decided-once
//   review-status-filter.ts   advanced-trade.review-status-filter
//   apply-needs-decision.ts   advanced-trade.apply-needs-decision
//   batch-job-reconciles.ts   advanced-trade.batch-job-reconciles
//   compliance-gates.ts       advanced-trade.compliance-gates
//   review-records.ts         advanced-trade.review-records (simulator profile)
import type { Check } from '../../harness/check.js';
import { applyNeedsDecision } from './apply-needs-decision.js';
import { batchJobReconciles } from './batch-job-reconciles.js';
import { complianceGates } from './compliance-gates.js';
import { reviewDecidedOnce } from './review-decided-once.js';
import { reviewRecords } from './review-records.js';
import { reviewStatusFilter } from './review-status-filter.js';

/** The advanced trade checks, in the order they run. */
export const advancedTradeChecks: Check[] = [reviewDecidedOnce, reviewStatusFilter, applyNeedsDecision, batchJobReconciles, complianceGates, reviewRecords];
