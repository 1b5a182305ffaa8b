// Spec 4.5: ship audit, findings and claim submissions (workflow C), and the claim creation rules 1-5.
import { defineRules } from './rule.js';

export const section45Rules = defineRules([
  // Audit and shipment detail (v1.2.0 artifact)
  { id: '4.5.audit.list', section: '4.5', kind: 'shape', contract: 'v1.2.0', sentence: 'GET /api/ship/audit (limit 1..200, offset >= 0, carrier, outcome AT_RISK/CLEAR/NEEDS_REVIEW) answers 200 { shipments, total, limit, offset, hasMore }.', checks: ['operations.listShipmentAudits.accepts-valid-input', 'operations.listShipmentAudits.rejects-invalid-input', 'journeys.c'] },
  { id: '4.5.audit.filters', section: '4.5', kind: 'state', contract: 'v1.2.0', sentence: 'The audit list filters by carrier and outcome.', checks: ['ship.audit-filters'], note: 'the row fields are not shown: a row is judged when it names its carrier/outcome; that all matching rows are listed is judged in a fresh tenant only' },
  { id: '4.5.shipment.detail', section: '4.5', kind: 'shape', contract: 'v1.2.0', sentence: "GET /api/ship/shipments/:shipmentId answers 200 { shipment, findings } (the tenant's findings); 404 for another.", checks: ['journeys.c', 'operations.getShipment.accepts-valid-input', 'operations.getShipment.rejects-invalid-input'] },
  { id: '4.5.audit.rules-read-orders', section: '4.5', kind: 'state', sentence: 'The audit raises findings from the uploaded shipments (and orders, carrier agreements).', unheld: { reason: 'the audit rules, which findings they raise and from which file columns, are not shown; a check cannot tell a missing finding from a rule the deployment does not have' } },

  // Findings list and batch
  { id: '4.5.findings.filter', section: '4.5', kind: 'state', sentence: 'GET /api/ship/findings filters by workflowStatus.', checks: ['ship.findings-list-filters'] },
  { id: '4.5.findings.pagination', section: '4.5', kind: 'state', sentence: 'Findings limit is 1..500 (default 50), offset >= 0; paging returns every finding once.', checks: ['ship.findings-traversal', 'ship.findings-list-filters', 'operations.listFindings.rejects-invalid-input'] },
  { id: '4.5.findings.status-counts', section: '4.5', kind: 'arithmetic', sentence: 'The finding page carries status counts (that agree with the findings it lists).', checks: ['ship.findings-status-counts'] },
  { id: '4.5.batch.credit-disabled', section: '4.5', kind: 'error', sentence: 'POST /api/ship/findings/batch with action=credit returns 400 INVALID_REQUEST with a remediation pointing to the per-finding credit endpoint.', checks: ['ship.batch-credit-disabled'] },
  { id: '4.5.batch.applies-action', section: '4.5', kind: 'state', sentence: 'The batch applies one workflow action to many findings (200 batch result).', unheld: { reason: 'its body fields are not shown ("body fields: not shown"), so a check cannot form a request the spec guarantees to apply' } },

  // Finding moves
  { id: '4.5.finding.moves-answer-finding', section: '4.5', kind: 'shape', sentence: 'dispute, dismiss, submit, carrier-review, credit, reject and reopen answer 200 with the finding in its next state.', checks: ['ship.finding-model', 'journeys.c'] },
  { id: '4.5.finding.credit-validation', section: '4.5', kind: 'error', sentence: 'credit answers 400 when amount is not positive or confirmation is missing or malformed.', checks: ['operations.creditFinding.rejects-invalid-input'], note: 'amount 0, a missing amount or confirmation, and each confirmation field missing or mistyped' },
  { id: '4.5.finding.credit-409', section: '4.5', kind: 'error', sentence: 'credit answers 409 from a state it does not move.', checks: ['ship.finding-model'] },

  // Claim submissions
  { id: '4.5.claim-create.created', section: '4.5', kind: 'shape', sentence: 'POST /api/ship/claims/submissions { carrier, findingIds (non-empty), notes? } answers 201 { submission } in DRAFT.', checks: ['ship.claim-rules', 'ship.submission-model', 'journeys.c'] },
  { id: '4.5.claim-create.non-empty', section: '4.5', kind: 'error', sentence: 'findingIds must be non-empty (else 400).', checks: ['operations.createClaimSubmission.rejects-invalid-input'] },
  { id: '4.5.claim-create.not-idempotent', section: '4.5', kind: 'state', sentence: 'Claim create is not idempotent: a retry can create a duplicate.', unheld: { reason: 'a permission ("can"), not a duty: a server that refuses the retry (rule 3) is as conformant as one that creates a duplicate' } },
  { id: '4.5.claim-list', section: '4.5', kind: 'state', sentence: 'GET /api/ship/claims/submissions (status, limit 1..200 default 50, offset) answers the list envelope; paging returns every submission once.', checks: ['ship.submissions-traversal', 'operations.listClaimSubmissions.rejects-invalid-input'] },
  { id: '4.5.claim-list.status-filter', section: '4.5', kind: 'state', sentence: 'The submissions list filters by status.', checks: ['ship.submissions-traversal'] },
  { id: '4.5.claim-detail', section: '4.5', kind: 'shape', sentence: 'GET .../submissions/:submissionId answers 200 { submission }.', checks: ['ship.submission-model', 'operations.getClaimSubmission.accepts-valid-input'] },
  { id: '4.5.claim.generate-packet', section: '4.5', kind: 'state', sentence: 'generate-packet answers 200 { submission } with packetUrl, status READY.', checks: ['ship.submission-model', 'journeys.c'] },
  { id: '4.5.claim.submit-reference', section: '4.5', kind: 'error', sentence: 'submit and acknowledge take a required non-empty externalReference: 400 when missing or empty.', checks: ['operations.submitClaimSubmission.rejects-invalid-input', 'operations.acknowledgeClaimSubmission.rejects-invalid-input'] },
  { id: '4.5.claim.confirm-credit-shape', section: '4.5', kind: 'error', sentence: 'confirm-credit { confirmation { source, referenceId, confirmedAt, notes?, artifactUrl? }, amountsByFinding?, reason? } answers 400 for an invalid confirmation shape.', checks: ['operations.confirmClaimSubmissionCredit.rejects-invalid-input'] },
  { id: '4.5.claim.confirm-credit-status', section: '4.5', kind: 'state', sentence: 'confirm-credit answers 200 { submission } with the status of 3.4.', checks: ['ship.submission-model', 'journeys.c'] },

  // Claim creation rules 1-5
  { id: '4.5.claim-create.only-eligible', section: '4.5', kind: 'state', sentence: 'Rule 1: only findings with claimEligibility ELIGIBLE can be bundled.', checks: ['ship.claim-eligibility', 'ship.claim-rules'] },
  { id: '4.5.claim-create.eligible-states', section: '4.5', kind: 'state', sentence: 'Rule 1: eligible workflow states are DISPUTED, SUBMITTED, CARRIER_REVIEW; OPEN, DISMISSED, CREDITED, REJECTED are ineligible.', checks: ['ship.claim-eligibility'] },
  { id: '4.5.claim-create.linked-ineligible', section: '4.5', kind: 'state', sentence: 'Rule 1: findings already linked to an active submission are ineligible.', checks: ['ship.claim-eligibility', 'ship.claim-rules'] },
  { id: '4.5.claim-create.invalid-finding-states', section: '4.5', kind: 'error', sentence: 'Rule 2: ineligible findings return 400 INVALID_REQUEST with details.invalidFindingStates naming each finding and its claimBlockerReason.', checks: ['ship.claim-rules'] },
  { id: '4.5.claim-create.duplicate-links', section: '4.5', kind: 'error', sentence: 'Rule 3: a finding linked to a submission not CREDIT_CONFIRMED, CLOSED or FAILED returns 409 ACTION_NOT_ALLOWED with details.duplicateLinks naming it.', checks: ['ship.claim-rules'] },
  { id: '4.5.claim-create.released-by-end', section: '4.5', kind: 'state', sentence: 'Rule 3: a finding of a CREDIT_CONFIRMED, CLOSED or FAILED submission can be bundled again.', checks: ['ship.claim-rules', 'ship.submission-model'], note: 'FAILED in ship.claim-rules; CLOSED frees the findings of each ship.submission-model sequence' },
  { id: '4.5.claim-create.subcode-carrier-blocked', section: '4.5', kind: 'error', sentence: 'Rule 4: a carrier the tenant policy blocks gives 409 with details subcode carrier_blocked.', checks: ['ship.claim-rules'] },
  { id: '4.5.claim-create.subcode-missing-findings', section: '4.5', kind: 'error', sentence: 'Rule 4: findingIds empty after filtering to the tenant give 409 with subcode missing_findings.', checks: ['ship.claim-rules'] },
  { id: '4.5.claim.subcode-invalid-transition', section: '4.5', kind: 'error', sentence: 'Rule 4: a refused transition carries the 409 details subcode invalid_transition.', checks: ['ship.finding-model', 'ship.submission-model'] },
  { id: '4.5.claim.subcode-invalid-finding-state', section: '4.5', kind: 'error', sentence: 'Rule 4: a 409 about a finding\'s state carries subcode invalid_finding_state.', unheld: { reason: 'the spec does not say which request answers 409 invalid_finding_state (ineligible findings are rule 2\'s 400), so no request is certain to provoke it' } },
  { id: '4.5.claim.per-finding-credit', section: '4.5', kind: 'state', sentence: 'Rule 5: after CREDIT_CONFIRMED, per-finding credits are recorded through the finding credit endpoint.', checks: ['journeys.c'] },
]);
