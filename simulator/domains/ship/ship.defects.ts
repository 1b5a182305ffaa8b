// The ship domain's deviations (README "Defect injection"), as data: rows of the finding and claim tables
// (applied by transition()), rules at the hook points of ship.hooks.ts, and below them the ones that only
// change what is sent.
import { isBodyObject, rewriteSuccessBody, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { deviateMachine } from '../../kernel/machine.js';
import { afterConfirmCredit, claimMachine } from './claim.machine.js';
import { chargeBlocker, RESOLVED_STATES, type ExplainContext, type Explanation } from './finding.explain.js';
import { findingMachine } from './finding.machine.js';
import { SHIP_HOOKS, type ListOrder } from './ship.hooks.js';
import type { FindingRecord } from './ship.types.js';

/** A day before `iso` (claims.acknowledged-at-backdated: before createdAt and submittedAt). */
const dayBefore = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString();

/**
 * ship.eligibility-ignores-workflow: the explanation as it read before issue 26, claimEligibility from the
 * charge alone (recoverable, carrier policy, dispute window), so OPEN, DISMISSED, CREDITED and REJECTED
 * findings and findings an active submission holds read ELIGIBLE beside their claimBlockerReason, and
 * actionability claimable with them.
 */
const chargeOnlyExplanation = (explained: Explanation, { finding, context }: { finding: FindingRecord; context: ExplainContext }): Explanation => {
  const claimEligibility = chargeBlocker(finding, context)?.[0] ?? 'ELIGIBLE';
  const actionability = RESOLVED_STATES.includes(finding.workflowStatus) ? 'no_action' : claimEligibility !== 'ELIGIBLE' ? 'informational' : finding.needsEvidence && ['OPEN', 'DISPUTED'].includes(finding.workflowStatus) ? 'needs_evidence' : 'claimable';
  return { ...explained, claimEligibility, actionability };
};

export const SHIP_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'ship.audit-outcome-filter-ignored', area: 'ship', description: 'the `outcome` filter of listShipmentAudits (v1.2.0) is ignored (every shipment is listed)', hooks: [at(SHIP_HOOKS.auditFilter, (filter) => ({ ...filter, outcome: undefined }))] },
  { kind: 'defect', id: 'ship.submissions-status-filter-ignored', area: 'ship', description: 'the `status` filter of listClaimSubmissions is ignored (every submission is listed)', hooks: [at(SHIP_HOOKS.claimsStatusFilter, () => undefined)] },
  { kind: 'defect', id: 'ship.reopen-from-open', area: 'ship', description: 'reopenFinding accepts an OPEN finding (200 instead of 409)', machine: [deviateMachine(findingMachine, { add: [{ from: ['OPEN'], action: 'reopen', to: 'OPEN' }] })] },
  { kind: 'defect', id: 'ship.dispute-from-dismissed', area: 'ship', description: 'disputeFinding accepts a DISMISSED finding (200 DISPUTED instead of 409)', machine: [deviateMachine(findingMachine, { add: [{ from: ['DISMISSED'], action: 'dispute', to: 'DISPUTED' }] })] },
  { kind: 'defect', id: 'ship.carrier-policy-ignored', area: 'ship', description: 'a carrier policy manual_import_only blocks nothing (claim creation, finding submit and carrier-review go through)', hooks: [at(SHIP_HOOKS.carrierPolicyEnforced, () => false)] },
  { kind: 'defect', id: 'ship.findings-filter-ignored', area: 'ship', description: 'the `workflowStatus` filter of listFindings is ignored', hooks: [at(SHIP_HOOKS.findingsStatusFilter, () => undefined)] },
  { kind: 'defect', id: 'ship.batch-credit-allowed', area: 'ship', description: 'applyFindingBatchAction answers action=credit with 200 instead of 400' },
  { kind: 'defect', id: 'ship.duplicate-upload-allowed', area: 'ship', description: 'the same file uploaded again to a ship upload is accepted (202)', hooks: [at(SHIP_HOOKS.duplicateUploadRefused, () => false)] },
  { kind: 'defect', id: 'ship.duplicate-upload-across-tenants', area: 'isolation', description: "duplicate uploads are recorded per file, not per tenant: another tenant's upload of the same bytes replaces the record, so the first tenant's own file again is accepted (202) instead of 409", hooks: [at(SHIP_HOOKS.uploadRegistryTenantKey, () => '')] },
  { kind: 'defect', id: 'claims.ineligible-accepted', area: 'ship', description: 'createClaimSubmission bundles ineligible findings (no 400 invalidFindingStates)', hooks: [at(SHIP_HOOKS.claimCreateEligibilityEnforced, () => false)] },
  { kind: 'defect', id: 'claims.duplicate-link-allowed', area: 'ship', description: 'createClaimSubmission bundles findings linked to an active submission (no 409 duplicateLinks)', hooks: [at(SHIP_HOOKS.claimCreateDuplicateLinksEnforced, () => false)] },
  { kind: 'defect', id: 'claims.partial-from-failed-stays-failed', area: 'ship', description: 'a partial confirm-credit on a FAILED submission leaves it FAILED instead of ACKNOWLEDGED', machine: [deviateMachine(claimMachine, { add: [{ from: ['FAILED'], action: 'confirm-credit', to: (context, current) => (context.creditOutcome === 'partial' ? 'FAILED' : afterConfirmCredit(context, current)) }] })] },
  { kind: 'defect', id: 'claims.submission-findings-unexplained', area: 'ship', description: 'the findings a claim submission response embeds show claimEligibility ELIGIBLE and actionability claimable whatever their finding records say (the explanation as at bundling)' },
  { kind: 'defect', id: 'claims.refusal-without-subcode', area: 'ship', description: 'a finding or claim move refused from a non-source state answers 409 ACTION_NOT_ALLOWED without details.subcode invalid_transition' },
  { kind: 'defect', id: 'claims.confirm-after-confirmed-200', area: 'ship', description: 'confirm-credit after CREDIT_CONFIRMED answers 200 instead of 409', hooks: [at(SHIP_HOOKS.confirmedCreditReplayed, () => true)] },
  { kind: 'defect', id: 'claims.submitted-at-missing', area: 'ship', description: 'submitClaimSubmission leaves submittedAt null', hooks: [at(SHIP_HOOKS.claimMoveEffects, (effects, { action }) => (action === 'submit' ? { ...effects, submittedAt: null } : effects))] },
  { kind: 'defect', id: 'claims.bare-submission', area: 'ship', description: 'getClaimSubmission answers the bare submission instead of `{ submission }`' },
  { kind: 'defect', id: 'claims.packet-other-tenant', area: 'ship', description: "a claim packet is served to a tenant that does not own the submission", hooks: [at(SHIP_HOOKS.packetOwnerOnly, () => false)] },
  { kind: 'defect', id: 'ship.reject-after-credit', area: 'ship', description: 'rejectFinding accepts a CREDITED finding (200 REJECTED): a terminal state left by another move than reopen', machine: [deviateMachine(findingMachine, { add: [{ from: ['CREDITED'], action: 'reject', to: 'REJECTED' }] })] },
  { kind: 'defect', id: 'claims.closed-reopened', area: 'ship', description: 'confirm-credit moves a CLOSED submission (operator-closed submissions are never reopened)', machine: [deviateMachine(claimMachine, { add: [{ from: ['CLOSED'], action: 'confirm-credit', to: (context) => afterConfirmCredit(context, 'ACKNOWLEDGED') }] })] },
  { kind: 'defect', id: 'claims.packet-url-dropped', area: 'ship', description: 'submitClaimSubmission clears packetUrl (it stays set once READY)', hooks: [at(SHIP_HOOKS.claimMoveEffects, (effects, { action }) => (action === 'submit' ? { ...effects, packetUrl: null } : effects))] },
  { kind: 'defect', id: 'claims.submitted-at-cleared', area: 'ship', description: 'confirmClaimSubmissionCredit clears submittedAt', hooks: [at(SHIP_HOOKS.claimMoveEffects, (effects, { action }) => (action === 'confirm-credit' ? { ...effects, submittedAt: null } : effects))] },
  { kind: 'defect', id: 'claims.credit-confirmed-at-on-submit', area: 'ship', description: 'submitClaimSubmission also stamps creditConfirmedAt, before any credit is confirmed', hooks: [at(SHIP_HOOKS.claimMoveEffects, (effects, { action, now }) => (action === 'submit' ? { ...effects, creditConfirmedAt: now } : effects))] },
  { kind: 'defect', id: 'claims.acknowledged-at-backdated', area: 'ship', description: 'acknowledgeClaimSubmission stamps acknowledgedAt a day before the acknowledgement (before createdAt and submittedAt)', hooks: [at(SHIP_HOOKS.claimMoveEffects, (effects, { action, now }) => (action === 'acknowledge' ? { ...effects, acknowledgedAt: dayBefore(now) } : effects))] },
  { kind: 'defect', id: 'ship.carrier-review-from-disputed', area: 'ship', description: 'carrierReviewFinding accepts a DISPUTED finding (200 CARRIER_REVIEW instead of 409; spec 3.3: SUBMITTED only)', machine: [deviateMachine(findingMachine, { add: [{ from: ['DISPUTED'], action: 'carrier-review', to: 'CARRIER_REVIEW' }] })] },
  { kind: 'defect', id: 'ship.findings-has-more-on-last-page', area: 'ship', description: 'listFindings says hasMore true on every page, the last one included', hooks: [at(SHIP_HOOKS.findingsHasMore, () => true)] },
  { kind: 'defect', id: 'claims.has-more-on-last-page', area: 'ship', description: 'listClaimSubmissions says hasMore true on every page, the last one included', hooks: [at(SHIP_HOOKS.claimsHasMore, () => true)] },
  { kind: 'defect', id: 'claims.failed-submission-holds-findings', area: 'ship', description: 'createClaimSubmission counts a FAILED submission as active: its findings are 409 duplicateLinks instead of bundled again (spec 4.5 rule 3)', hooks: [at(SHIP_HOOKS.inactiveSubmissionStates, (states) => states.filter((s) => s !== 'FAILED'))] },
  { kind: 'defect', id: 'ship.eligibility-ignores-workflow', area: 'ship', description: 'findings read claimEligibility ELIGIBLE (actionability claimable) in OPEN, DISMISSED, CREDITED and REJECTED and while an active submission holds them, though claim creation refuses them (spec 4.5 rule 1)', hooks: [at(SHIP_HOOKS.findingExplanation, chargeOnlyExplanation)] },
  { kind: 'defect', id: 'ship.eligibility-disputed-only', area: 'ship', description: 'only DISPUTED findings can be bundled: SUBMITTED and CARRIER_REVIEW findings read claimEligibility INELIGIBLE and claim creation refuses them (spec 4.5 rule 1 names all three eligible)', hooks: [at(SHIP_HOOKS.claimableStates, () => ['DISPUTED' as const])] },
  { kind: 'defect', id: 'claims.create-keeps-first-finding', area: 'ship', description: 'createClaimSubmission answers 201 but the submission keeps only the first of its findingIds', hooks: [at(SHIP_HOOKS.claimCreateFindingIds, (ids) => ids.slice(0, 1))] },
  { kind: 'defect', id: 'ship.credit-records-recoverable', area: 'ship', description: "creditFinding records the finding's recoverable amount as its credit instead of the amount confirmed", hooks: [at(SHIP_HOOKS.findingCreditRecorded, (credit, { finding }) => ({ ...credit, amount: finding.recoverableAmount }))] },
  { kind: 'defect', id: 'claims.packet-omits-last-finding', area: 'ship', description: 'a claim packet of several findings leaves the last one out (its tracking number and amount are not claimed)', hooks: [at(SHIP_HOOKS.packetFindings, (bundled) => (bundled.length > 1 ? bundled.slice(0, -1) : bundled))] },
  { kind: 'defect', id: 'ship.status-counts-as-raised', area: 'ship', description: "listFindings' statusCounts count every finding in the state the audit raised it in (OPEN), not its current workflowStatus", hooks: [at(SHIP_HOOKS.findingsStatusCounts, (counts) => ({ ...Object.fromEntries(Object.keys(counts).map((s) => [s, 0])), OPEN: Object.values(counts).reduce((a, b) => a + b, 0) }) as typeof counts)] },
  { kind: 'defect', id: 'ship.claim-moves-finding-status', area: 'ship', description: 'submitClaimSubmission also moves the DISPUTED findings it bundles to SUBMITTED', hooks: [at(SHIP_HOOKS.findingsFollowClaimSubmit, () => true)] },
];

