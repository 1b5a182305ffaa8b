// A finding's explanation fields (spec 2.6: claimEligibility, claimBlockerReason, actionability), worked
// out when the finding is read, so they always agree with the finding's workflow state, the tenant's carrier
// policy, the clock and the finding's links to claim submissions, and with what claim creation accepts:
//   claimEligibility: ELIGIBLE exactly when the finding can be bundled into a claim now (spec 4.5 rule 1:
//     a DISPUTED, SUBMITTED or CARRIER_REVIEW finding, its carrier not blocked, no active submission holding
//     it). Otherwise the first blocker found: INELIGIBLE (nothing to recover), CARRIER_BLOCKED (carrier
//     policy, spec 4.5 rule 4), OUTSIDE_DISPUTE_WINDOW (deadline passed), then INELIGIBLE again for a
//     workflow state that cannot be bundled (OPEN, DISMISSED, CREDITED, REJECTED) or a link to an active
//     submission;
//   claimBlockerReason: that blocker in words, null exactly when ELIGIBLE;
//   actionability: what the caller can do next: no_action once resolved, informational when something the
//     workflow cannot change blocks the claim (or an active submission already holds it), needs_evidence
//     while a measurement-based finding is not yet submitted, disputable while OPEN, else claimable (so
//     claimable is never shown on a finding that is not ELIGIBLE).
import type { ClaimEligibility, FindingActionability, FindingRecord, FindingWorkflowStatus } from './ship.types.js';

/** spec 4.5 rule 1: the workflow states a claim can bundle. */
export const CLAIMABLE_STATES: readonly FindingWorkflowStatus[] = ['DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW'];

/** spec 3.3: the resolved states (terminal), where nothing is left to do on the finding. */
export const RESOLVED_STATES: readonly FindingWorkflowStatus[] = ['DISMISSED', 'CREDITED', 'REJECTED'];

/** Carrier policies (tenant settings, control API) that block carrier-facing actions (spec 4.5 rule 4). */
export const BLOCKING_POLICIES: readonly string[] = ['manual_import_only', 'blocked'];

export interface ExplainContext {
  /** The tenant's policy for the finding's carrier, if any. */
  policy: string | null;
  /** Today on the tenant's clock (YYYY-MM-DD). */
  today: string;
  /** An active submission the finding is linked to (status not CREDIT_CONFIRMED, CLOSED or FAILED). */
  activeLink: { submissionId: string; status: string } | null;
  /** The workflow states a claim can bundle (CLAIMABLE_STATES unless a deviation says otherwise). */
  claimableStates?: readonly FindingWorkflowStatus[];
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

/** What blocks the claim whatever the workflow does: nothing to recover, a blocked carrier, a closed window. */
export function chargeBlocker(finding: Pick<FindingRecord, 'carrier' | 'recoverableAmount' | 'disputeDeadline'>, context: Pick<ExplainContext, 'policy' | 'today'>): [ClaimEligibility, string] | null {
  if (finding.recoverableAmount <= 0) return ['INELIGIBLE', 'Nothing is left to recover on this charge'];
  if (isBlockingPolicy(context.policy)) return ['CARRIER_BLOCKED', `Carrier policy ${context.policy} blocks claims for carrier ${finding.carrier}`];
  if (finding.disputeDeadline && context.today > finding.disputeDeadline) return ['OUTSIDE_DISPUTE_WINDOW', `The carrier's dispute window closed on ${finding.disputeDeadline}`];
  return null;
}

export function explainFinding(finding: Pick<FindingRecord, 'carrier' | 'workflowStatus' | 'recoverableAmount' | 'disputeDeadline' | 'needsEvidence'>, context: ExplainContext): Explanation {
  const charge = chargeBlocker(finding, context);
  const stateReason = (context.claimableStates ?? CLAIMABLE_STATES).includes(finding.workflowStatus) ? null : (STATE_REASONS[finding.workflowStatus] ?? `A ${finding.workflowStatus} finding cannot be claimed`);
  const linkReason = context.activeLink ? `Already linked to claim submission ${context.activeLink.submissionId} (${context.activeLink.status})` : null;
  const [claimEligibility, claimBlockerReason]: [ClaimEligibility, string | null] = charge ?? (stateReason ? ['INELIGIBLE', stateReason] : linkReason ? ['INELIGIBLE', linkReason] : ['ELIGIBLE', null]);

  const resolved = RESOLVED_STATES.includes(finding.workflowStatus);
  const actionability: FindingActionability = resolved
    ? 'no_action'
    : charge || linkReason
      ? 'informational'
      : finding.needsEvidence && ['OPEN', 'DISPUTED'].includes(finding.workflowStatus)
        ? 'needs_evidence'
        : finding.workflowStatus === 'OPEN'
          ? 'disputable'
          : 'claimable';
  return { claimEligibility, claimBlockerReason, actionability };
}
