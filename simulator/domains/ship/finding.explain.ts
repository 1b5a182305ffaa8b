// A finding's explanation fields (spec 2.6: claimEligibility, claimBlockerReason, actionability), worked
// out when the finding is read, so they always agree with the tenant's carrier policy, the clock and the
// finding's links to claim submissions:
//   claimEligibility: whether the charge can be claimed at all: INELIGIBLE (nothing to recover),
//     CARRIER_BLOCKED (carrier policy, spec 4.5 rule 4), OUTSIDE_DISPUTE_WINDOW (deadline passed), else ELIGIBLE;
//   claimBlockerReason: why it cannot be bundled into a claim right now (spec 4.5 rule 1), null when it can:
//     an ineligibility, a link to an active submission, or a workflow state other than DISPUTED, SUBMITTED,
//     CARRIER_REVIEW;
//   actionability: no_action once resolved, informational when it cannot be claimed, needs_evidence while a
//     measurement-based finding is not yet submitted, else claimable.
import type { ClaimEligibility, FindingActionability, FindingRecord, FindingWorkflowStatus } from './ship.types.js';

/** spec 4.5 rule 1: the workflow states a claim can bundle. */
export const CLAIMABLE_STATES: readonly FindingWorkflowStatus[] = ['DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW'];

/** Carrier policies (tenant settings, control API) that block carrier-facing actions (spec 4.5 rule 4). */
export const BLOCKING_POLICIES: readonly string[] = ['manual_import_only', 'blocked'];

export interface ExplainContext {
  /** The tenant's policy for the finding's carrier, if any. */
  policy: string | null;
  /** Today on the tenant's clock (YYYY-MM-DD). */
  today: string;
  /** An active submission the finding is linked to (status not CREDIT_CONFIRMED, CLOSED or FAILED). */
  activeLink: { submissionId: string; status: string } | null;
}

export interface Explanation {
  claimEligibility: ClaimEligibility;
  claimBlockerReason: string | null;
  actionability: FindingActionability;
}

const STATE_REASONS: Partial<Record<FindingWorkflowStatus, string>> = {
  OPEN: 'Dispute the finding before adding it to a claim',
  DISMISSED: 'Dismissed findings cannot be claimed',
  CREDITED: 'Finding is already credited',
  REJECTED: 'The carrier rejected the dispute',
};

export function isBlockingPolicy(policy: string | null | undefined): boolean {
  return policy != null && BLOCKING_POLICIES.includes(policy);
}

export function explainFinding(finding: Pick<FindingRecord, 'carrier' | 'workflowStatus' | 'recoverableAmount' | 'disputeDeadline' | 'needsEvidence'>, context: ExplainContext): Explanation {
  let claimEligibility: ClaimEligibility = 'ELIGIBLE';
  let reason: string | null = null;
  if (finding.recoverableAmount <= 0) [claimEligibility, reason] = ['INELIGIBLE', 'Nothing is left to recover on this charge'];
  else if (isBlockingPolicy(context.policy)) [claimEligibility, reason] = ['CARRIER_BLOCKED', `Carrier policy ${context.policy} blocks claims for carrier ${finding.carrier}`];
  else if (finding.disputeDeadline && context.today > finding.disputeDeadline) [claimEligibility, reason] = ['OUTSIDE_DISPUTE_WINDOW', `The carrier's dispute window closed on ${finding.disputeDeadline}`];
  if (reason === null && context.activeLink) reason = `Already linked to claim submission ${context.activeLink.submissionId} (${context.activeLink.status})`;
  if (reason === null) reason = STATE_REASONS[finding.workflowStatus] ?? null;

  const resolved = ['DISMISSED', 'CREDITED', 'REJECTED'].includes(finding.workflowStatus);
  const actionability: FindingActionability = resolved
    ? 'no_action'
    : claimEligibility !== 'ELIGIBLE'
      ? 'informational'
      : finding.needsEvidence && ['OPEN', 'DISPUTED'].includes(finding.workflowStatus)
        ? 'needs_evidence'
        : 'claimable';
  return { claimEligibility, claimBlockerReason: reason, actionability };
}