/** spec 3.3: "Source states allowed for credit and for reject: not shown." */
const SOURCE_STATES_NOT_SHOWN = 'spec 3.3: "(source states not given) | POST credit | valid credit request | CREDITED (terminal)", "(source states not given) | POST reject | | REJECTED (terminal)" and "Source states allowed for credit and for reject: not shown."';

/** Legitimate variants of the ship domain (README "Variants"): choices the spec leaves open. */
export const SHIP_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'ship.credit-from-disputed', area: 'ship', description: 'creditFinding also credits a DISPUTED finding (besides SUBMITTED and CARRIER_REVIEW)', spec: SOURCE_STATES_NOT_SHOWN, machine: [deviateMachine(findingMachine, { add: [{ from: ['DISPUTED'], action: 'credit', to: 'CREDITED' }] })] },
  { kind: 'variant', id: 'ship.credit-from-carrier-review-only', area: 'ship', description: 'creditFinding credits only a CARRIER_REVIEW finding (a SUBMITTED one is 409 invalid_transition)', spec: SOURCE_STATES_NOT_SHOWN, machine: [deviateMachine(findingMachine, { remove: [{ from: ['SUBMITTED'], action: 'credit' }] })] },
  { kind: 'variant', id: 'ship.reject-from-disputed', area: 'ship', description: 'rejectFinding also rejects a DISPUTED finding (besides SUBMITTED and CARRIER_REVIEW)', spec: SOURCE_STATES_NOT_SHOWN, machine: [deviateMachine(findingMachine, { add: [{ from: ['DISPUTED'], action: 'reject', to: 'REJECTED' }] })] },
  { kind: 'variant', id: 'ship.reject-from-carrier-review-only', area: 'ship', description: 'rejectFinding rejects only a CARRIER_REVIEW finding (a SUBMITTED one is 409 invalid_transition)', spec: SOURCE_STATES_NOT_SHOWN, machine: [deviateMachine(findingMachine, { remove: [{ from: ['SUBMITTED'], action: 'reject' }] })] },
  { kind: 'variant', id: 'ship.audit-default-limit-25', area: 'ship', description: 'listShipmentAudits without `limit` answers pages of 25', spec: 'spec 8.6: "ship audit `limit` 1..200" (every other list states "default 50"; this one gives no default); spec 4.5 GET /api/ship/audit: "query `limit` (1..200)"', hooks: [at(SHIP_HOOKS.auditDefaultLimit, () => 25)] },
  { kind: 'variant', id: 'ship.finding-extra-fields', area: 'ship', description: 'finding records also carry `currency` and `detectedBy`', spec: 'spec 2.6: "Remaining fields of the finding record: not shown."' },
  { kind: 'variant', id: 'ship.lists-oldest-first', area: 'ship', description: 'the findings page and the submissions list walk a tenant\'s records oldest first (a stable order, pages still partition it)', spec: 'spec 4.5 GET /api/ship/findings: "200 finding page with status counts; response field list: not shown"; spec 2.7 "List envelope: `{ submissions: [...], total, limit, offset, hasMore }`": no order is given for either', hooks: [at(SHIP_HOOKS.listOrder, (): ListOrder => 'oldest-first')] },
  { kind: 'variant', id: 'ship.finding-fields-renamed', area: 'ship', description: 'a finding record names its identifier `findingId` and its carrier `carrierCode` (not `id` and `carrier`), wherever findings are answered (findings page, finding moves, shipment detail, submissions)', spec: 'spec 2.6: "Fields named by the interface: `workflowStatus` [...], `claimEligibility` [...], `claimBlockerReason`, `actionability`, `headline`. Remaining fields of the finding record: not shown." (the path names the identifier `:findingId`)' },
  { kind: 'variant', id: 'ship.eligibility-other-values', area: 'ship', description: 'an ineligible finding reads `claimEligibility` `NOT_ELIGIBLE`, `BLOCKED_BY_CARRIER` or `DISPUTE_WINDOW_CLOSED` (for INELIGIBLE, CARRIER_BLOCKED, OUTSIDE_DISPUTE_WINDOW); `ELIGIBLE` as before', spec: 'spec 2.6: "`claimEligibility` (value `ELIGIBLE` among others)": the other values are not given' },
  { kind: 'variant', id: 'claims.error-details-other-keys', area: 'ship', description: 'claim creation names the findings and submissions in its error details under other keys: `invalidFindingStates: [{ finding, state, claimBlockerReason }]`, `duplicateLinks: [{ finding, heldBy: { submission, status } }]`', spec: 'spec 4.5 claim creation rule 2: "a `details.invalidFindingStates` array naming each finding and its `claimBlockerReason`"; rule 3: "a `details.duplicateLinks` array naming the conflicting submission": the keys that name them are not given' },
  { kind: 'variant', id: 'ship.status-counts-as-list', area: 'ship', description: 'the findings page gives its status counts as a list `[{ status, count }]` instead of an object keyed by status', spec: 'spec 4.5 GET /api/ship/findings: "200 finding page with status counts; response field list: not shown"' },
];

