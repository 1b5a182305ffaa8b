// The ship domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in ship.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { ClaimAction } from './claim.machine.js';
import type { ExplainContext, Explanation } from './finding.explain.js';
import type { ClaimSubmissionRecord, ClaimSubmissionStatus, FindingRecord, FindingWorkflowStatus, ShipmentAuditOutcome } from './ship.types.js';

/** What a claim move writes besides its state and updatedAt, and what a deviation may read to change it. */
export type ClaimMoveEffects = Partial<ClaimSubmissionRecord>;
export interface ClaimMoveContext {
  action: ClaimAction;
  /** The tenant's clock when the move is applied. */
  now: string;
}

/** The order of the findings page and the submissions list: the sandbox lists the newest first. */
export type ListOrder = 'newest-first' | 'oldest-first';

export const SHIP_HOOKS = {
  /** spec 4.5 rule 4: whether a blocking carrier policy refuses claim creation and carrier-facing moves. */
  carrierPolicyEnforced: hookPoint<boolean>('rule', 'ship.carrier-policy-enforced'),
  /** spec 2.6: the `workflowStatus` filter listFindings applies (undefined: none). */
  findingsStatusFilter: hookPoint<FindingWorkflowStatus | undefined>('store', 'ship.findings-status-filter'),
  /** spec 4.5: the counts per workflow state of a findings page ("finding page with status counts"). */
  findingsStatusCounts: hookPoint<Record<FindingWorkflowStatus, number>>('response', 'ship.findings-status-counts'),
  /** spec 8.6: the `hasMore` of a findings page. */
  findingsHasMore: hookPoint<boolean>('response', 'ship.findings-has-more'),
  /** spec 2.6, 4.5 rule 1: the explanation fields a finding is shown with (claimEligibility ELIGIBLE exactly when it can be bundled). */
  findingExplanation: hookPoint<Explanation, { finding: FindingRecord; context: ExplainContext }>('response', 'ship.finding-explanation'),
  /** spec 4.5 rule 1: the workflow states a claim can bundle ("Eligible workflow states: DISPUTED, SUBMITTED, CARRIER_REVIEW"). */
  claimableStates: hookPoint<readonly FindingWorkflowStatus[]>('rule', 'ship.claimable-states'),
  /** spec 2.7, 4.5 rule 4: the finding ids a new claim submission keeps (the request's, filtered to the tenant). */
  claimCreateFindingIds: hookPoint<readonly string[]>('store', 'ship.claim-create-finding-ids'),
  /** spec 4.5 (credit: `amount`, `confirmation`), 3.4: the credit a finding records, given the amount confirmed. */
  findingCreditRecorded: hookPoint<NonNullable<FindingRecord['credit']>, { finding: FindingRecord }>('store', 'ship.finding-credit-recorded'),
  /** spec 4.5 rules 1-2: whether createClaimSubmission refuses ineligible findings (400 invalidFindingStates). */
  claimCreateEligibilityEnforced: hookPoint<boolean>('rule', 'ship.claim-create-eligibility-enforced'),
  /** spec 4.5 rule 3: whether createClaimSubmission refuses findings an active submission holds (409 duplicateLinks). */
  claimCreateDuplicateLinksEnforced: hookPoint<boolean>('rule', 'ship.claim-create-duplicate-links-enforced'),
  /** spec 4.5 rule 3: the submission states that no longer hold their findings. */
  inactiveSubmissionStates: hookPoint<readonly ClaimSubmissionStatus[]>('rule', 'ship.inactive-submission-states'),
  /** spec 3.4, 7: whether confirm-credit on a CREDIT_CONFIRMED submission answers it as it stands instead of 409. */
  confirmedCreditReplayed: hookPoint<boolean>('rule', 'ship.confirmed-credit-replayed'),
  /** spec 2.7, 3.4: the fields a claim move sets besides its state (timestamps, packetUrl, references). */
  claimMoveEffects: hookPoint<ClaimMoveEffects, ClaimMoveContext>('store', 'ship.claim-move-effects'),
  /** spec 3.4: whether submitting a claim also moves the workflow of the findings it bundles (never: independent). */
  findingsFollowClaimSubmit: hookPoint<boolean>('rule', 'ship.findings-follow-claim-submit'),
  /** spec 4.5 GET /api/ship/claims/submissions: the `status` the list is filtered by (the query's). */
  claimsStatusFilter: hookPoint<string | undefined>('store', 'ship.claims-status-filter'),
  /** spec 8.6: the `hasMore` of a claim submissions page. */
  claimsHasMore: hookPoint<boolean>('response', 'ship.claims-has-more'),
  /** The findings a claim packet lists (the submission's, in its order): sandbox-defined packet contents. */
  packetFindings: hookPoint<FindingRecord[]>('response', 'ship.packet-findings'),
  /** Whether a claim packet is served only to the tenant owning its submission (another's reads as absent). */
  packetOwnerOnly: hookPoint<boolean>('auth', 'ship.packet-owner-only'),
  /** spec 4.3, 7: whether the same file uploaded again to the same endpoint is refused (409 DUPLICATE_UPLOAD). */
  duplicateUploadRefused: hookPoint<boolean>('rule', 'ship.duplicate-upload-refused'),
  /** The tenant part of an upload registry key (spec 4.3: duplicates are the tenant's own), given the tenant id. */
  uploadRegistryTenantKey: hookPoint<string>('store', 'ship.upload-registry-tenant-key'),
  /** spec 4.5: the filters listShipmentAudits applies (`carrier`, `outcome`). */
  auditFilter: hookPoint<{ carrier?: string; outcome?: ShipmentAuditOutcome }>('store', 'ship.audit-filter'),
  /** spec 8.6 ("ship audit `limit` 1..200", no default given): the page size of listShipmentAudits without `limit`. */
  auditDefaultLimit: hookPoint<number>('response', 'ship.audit-default-limit'),
  /** spec 4.5, 2.7 (no order given for the findings page or the submissions list): the order they are listed in. */
  listOrder: hookPoint<ListOrder>('store', 'ship.list-order'),
} as const;
