// Spec 3: states and transitions, one rule per row of each state table and per sentence under it.
import { defineRules } from './rule.js';

export const section3Rules = defineRules([
  // 3.1 Job
  { id: '3.1.job.enqueue-pending', section: '3.1', kind: 'state', sentence: 'An accepted enqueue answers 202 with jobId, and the job starts PENDING.', checks: ['jobs.lifecycle-model', 'uploads.accepted-receipt'] },
  { id: '3.1.job.pending-to-processing', section: '3.1', kind: 'state', sentence: 'PENDING moves to PROCESSING when the worker starts.', checks: ['jobs.lifecycle-model'] },
  { id: '3.1.job.completed-terminal', section: '3.1', kind: 'state', sentence: 'PROCESSING moves to COMPLETED on success; COMPLETED is terminal.', checks: ['jobs.lifecycle-model'] },
  { id: '3.1.job.failed-terminal', section: '3.1', kind: 'state', sentence: 'PROCESSING moves to FAILED on failure; FAILED is terminal.', checks: ['jobs.failed-job', 'jobs.lifecycle-model'] },
  { id: '3.1.job.completed-webhook', section: '3.1', kind: 'state', sentence: 'Reaching COMPLETED fires job.completed if a webhook is configured.', checks: ['webhooks.delivery'] },
  { id: '3.1.job.failed-webhook', section: '3.1', kind: 'state', sentence: 'Reaching FAILED fires job.failed if a webhook is configured.', checks: ['jobs.failed-job'] },

  // 3.2 Trade feed session
  { id: '3.2.feed.upload-uploaded', section: '3.2', kind: 'state', sentence: 'POST upload accepted: UPLOADED, the session and its normalization job created synchronously; 202.', checks: ['trade.feed-lifecycle-model', 'operations.uploadTradeFeed.accepts-valid-input'] },
  { id: '3.2.feed.normalizing', section: '3.2', kind: 'state', sentence: 'UPLOADED moves to NORMALIZING when normalization starts.', checks: ['trade.feed-lifecycle-model'] },
  { id: '3.2.feed.ready-without-blocking', section: '3.2', kind: 'state', sentence: 'NORMALIZING moves to READY when normalization completes with no blocking issues; READY is eligible for classify-preview and apply.', checks: ['trade.feed-lifecycle-model', 'journeys.b'] },
  { id: '3.2.feed.preview-blocked', section: '3.2', kind: 'state', sentence: 'NORMALIZING moves to PREVIEW_BLOCKED when normalization surfaced issues needing acknowledgement (a state, not an error).', checks: ['trade.feed-issues', 'trade.feed-lifecycle-model'] },
  { id: '3.2.feed.failed', section: '3.2', kind: 'state', sentence: 'NORMALIZING moves to FAILED when normalization errored; the reason is in session detail and issues; no public retry.', checks: ['trade.normalization-end-state'] },
  { id: '3.2.feed.end-state-per-file', section: '3.2', kind: 'state', sentence: 'Which end state normalization reaches follows the file: no issues READY, non-blocking issues PREVIEW_BLOCKED, blocking issues PREVIEW_BLOCKED (never READY).', checks: ['trade.feed-issues', 'journeys.b'], note: 'a file with blocking issues ends PREVIEW_BLOCKED and a clean file READY; a file with only non-blocking issues is not judged by its end state' },
  { id: '3.2.feed.non-blocking-not-ready', section: '3.2', kind: 'state', sentence: 'Normalization that surfaced issues needing acknowledgement ends PREVIEW_BLOCKED, not READY, until the last one is acknowledged.', checks: ['trade.normalization-end-state'] },
  { id: '3.2.feed.acknowledge-ready', section: '3.2', kind: 'state', sentence: 'PREVIEW_BLOCKED moves to READY when the operator acknowledges the last non-blocking issue (dashboard only); preview and apply become available.', checks: ['trade.acknowledgement'] },
  { id: '3.2.feed.apply-applied', section: '3.2', kind: 'state', sentence: 'READY moves to APPLIED on POST apply with a current reviewed snapshot; APPLIED is terminal and its rows are written to the tenant catalog.', checks: ['trade.feed-lifecycle-model', 'journeys.b', 'trade.stale-snapshot'] },
  { id: '3.2.feed.blocking-not-acknowledged', section: '3.2', kind: 'state', sentence: 'Blocking issues cannot be acknowledged; a session with any unresolved blocking issue stays PREVIEW_BLOCKED.', checks: ['trade.acknowledgement', 'trade.feed-issues'] },
  { id: '3.2.feed.direct-apply-shortcut', section: '3.2', kind: 'state', sentence: 'A PREVIEW_BLOCKED session with applyable true, issueCount 0 and blockingIssueCount 0 may go directly to apply.', checks: ['trade.feed-lifecycle-model'] },
  { id: '3.2.feed.terminal-for-polling', section: '3.2', kind: 'state', sentence: 'READY, PREVIEW_BLOCKED, FAILED and APPLIED are terminal for polling.', checks: ['trade.feed-lifecycle-model'] },

  // 3.3 Ship finding
  { id: '3.3.finding.dispute', section: '3.3', kind: 'state', sentence: 'OPEN moves to DISPUTED on POST dispute.', checks: ['ship.finding-model', 'journeys.c'] },
  { id: '3.3.finding.dismiss', section: '3.3', kind: 'state', sentence: 'OPEN moves to DISMISSED on POST dismiss.', checks: ['ship.finding-model'] },
  { id: '3.3.finding.submit', section: '3.3', kind: 'state', sentence: 'DISPUTED moves to SUBMITTED on POST submit.', checks: ['ship.finding-model'] },
  { id: '3.3.finding.carrier-review', section: '3.3', kind: 'state', sentence: 'SUBMITTED moves to CARRIER_REVIEW on POST carrier-review.', checks: ['ship.finding-model'] },
  { id: '3.3.finding.credit-terminal', section: '3.3', kind: 'state', sentence: 'A valid credit request moves a finding to CREDITED (terminal); its source states are not shown.', checks: ['ship.finding-model', 'journeys.c'] },
  { id: '3.3.finding.reject-terminal', section: '3.3', kind: 'state', sentence: 'POST reject moves a finding to REJECTED (terminal); its source states are not shown.', checks: ['ship.finding-model'] },
  { id: '3.3.finding.reopen', section: '3.3', kind: 'state', sentence: 'POST reopen moves a terminal or in-flight finding to OPEN.', checks: ['ship.finding-model'] },
  { id: '3.3.finding.disallowed-409', section: '3.3', kind: 'error', sentence: 'A disallowed transition returns 409 ACTION_NOT_ALLOWED.', checks: ['ship.finding-model'] },

  // 3.4 Claim submission
  { id: '3.4.submission.create-draft', section: '3.4', kind: 'state', sentence: 'POST create with non-empty eligible findingIds makes a DRAFT submission.', checks: ['ship.submission-model', 'ship.claim-eligibility', 'journeys.c'] },
  { id: '3.4.submission.generate-packet', section: '3.4', kind: 'state', sentence: 'generate-packet moves DRAFT to READY; packetUrl becomes available.', checks: ['ship.submission-model', 'journeys.c'] },
  { id: '3.4.submission.submit', section: '3.4', kind: 'state', sentence: 'submit with a non-empty externalReference moves READY to SUBMITTED and sets submittedAt.', checks: ['ship.submission-model', 'journeys.c'] },
  { id: '3.4.submission.acknowledge', section: '3.4', kind: 'state', sentence: 'acknowledge with a non-empty externalReference moves SUBMITTED to ACKNOWLEDGED and sets acknowledgedAt.', checks: ['ship.submission-model', 'journeys.c'] },
  { id: '3.4.submission.all-credited', section: '3.4', kind: 'state', sentence: 'confirm-credit with all findings credited moves SUBMITTED, ACKNOWLEDGED or FAILED to CREDIT_CONFIRMED, sets creditConfirmedAt; terminal success.', checks: ['ship.submission-model', 'journeys.c'] },
  { id: '3.4.submission.all-failed', section: '3.4', kind: 'state', sentence: 'confirm-credit with all findings failed moves to FAILED, sets failedAt and failureReason; confirm-credit may be called again.', checks: ['ship.submission-model', 'ship.claim-rules'] },
  { id: '3.4.submission.partial-submitted', section: '3.4', kind: 'state', sentence: 'confirm-credit with partial results leaves SUBMITTED unchanged.', checks: ['ship.submission-model'] },
  { id: '3.4.submission.partial-acknowledged', section: '3.4', kind: 'state', sentence: 'confirm-credit with partial results from ACKNOWLEDGED or FAILED gives ACKNOWLEDGED.', checks: ['ship.submission-model'] },
  { id: '3.4.submission.step-failure', section: '3.4', kind: 'state', sentence: 'A failure at packet generation, submission or credit confirmation moves the submission to FAILED.', unheld: { reason: 'a client cannot make packet generation or a carrier submission fail on the server; ship.submission-model accepts FAILED there, and the credit-confirmation failure is the all-failed row (3.4.submission.all-failed)' } },
  { id: '3.4.submission.closed', section: '3.4', kind: 'state', sentence: 'An operator close (administrative) makes a submission CLOSED: terminal, never reopened; no public operation.', checks: ['ship.submission-model'], note: 'simulator profile: the close is the control API\'s; every move after it must be 409' },
  { id: '3.4.submission.non-source-409', section: '3.4', kind: 'error', sentence: 'A transition requested from a non-source state returns 409 ACTION_NOT_ALLOWED.', checks: ['ship.submission-model'] },
  { id: '3.4.submission.findings-independent', section: '3.4', kind: 'state', sentence: 'Creating a submission does not change the state of the findings; the finding and submission workflows are independent.', checks: ['journeys.c'] },
  { id: '3.4.submission.credit-confirmed-not-billing', section: '3.4', kind: 'state', sentence: 'A submission-level CREDIT_CONFIRMED does not replace the per-finding credit endpoint (the billing record): it credits no finding.', checks: ['journeys.c'] },

  // 3.5 Other state sets
  { id: '3.5.sima.workflow-values', section: '3.5', kind: 'shape', sentence: 'SIMA workflowStatus values are OPEN, OVERRIDDEN, ACCEPTED, DISMISSED; transitions not shown.', checks: ['operations.listSimaResults.accepts-valid-input', 'sima.results-filters-hold'] },
  { id: '3.5.sima.rescreen-keeps-decision', section: '3.5', kind: 'state', sentence: "SIMA transitions are not shown, so what a re-screening does to a reviewer's workflowStatus is left open.", unheld: { reason: 'the spec gives no SIMA workflow transition and no public operation that sets one; a reviewer\'s decision is dashboard-side' } },
  { id: '3.5.signup.statuses', section: '3.5', kind: 'shape', contract: 'v1.2.0', sentence: 'Signup statuses are PENDING_EMAIL_VERIFICATION, EMAIL_VERIFIED, PROVISIONING, PROVISIONED, REVIEW_REQUIRED, FAILED, EXPIRED.', checks: ['signup.lifecycle-model'] },
  { id: '3.5.signup.created-pending', section: '3.5', kind: 'state', contract: 'v1.2.0', sentence: 'Creating a session yields PENDING_EMAIL_VERIFICATION.', checks: ['signup.lifecycle-model'] },
  { id: '3.5.signup.verified', section: '3.5', kind: 'state', contract: 'v1.2.0', sentence: 'A successful verify call yields EMAIL_VERIFIED.', checks: ['signup.provision-flow', 'signup.lifecycle-model'] },
]);