/** Every finding a finding move or the findings page answers, rewritten by `change`. */
const FINDING_MOVES = ['disputeFinding', 'dismissFinding', 'submitFinding', 'markFindingCarrierReview', 'creditFinding', 'rejectFinding', 'reopenFinding'] as const;

type Body = Record<string, unknown>;

/** ship.finding-fields-renamed on one finding record (anything else is left as it is). */
const renamedFinding = (finding: unknown) => {
  if (!isBodyObject(finding) || typeof finding.id !== 'string' || !('workflowStatus' in finding)) return finding;
  const { id, carrier, ...rest } = finding;
  return { findingId: id, ...rest, ...(carrier === undefined ? {} : { carrierCode: carrier }) };
};
/** ship.finding-fields-renamed on a body holding findings: the body itself, `findings`, or a submission's `findings`. */
const renamedFindingsIn = (body: Body): Body => {
  const out = renamedFinding(body) as Body;
  if (Array.isArray(out.findings)) return { ...out, findings: out.findings.map(renamedFinding) };
  if (isBodyObject(out.submission) && Array.isArray(out.submission.findings)) return { ...out, submission: { ...out.submission, findings: out.submission.findings.map(renamedFinding) } };
  if (Array.isArray(out.submissions)) return { ...out, submissions: out.submissions.map((s) => (isBodyObject(s) && Array.isArray(s.findings) ? { ...s, findings: s.findings.map(renamedFinding) } : s)) };
  return out;
};
const OTHER_ELIGIBILITY: Record<string, string> = { INELIGIBLE: 'NOT_ELIGIBLE', CARRIER_BLOCKED: 'BLOCKED_BY_CARRIER', OUTSIDE_DISPUTE_WINDOW: 'DISPUTE_WINDOW_CLOSED' };
const otherEligibility = (finding: unknown) => (isBodyObject(finding) && typeof finding.claimEligibility === 'string' && finding.claimEligibility in OTHER_ELIGIBILITY ? { ...finding, claimEligibility: OTHER_ELIGIBILITY[finding.claimEligibility] } : finding);
const SUBMISSION_OPS = ['createClaimSubmission', 'getClaimSubmission', 'listClaimSubmissions', 'generateClaimPacket', 'submitClaimSubmission', 'acknowledgeClaimSubmission', 'confirmClaimSubmissionCredit'];

