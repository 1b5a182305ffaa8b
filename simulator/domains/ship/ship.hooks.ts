// The ship domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in ship.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { FindingWorkflowStatus } from './ship.types.js';

export const SHIP_HOOKS = {
  /** spec 4.5 rule 4: whether a blocking carrier policy refuses claim creation and carrier-facing moves. */
  carrierPolicyEnforced: hookPoint<boolean>('rule', 'ship.carrier-policy-enforced'),
  /** spec 2.6: the `workflowStatus` filter listFindings applies (undefined: none). */
  findingsStatusFilter: hookPoint<FindingWorkflowStatus | undefined>('store', 'ship.findings-status-filter'),
  /** spec 8.6: the `hasMore` of a findings page. */
  findingsHasMore: hookPoint<boolean>('response', 'ship.findings-has-more'),
} as const;