export const SHIP_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  {
    // Spec 2.7: each finding in a submission response carries its record's explanation; this build shows the
    // explanation the findings had when they were bundled.
    id: 'claims.submission-findings-unexplained',
    operations: SUBMISSION_OPS,
    apply(res) {
      if (res.status >= 300 || !isBodyObject(res.body)) return;
      const asBundled = (finding: unknown) => (isBodyObject(finding) ? { ...finding, claimEligibility: 'ELIGIBLE', actionability: 'claimable' } : finding);
      const inSubmission = (s: unknown) => (isBodyObject(s) && Array.isArray(s.findings) ? { ...s, findings: s.findings.map(asBundled) } : s);
      const body = res.body as Body;
      res.body = isBodyObject(body.submission) ? { ...body, submission: inSubmission(body.submission) } : Array.isArray(body.submissions) ? { ...body, submissions: body.submissions.map(inSubmission) } : body;
    },
  },
  {
    // Spec 4.5 rule 4: the subcode a refused transition carries is invalid_transition; this build drops it.
    id: 'claims.refusal-without-subcode',
    operations: [...FINDING_MOVES, ...SUBMISSION_OPS],
    apply(res) {
      const details = isBodyObject(res.body) ? (res.body as Body).details : undefined;
      if (res.status !== 409 || !isBodyObject(details) || details.subcode !== 'invalid_transition') return;
      const { subcode: _dropped, ...rest } = details;
      res.body = { ...(res.body as Body), details: rest };
    },
  },
  {
    id: 'ship.batch-credit-allowed',
    operations: ['applyFindingBatchAction'],
    apply(res) {
      const body = res.body as Body;
      if (res.status === 400 && isBodyObject(body) && (body.details as Body | undefined)?.field === 'action') {
        res.status = 200;
        res.body = { action: 'credit', succeeded: 0, failed: 0, results: [] };
      }
    },
  },
  {
    id: 'ship.finding-extra-fields',
    operations: ['listFindings', ...FINDING_MOVES],
    apply(res) {
      if (res.status !== 200 || !isBodyObject(res.body)) return;
      const extra = (finding: unknown) => (isBodyObject(finding) ? { ...finding, currency: 'USD', detectedBy: 'invoice-audit' } : finding);
      const body = res.body as Body;
      res.body = Array.isArray(body.findings) ? { ...body, findings: body.findings.map(extra) } : extra(body);
    },
  },
  rewriteSuccessBody('ship.status-counts-as-list', ['listFindings'], (body) =>
    isBodyObject(body.statusCounts) ? { ...body, statusCounts: Object.entries(body.statusCounts).map(([status, count]) => ({ status, count })) } : undefined,
  ),
  // Before the renaming below (which finds findings by `id`).
  {
    id: 'ship.eligibility-other-values',
    operations: ['listFindings', 'getShipment', ...FINDING_MOVES, ...SUBMISSION_OPS],
    apply(res) {
      if (res.status >= 300 || !isBodyObject(res.body)) return;
      const body = otherEligibility(res.body) as Body;
      const inSubmission = (s: unknown) => (isBodyObject(s) && Array.isArray(s.findings) ? { ...s, findings: s.findings.map(otherEligibility) } : s);
      res.body = Array.isArray(body.findings) ? { ...body, findings: body.findings.map(otherEligibility) } : isBodyObject(body.submission) ? { ...body, submission: inSubmission(body.submission) } : Array.isArray(body.submissions) ? { ...body, submissions: body.submissions.map(inSubmission) } : body;
    },
  },
  {
    id: 'ship.finding-fields-renamed',
    operations: ['listFindings', 'getShipment', ...FINDING_MOVES, ...SUBMISSION_OPS],
    apply(res) {
      if (res.status < 300 && isBodyObject(res.body)) res.body = renamedFindingsIn(res.body as Body);
    },
  },
  {
    id: 'claims.error-details-other-keys',
    operations: ['createClaimSubmission'],
    apply(res) {
      const body = res.body as Body;
      if (res.status < 400 || !isBodyObject(body) || !isBodyObject(body.details)) return;
      const d = body.details;
      const states = Array.isArray(d.invalidFindingStates) ? d.invalidFindingStates.map((s: Body) => ({ finding: s.findingId, state: s.workflowStatus, claimBlockerReason: s.claimBlockerReason })) : undefined;
      const links = Array.isArray(d.duplicateLinks) ? d.duplicateLinks.map((l: Body) => ({ finding: l.findingId, heldBy: { submission: l.submissionId, status: l.submissionStatus } })) : undefined;
      res.body = { ...body, details: { ...d, ...(states ? { invalidFindingStates: states } : {}), ...(links ? { duplicateLinks: links } : {}) } };
    },
  },
  rewriteSuccessBody('claims.bare-submission', ['getClaimSubmission'], (body) => (isBodyObject(body.submission) ? body.submission : undefined)),
];
