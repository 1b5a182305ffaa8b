// Mutations derived from the spec-rule inventory (issue 27 item 3): a reviewed list keyed by rule id
// (conformance/spec-rules), written by walking the held rules that had no mutation and asking, for each,
// what small edit of the simulator a vendor's build could plausibly contain that breaks the rule's sentence
// over HTTP. Each entry's key is the rule it was written for; `also` names other rules the same edit breaks.
// The rule-keyed run (`npm run conform:mutate`) gives each mutant exactly the checks holding its rules, so a
// kill means those checks see the break. Like mutations.ts: each `find` occurs exactly once in its file.
import type { Mutation } from './mutation.js';

/** One mutation of the list: its rules are the key it is listed under, then `also`; or none, when a run
 * showed the spec allows the edit (`sandboxDefined`: then it stays under the rule it was written for, with
 * why the sentence does not decide it, and is scored apart). */
type RuleMutation = Omit<Mutation, 'rules'> & { also?: string[] };

const FINDINGS = 'simulator/domains/ship/finding.machine.ts';
const FINDING_ROUTES = 'simulator/domains/ship/finding.routes.ts';
const CLAIMS = 'simulator/domains/ship/claim.machine.ts';
const CLAIM_ROUTES = 'simulator/domains/ship/claim.routes.ts';
const FEED = 'simulator/domains/trade/feed-session.machine.ts';
const JOB_WORKER = 'simulator/domains/jobs/job.worker.ts';
const SIMA_REPORT = 'simulator/domains/sima/sima-report.ts';
const SIMA_RESULTS = 'simulator/domains/sima/sima-results.routes.ts';
const DISPATCHER = 'simulator/domains/webhooks/dispatcher.ts';
const WEBHOOK_CONFIG = 'simulator/domains/webhooks/webhook-config.ts';
const LANDED_ENGINE = 'simulator/domains/landed-cost/engine.ts';
const SHIP_UPLOADS = 'simulator/domains/ship/upload.routes.ts';
const SIMA_UPLOADS = 'simulator/domains/sima/upload.routes.ts';
const BILLING = 'simulator/domains/billing/setup-session.routes.ts';
const VALIDATE = 'simulator/kernel/http/validate-request.ts';

export const RULE_MUTATIONS: Record<string, RuleMutation[]> = {
  // ---- spec 2: resources ----
  '2.2.job.progress-failed': [
    {
      id: 'state-machine.failed-job-progress-negative',
      family: 'state-machine',
      file: JOB_WORKER,
      find: 'return { ...job, status, error: deps.defects.at(JOBS_HOOKS.failureError',
      replace: 'return { ...job, status, progress: -1, error: deps.defects.at(JOBS_HOOKS.failureError',
      visible: 'spec 2.2: progress is an integer 0..100 on every job; the mutation marks a FAILED job with progress -1.',
    },
  ],
  '2.2.job.timestamps': [
    {
      id: 'response-shape.job-updated-at-not-moved-on-finish',
      family: 'response-shape',
      file: JOB_WORKER,
      find: '          error: null,\n          updatedAt: now,',
      replace: '          error: null,\n          updatedAt: job.createdAt,',
      visible: 'spec 2.2: updatedAt moves with the job; the mutation sets a COMPLETED job\'s updatedAt back to its createdAt.',
    },
  ],
  '2.3.receipt.sima-batch': [
    {
      id: 'response-shape.sima-batch-receipt-without-message',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima.routes.ts',
      find: "status: job.status, message: 'SIMA screening batch accepted', replayed: false",
      replace: 'status: job.status, replayed: false',
      visible: 'spec 2.3: the SIMA batch receipt has jobId, status, message and replayed; the mutation drops message.',
    },
  ],
  '4.2.batch.accepted': [
    {
      id: 'response-shape.sima-batch-answers-200',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima.routes.ts',
      find: "return { status: 202, body: { jobId: job.id, status: job.status, message: 'SIMA screening batch accepted'",
      replace: "return { status: 200, body: { jobId: job.id, status: job.status, message: 'SIMA screening batch accepted'",
      visible: 'spec 4.2: POST /api/sima/batch answers 202 (job accepted); the mutation answers 200.',
    },
  ],
  '2.3.receipt.upload': [
    {
      id: 'response-shape.sima-upload-receipt-without-file-name',
      family: 'response-shape',
      file: SIMA_UPLOADS,
      find: 'replayed: false, fileName: upload.fileName,',
      replace: 'replayed: false,',
      visible: 'spec 2.3: the /api/upload (and catalog) receipt is the job receipt plus fileName; the mutation leaves fileName out.',
      also: ['2.3.receipt.echoes-request'],
    },
  ],
  '2.3.receipt.catalog': [
    {
      id: 'response-shape.catalog-receipt-without-source-adapter',
      family: 'response-shape',
      file: SIMA_UPLOADS,
      find: '...(receipt.sourceAdapter ? { sourceAdapter: receipt.sourceAdapter } : {})',
      replace: '...{}',
      visible: 'spec 2.3: the catalog upload receipt adds sourceAdapter; the mutation leaves it out.',
    },
  ],
  '2.3.receipt.ship-pending': [
    {
      id: 'response-shape.ship-receipt-status-queued',
      family: 'response-shape',
      file: SHIP_UPLOADS,
      find: "return { jobId: job.id, fileName: upload.fileName, status: 'PENDING' as const };",
      replace: "return { jobId: job.id, fileName: upload.fileName, status: 'QUEUED' as const };",
      visible: 'spec 2.3: a ship or carrier-agreement upload receipt has status, always PENDING; the mutation answers QUEUED.',
    },
  ],
  '2.3.receipt.echoes-request': [
    {
      id: 'response-shape.ship-receipt-names-stored-file',
      family: 'response-shape',
      file: SHIP_UPLOADS,
      find: "return { jobId: job.id, fileName: upload.fileName, status: 'PENDING' as const };",
      replace: "return { jobId: job.id, fileName: `${job.id}.csv`, status: 'PENDING' as const };",
      visible: "spec 2.3: the receipt's fileName is the uploaded file's name; the mutation answers the name the server stored it under.",
    },
    {
      id: 'response-shape.order-receipt-ingest-mode-constant',
      family: 'response-shape',
      file: SHIP_UPLOADS,
      find: '(file) => ({ file, ingestMode }))), ingestMode } };',
      replace: "(file) => ({ file, ingestMode }))), ingestMode: 'PATCH' } };",
      visible: 'spec 2.3: the order receipt echoes the ingestMode sent; the mutation always answers PATCH (SNAPSHOT sent).',
      also: ['2.3.receipt.order-ingest-mode'],
    },
  ],
  '2.4.result.combined-rate-one-absent': [
    {
      id: 'domain-rule.sima-combined-rate-needs-both',
      family: 'domain-rule',
      file: 'simulator/domains/sima/screening.ts',
      find: 'const combinedRate = adRate === null && cvdRate === null ? null',
      replace: 'const combinedRate = adRate === null || cvdRate === null ? null',
      visible: 'spec 2.4: with only one of adRate and cvdRate the combined rate is that rate; the mutation answers null.',
    },
  ],
  '2.4.evidence.current-result': [
    {
      id: 'domain-rule.sima-evidence-shows-first-screening',
      family: 'domain-rule',
      file: SIMA_RESULTS,
      find: 'simaEvidence(deps.defects.at(SIMA_HOOKS.evidenceShows, current, { history }), history, item)',
      replace: 'simaEvidence(deps.defects.at(SIMA_HOOKS.evidenceShows, history[0] ?? current, { history }), history, item)',
      visible: "spec 2.4, 4.2: a SKU's evidence is about its result as listed; after a re-screening the mutation shows the first screening.",
    },
  ],
  '2.4.report.totals-count-rows': [
    {
      id: 'domain-rule.sima-report-total-exposures-counts-outcomes',
      family: 'domain-rule',
      file: SIMA_REPORT,
      find: 'totalExposures: exposures.length,',
      replace: 'totalExposures: outcomes.length,',
      visible: 'spec 2.4: totalExposures counts the exposures the report lists (AT_RISK only); the mutation counts every outcome.',
    },
  ],
  '2.5.session.fields': [
    {
      id: 'response-shape.feed-ready-not-applyable',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-session.response.ts',
      find: "return s.status === 'READY' || (s.status === 'PREVIEW_BLOCKED'",
      replace: "return s.status === 'APPLIED' || (s.status === 'PREVIEW_BLOCKED'",
      visible: 'spec 2.5, 3.2: a READY session is eligible for apply (applyable true); the mutation reads READY as not applyable.',
      also: ['3.2.feed.ready-without-blocking'],
    },
  ],
  '2.6.finding.explanation-fields': [
    {
      id: 'response-shape.finding-without-explanation',
      family: 'response-shape',
      file: 'simulator/domains/ship/finding.response.ts',
      find: '    ...explanation,\n    headline: f.headline,',
      replace: '    headline: f.headline,',
      visible: 'spec 2.6: a finding names claimEligibility, claimBlockerReason and actionability; the mutation leaves them out.',
    },
  ],
  '2.6.credit.records-amount': [
    {
      id: 'domain-rule.finding-credit-records-recoverable-amount',
      family: 'domain-rule',
      file: FINDING_ROUTES,
      find: '{ amount: credit!.amount, confirmation: credit!.confirmation, creditedAt: now }',
      replace: '{ amount: f.recoverableAmount, confirmation: credit!.confirmation, creditedAt: now }',
      visible: "spec 2.6: the credit endpoint records the amount confirmed; the mutation records the finding's recoverable amount instead.",
    },
  ],
  '2.7.submission.packet-url': [
    {
      id: 'response-shape.packet-url-only-while-ready',
      family: 'response-shape',
      file: 'simulator/domains/ship/claim.response.ts',
      find: 'packetUrl: record.packetUrl,',
      replace: "packetUrl: record.status === 'READY' ? record.packetUrl : null,",
      visible: 'spec 2.7: packetUrl is set once READY and stays; the mutation shows it only while READY.',
    },
  ],
  '2.7.submission.failed-fields': [
    {
      id: 'response-shape.failed-submission-without-reason',
      family: 'response-shape',
      file: CLAIM_ROUTES,
      find: "failureReason: body.reason?.trim() || 'the carrier credited none of the findings' }",
      replace: 'failureReason: null }',
      visible: 'spec 2.7, 3.4: failureReason is set when the submission becomes FAILED; the mutation leaves it null.',
    },
  ],
  '2.7.submission.keeps-request': [
    {
      id: 'domain-rule.claim-keeps-first-finding-only',
      family: 'domain-rule',
      file: CLAIM_ROUTES,
      find: 'found.map((f) => f.id))]',
      replace: 'found.map((f) => f.id).slice(0, 1))]',
      visible: 'spec 2.7: findingIds are the ones the submission was created with; the mutation keeps only the first.',
    },
  ],
  '2.8.billing.tenant-id': [
    {
      id: 'response-shape.billing-tenant-id-is-key-id',
      family: 'response-shape',
      file: BILLING,
      find: 'body: { tenantId: tenant.id, setupIntentId: intent.id, clientSecret, paymentCustomerId },',
      replace: 'body: { tenantId: request.principal.keyId ?? tenant.id, setupIntentId: intent.id, clientSecret, paymentCustomerId },',
      visible: "spec 2.8: tenantId is the calling tenant's id; the mutation answers the integration key's id.",
    },
  ],
  '4.1.billing.created-201': [
    {
      id: 'response-shape.billing-answers-200',
      family: 'response-shape',
      file: BILLING,
      find: 'status: 201,\n        body: { tenantId',
      replace: 'status: 200,\n        body: { tenantId',
      visible: 'spec 4.1: billing setup answers 201; the mutation answers 200.',
    },
  ],

  // ---- spec 3: states ----
  '3.1.job.completed-terminal': [
    {
      id: 'state-machine.job-success-reads-failed',
      family: 'state-machine',
      file: 'simulator/domains/jobs/job.machine.ts',
      find: "{ from: ['PROCESSING'], action: 'succeed', to: 'COMPLETED' },",
      replace: "{ from: ['PROCESSING'], action: 'succeed', to: 'FAILED' },",
      visible: 'spec 3.1: PROCESSING moves to COMPLETED on success; the mutation ends a successful job FAILED.',
      also: ['2.2.job.progress-100-completed'],
    },
  ],
  '3.1.job.enqueue-pending': [
    {
      id: 'state-machine.job-created-processing',
      family: 'state-machine',
      file: 'simulator/domains/jobs/job.store.ts',
      find: "status: 'PENDING',\n        progress: 0,",
      replace: "status: 'PROCESSING',\n        progress: 0,",
      visible: 'spec 3.1: an accepted enqueue starts PENDING; the mutation creates the job PROCESSING (and the worker never picks it up).',
      also: ['3.1.job.pending-to-processing'],
    },
  ],
  '3.2.feed.upload-uploaded': [
    {
      id: 'state-machine.feed-upload-receipt-normalizing',
      family: 'state-machine',
      file: 'simulator/domains/trade/feed-upload.routes.ts',
      find: "status: 'UPLOADED' as const, fileName: upload.fileName",
      replace: "status: 'NORMALIZING' as const, fileName: upload.fileName",
      visible: 'spec 3.2: an accepted feed upload answers 202 with the session UPLOADED; the mutation answers NORMALIZING.',
      also: ['4.4.upload.accepted'],
    },
  ],
  '3.2.feed.preview-blocked': [
    {
      id: 'state-machine.feed-issues-end-ready',
      family: 'state-machine',
      file: FEED,
      find: "{ from: ['NORMALIZING'], action: 'finish_blocked', to: 'PREVIEW_BLOCKED' },",
      replace: "{ from: ['NORMALIZING'], action: 'finish_blocked', to: 'READY' },",
      visible: 'spec 3.2: normalization that surfaced issues ends PREVIEW_BLOCKED; the mutation ends it READY.',
      also: ['3.2.feed.end-state-per-file', '3.2.feed.non-blocking-not-ready', '3.2.feed.blocking-not-acknowledged'],
    },
  ],
  '3.2.feed.failed': [
    {
      id: 'state-machine.feed-failure-reads-blocked',
      family: 'state-machine',
      file: FEED,
      find: "{ from: ['UPLOADED', 'NORMALIZING'], action: 'fail', to: 'FAILED' },",
      replace: "{ from: ['UPLOADED', 'NORMALIZING'], action: 'fail', to: 'PREVIEW_BLOCKED' },",
      visible: 'spec 3.2: normalization that errored ends FAILED; the mutation ends it PREVIEW_BLOCKED.',
      sandboxDefined: {
        why: "written for 3.2.feed.failed; a run showed the spec leaves it open: which files error (FAILED) rather than surface a blocking issue (PREVIEW_BLOCKED) is the deployment's, so ending an unreadable feed PREVIEW_BLOCKED with its blocking issue breaks no sentence; FAILED for it is the sandbox's choice",
        checks: ['trade.normalization-end-state'],
      },
      survives: {
        kind: 'acceptable',
        why: "the feed the check makes fail (no SKU column) ends PREVIEW_BLOCKED with its blocking file_unreadable issue listed: whether a file errors (FAILED) or surfaces a blocking issue (PREVIEW_BLOCKED) is the deployment's call (spec 3.2 gives no file that must fail; trade.normalization-end-state: which issues a deployment raises is its own), so the mutant is a fair server (run 2026-11-27).",
      },
    },
    {
      id: 'response-shape.feed-failed-without-reason',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-normalize.processor.ts',
      find: 'failureReason: reason, issueCount: counts.issues',
      replace: 'failureReason: null, issueCount: counts.issues',
      visible: 'spec 3.2, 2.5: a FAILED session carries its reason in session detail and issues; the mutation fails the session without the reason on its detail.',
    },
  ],
  '3.2.feed.acknowledge-ready': [
    {
      id: 'state-machine.feed-acknowledged-stays-blocked',
      family: 'state-machine',
      file: FEED,
      find: "{ from: ['PREVIEW_BLOCKED'], action: 'acknowledge_last', to: 'READY' },",
      replace: "{ from: ['PREVIEW_BLOCKED'], action: 'acknowledge_last', to: 'PREVIEW_BLOCKED' },",
      visible: 'spec 3.2: acknowledging the last non-blocking issue moves PREVIEW_BLOCKED to READY; the mutation leaves it PREVIEW_BLOCKED.',
    },
  ],
  '4.4.apply.applied': [
    {
      id: 'state-machine.feed-apply-stays-ready',
      family: 'state-machine',
      file: FEED,
      find: "{ from: ['READY'], action: 'apply', to: 'APPLIED' },",
      replace: "{ from: ['READY'], action: 'apply', to: 'READY' },",
      visible: 'spec 3.2, 4.4: apply moves READY to APPLIED (the answer says APPLIED); the mutation leaves the session READY.',
      also: ['3.2.feed.apply-applied'],
    },
  ],
  '4.4.preview.not-ready-409': [
    {
      id: 'state-machine.feed-preview-while-blocked',
      family: 'state-machine',
      file: FEED,
      find: "{ from: ['READY'], action: 'classify_preview', to: 'READY' },",
      replace: "{ from: ['READY', 'PREVIEW_BLOCKED'], action: 'classify_preview', to: 'READY' },",
      visible: 'spec 4.4: classify-preview answers 409 when the session is not READY; the mutation starts a preview on a PREVIEW_BLOCKED session.',
      also: ['7.action-not-allowed.not-ready'],
    },
  ],
  '3.3.finding.dispute': [
    {
      id: 'state-machine.finding-dispute-submits',
      family: 'state-machine',
      file: FINDINGS,
      find: "{ from: ['OPEN'], action: 'dispute', to: 'DISPUTED' },",
      replace: "{ from: ['OPEN'], action: 'dispute', to: 'SUBMITTED' },",
      visible: 'spec 3.3: dispute moves OPEN to DISPUTED; the mutation moves it to SUBMITTED.',
      also: ['4.5.finding.moves-answer-finding'],
    },
  ],
  '3.3.finding.credit-terminal': [
    {
      id: 'state-machine.finding-credit-to-carrier-review',
      family: 'state-machine',
      file: FINDINGS,
      find: "action: 'credit', to: 'CREDITED' },",
      replace: "action: 'credit', to: 'CARRIER_REVIEW' },",
      visible: 'spec 3.3: a valid credit request moves a finding to CREDITED; the mutation leaves it in CARRIER_REVIEW.',
    },
  ],
  '4.5.finding.credit-409': [
    {
      id: 'state-machine.finding-credited-twice',
      family: 'state-machine',
      file: FINDINGS,
      find: "{ from: ['SUBMITTED', 'CARRIER_REVIEW'], action: 'credit', to: 'CREDITED' },",
      replace: "{ from: ['SUBMITTED', 'CARRIER_REVIEW', 'CREDITED'], action: 'credit', to: 'CREDITED' },",
      visible: 'spec 3.3, 4.5: CREDITED is terminal and credit answers 409 from a state it does not move; the mutation records a second credit on a CREDITED finding.',
      also: ['3.3.finding.disallowed-409'],
      sandboxDefined: {
        why: "written for 4.5.finding.credit-409; a run showed the spec leaves it open: credit's source states are not shown (3.3), and a second credit keeps the finding in its terminal CREDITED; refusing it (409) is the sandbox's choice",
        checks: ['ship.finding-model'],
      },
      survives: {
        kind: 'acceptable',
        why: "spec 3.3 leaves credit's source states unshown: a second credit that keeps a CREDITED finding CREDITED moves it nowhere out of its terminal state, and ship.finding-model judges credit only where the spec says where it goes; whether it records a second credit is the deployment's (run 2026-11-27).",
      },
    },
    {
      id: 'state-machine.finding-rejected-credited',
      family: 'state-machine',
      file: FINDINGS,
      find: "{ from: ['SUBMITTED', 'CARRIER_REVIEW'], action: 'credit', to: 'CREDITED' },",
      replace: "{ from: ['SUBMITTED', 'CARRIER_REVIEW', 'REJECTED'], action: 'credit', to: 'CREDITED' },",
      visible: 'spec 3.3, 4.5: REJECTED is terminal and credit answers 409 from a state it does not move; the mutation credits a REJECTED finding (200 CREDITED).',
      also: ['3.3.finding.reject-terminal'],
    },
  ],
  '3.3.finding.reject-terminal': [
    {
      id: 'state-machine.finding-reject-dismisses',
      family: 'state-machine',
      file: FINDINGS,
      find: "action: 'reject', to: 'REJECTED' },",
      replace: "action: 'reject', to: 'DISMISSED' },",
      visible: 'spec 3.3: reject moves a finding to REJECTED; the mutation moves it to DISMISSED.',
    },
  ],
  '3.4.submission.create-draft': [
    {
      id: 'state-machine.claim-created-ready',
      family: 'state-machine',
      file: CLAIM_ROUTES,
      find: "status: 'DRAFT', carrier,",
      replace: "status: 'READY', carrier,",
      visible: 'spec 3.4, 4.5: create makes a DRAFT submission; the mutation creates it READY.',
      also: ['4.5.claim-create.created'],
    },
  ],
  '3.4.submission.generate-packet': [
    {
      id: 'state-machine.claim-packet-submits',
      family: 'state-machine',
      file: CLAIMS,
      find: "{ from: ['DRAFT'], action: 'generate-packet', to: 'READY' },",
      replace: "{ from: ['DRAFT'], action: 'generate-packet', to: 'SUBMITTED' },",
      visible: 'spec 3.4, 4.5: generate-packet moves DRAFT to READY; the mutation moves it to SUBMITTED.',
      also: ['4.5.claim.generate-packet'],
    },
  ],
  '3.4.submission.submit': [
    {
      id: 'state-machine.claim-submit-from-draft',
      family: 'state-machine',
      file: CLAIMS,
      find: "{ from: ['READY'], action: 'submit', to: 'SUBMITTED' },",
      replace: "{ from: ['DRAFT', 'READY'], action: 'submit', to: 'SUBMITTED' },",
      visible: 'spec 3.4: submit moves READY only; from DRAFT it is 409 (the mutation submits a DRAFT without a packet).',
      also: ['3.4.submission.non-source-409'],
    },
    {
      id: 'response-shape.submitted-at-unset',
      family: 'response-shape',
      file: CLAIM_ROUTES,
      find: 'externalReference: body.externalReference.trim(), submittedAt: now }',
      replace: 'externalReference: body.externalReference.trim(), submittedAt: null }',
      visible: 'spec 2.7, 3.4: submit sets submittedAt; the mutation leaves it null.',
      also: ['2.7.submission.stamps-on-transition'],
    },
  ],
  '3.4.submission.partial-acknowledged': [
    {
      id: 'state-machine.claim-partial-keeps-failed',
      family: 'state-machine',
      file: CLAIMS,
      find: "return current === 'SUBMITTED' ? 'SUBMITTED' : 'ACKNOWLEDGED';",
      replace: 'return current;',
      visible: 'spec 3.4: a partial confirm-credit from FAILED gives ACKNOWLEDGED; the mutation leaves it FAILED.',
    },
  ],
  '3.4.submission.closed': [
    {
      id: 'state-machine.claim-closed-confirms-credit',
      family: 'state-machine',
      file: CLAIMS,
      find: "{ from: ['SUBMITTED', 'ACKNOWLEDGED', 'FAILED'], action: 'confirm-credit', to: afterConfirmCredit },",
      replace: "{ from: ['SUBMITTED', 'ACKNOWLEDGED', 'FAILED', 'CLOSED'], action: 'confirm-credit', to: afterConfirmCredit },",
      visible: 'spec 3.4: CLOSED is terminal, never reopened; the mutation lets confirm-credit move a CLOSED submission.',
    },
  ],

  // ---- spec 4.2: SIMA ----
  '4.2.report.filter-values': [
    {
      id: 'domain-rule.sima-report-flagged-includes-cleared',
      family: 'domain-rule',
      file: SIMA_REPORT,
      find: "const FLAGGED: readonly SimaOutcome[] = ['AT_RISK', 'NEEDS_REVIEW'];",
      replace: "const FLAGGED: readonly SimaOutcome[] = ['AT_RISK', 'NEEDS_REVIEW', 'CLEARED'];",
      visible: 'spec 4.2: filter=flagged yields only AT_RISK and NEEDS_REVIEW outcomes; the mutation lists CLEARED too.',
    },
  ],
  '4.2.report.json-default': [
    {
      id: 'domain-rule.sima-report-csv-by-default',
      family: 'domain-rule',
      file: SIMA_RESULTS,
      find: "if (query.format === 'csv') return",
      replace: "if (query.format !== 'json') return",
      visible: 'spec 4.2: the report is JSON by default; the mutation answers CSV when format is omitted.',
    },
  ],
  '4.2.report.csv': [
    {
      id: 'response-shape.sima-report-csv-as-json-type',
      family: 'response-shape',
      file: SIMA_RESULTS,
      find: "contentType: 'text/csv; charset=utf-8' };",
      replace: "contentType: 'application/json' };",
      visible: 'spec 4.2: format=csv answers CSV text; the mutation labels it application/json.',
    },
  ],
  '4.2.report.csv-rows-equal-json': [
    {
      id: 'domain-rule.sima-report-csv-skips-cleared',
      family: 'domain-rule',
      file: SIMA_REPORT,
      find: 'records.map((r) => Object.fromEntries(columns.map((column) => [column, r[column]]))),',
      replace: "records.filter((r) => r.outcome !== 'CLEARED').map((r) => Object.fromEntries(columns.map((column) => [column, r[column]]))),",
      visible: 'spec 4.2: the CSV report lists the outcomes of the JSON report, one row each; the mutation leaves CLEARED results out of the CSV.',
    },
  ],
  '4.2.report.csv-values': [
    {
      id: 'domain-rule.sima-report-csv-exposure-whole-units',
      family: 'domain-rule',
      file: SIMA_REPORT,
      find: 'records.map((r) => Object.fromEntries(columns.map((column) => [column, r[column]]))),',
      replace: "records.map((r) => Object.fromEntries(columns.map((column) => [column, column === 'exposureAnnual' && typeof r.exposureAnnual === 'number' ? Math.round(r.exposureAnnual) : r[column]]))),",
      visible: "spec 4.2: the numbers of each CSV row are those of its result; the mutation rounds exposureAnnual to whole units.",
      survives: {
        kind: 'gap',
        why: "sima.report-rows-match-results compares each CSV exposureAnnual within 0.01, but the exposures of the run's results were whole numbers or null, so rounding changed none of them; a screened value with cents would show it (run 2026-11-27).",
      },
    },
  ],
  '4.2.evidence.unknown-404': [
    {
      id: 'errors.sima-evidence-unknown-sku-400',
      family: 'errors',
      file: SIMA_RESULTS,
      find: "if (!current) throw notFound('SIMA result');",
      replace: "if (!current) throw invalidRequest('no SIMA result for this sku', 'sku');",
      visible: 'spec 4.2, 7: evidence of a SKU without a result is 404 NOT_FOUND; the mutation answers 400 INVALID_REQUEST.',
      also: ['7.not-found.absent'],
    },
  ],

  // ---- spec 4.4: trade feeds ----
  '4.4.review.persisted': [
    {
      id: 'state-machine.feed-review-not-pinned',
      family: 'state-machine',
      file: 'simulator/domains/trade/feed-preview.routes.ts',
      find: '({ ...s, reviewedSnapshotId: snapshotId, updatedAt: reviewedAt })',
      replace: '({ ...s, updatedAt: reviewedAt })',
      visible: "spec 4.4: the review pins the snapshot apply's staleness check uses; the mutation stores the review without pinning it, so a stale review applies.",
      also: ['4.4.apply.stale-409', '7.action-not-allowed.stale-snapshot'],
    },
  ],
  '4.4.preview.accepted': [
    {
      id: 'response-shape.feed-preview-answers-200',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-preview.routes.ts',
      find: 'return { status: 202, body: { jobId: job!.id, previewJobId: job!.id } };',
      replace: 'return { status: 200, body: { jobId: job!.id, previewJobId: job!.id } };',
      visible: 'spec 4.4: classify-preview answers 202 with jobId and previewJobId; the mutation answers 200.',
    },
  ],
  '4.4.apply.rows-written': [
    {
      id: 'domain-rule.feed-apply-writes-provided-hs',
      family: 'domain-rule',
      file: 'simulator/domains/trade/feed-apply.routes.ts',
      find: 'productName: row.name, hsCode: row.hsCode,',
      replace: 'productName: row.name, hsCode: sku.providedHs ?? row.hsCode,',
      visible: "spec 4.4: apply writes its rows with their hsCode; the mutation writes the SKU's provided HS code instead of the row's.",
    },
  ],

  // ---- spec 4.5: ship ----
  '4.5.findings.filter': [
    {
      id: 'domain-rule.findings-status-filter-ignored',
      family: 'domain-rule',
      file: FINDING_ROUTES,
      find: 'const status = deps.defects.at(SHIP_HOOKS.findingsStatusFilter, query.workflowStatus);',
      replace: 'const status = deps.defects.at(SHIP_HOOKS.findingsStatusFilter, undefined);',
      visible: 'spec 4.5: GET /api/ship/findings filters by workflowStatus; the mutation lists every finding.',
    },
  ],
  '4.5.findings.status-counts': [
    {
      id: 'domain-rule.findings-status-counts-of-page',
      family: 'domain-rule',
      file: FINDING_ROUTES,
      find: 'Object.fromEntries(STATUSES.map((s) => [s, counts[s] ?? 0]))',
      replace: 'Object.fromEntries(STATUSES.map((s) => [s, page.items.filter((f) => f.workflowStatus === s).length]))',
      visible: "spec 4.5: the page's status counts agree with the findings (all of them, not the page); the mutation counts only the page.",
      sandboxDefined: {
        why: 'written for 4.5.findings.status-counts; a run showed the spec leaves it open: "status counts" on the page may count the page\'s findings or the tenant\'s; the tenant\'s is the sandbox\'s choice',
        checks: ['ship.findings-status-counts'],
      },
      survives: {
        kind: 'acceptable',
        why: 'spec 4.5 says only that the page carries status counts; counting the page\'s findings (the mutant) and the tenant\'s (the sandbox) are both readings of "agree with the findings it lists", and ship.findings-status-counts judges on one page holding every finding, where they agree (run 2026-11-27).',
      },
    },
    {
      id: 'domain-rule.findings-open-counts-disputed',
      family: 'domain-rule',
      file: FINDING_ROUTES,
      find: 'Object.fromEntries(STATUSES.map((s) => [s, counts[s] ?? 0]))',
      replace: "Object.fromEntries(STATUSES.map((s) => [s, s === 'OPEN' ? (counts.OPEN ?? 0) + (counts.DISPUTED ?? 0) : (counts[s] ?? 0)]))",
      visible: 'spec 4.5: the finding page carries status counts that agree with the findings; the mutation counts DISPUTED findings under OPEN too.',
    },
  ],
  '4.5.batch.credit-disabled': [
    {
      id: 'errors.batch-credit-without-remediation',
      family: 'errors',
      file: FINDING_ROUTES,
      find: "'action', { remediation: CREDIT_REMEDIATION });",
      replace: "'action', {});",
      visible: 'spec 4.5: batch credit is 400 INVALID_REQUEST with a remediation pointing to the per-finding credit endpoint; the mutation drops the remediation.',
      also: ['7.invalid-request.batch-credit'],
    },
  ],
  '4.5.claim-list.status-filter': [
    {
      id: 'domain-rule.claims-status-filter-ignored',
      family: 'domain-rule',
      file: CLAIM_ROUTES,
      find: 'deps.defects.at(SHIP_HOOKS.claimsStatusFilter, query.status)',
      replace: 'deps.defects.at(SHIP_HOOKS.claimsStatusFilter, undefined)',
      visible: 'spec 4.5: the submissions list filters by status; the mutation lists every submission.',
    },
  ],
  '4.5.claim-create.duplicate-links': [
    {
      id: 'domain-rule.claim-duplicate-link-needs-two',
      family: 'domain-rule',
      file: CLAIM_ROUTES,
      find: 'if (duplicateLinks.length && deps.defects.at(',
      replace: 'if (duplicateLinks.length > 1 && deps.defects.at(',
      visible: 'spec 4.5 rule 3: a finding linked to an active submission is refused with 409 duplicateLinks; the mutation refuses only two or more.',
      also: ['4.5.claim-create.linked-ineligible', '7.action-not-allowed.claim-conflicts'],
    },
  ],
  '4.5.claim-create.linked-ineligible': [
    {
      id: 'domain-rule.finding-linked-reads-eligible',
      family: 'domain-rule',
      file: 'simulator/domains/ship/finding.explain.ts',
      find: ": linkReason ? ['INELIGIBLE', linkReason] : ['ELIGIBLE', null]",
      replace: ": ['ELIGIBLE', null]",
      visible: 'spec 4.5 rule 1: a finding linked to an active submission is ineligible; the mutation reads it ELIGIBLE.',
    },
  ],
  '4.5.claim-create.subcode-carrier-blocked': [
    {
      id: 'errors.claim-carrier-blocked-subcode',
      family: 'errors',
      file: CLAIM_ROUTES,
      find: "{ subcode: 'carrier_blocked', carrier, policy, action }",
      replace: "{ subcode: 'invalid_transition', carrier, policy, action }",
      visible: 'spec 4.5 rule 4: a blocked carrier gives 409 with subcode carrier_blocked; the mutation says invalid_transition.',
    },
  ],

  // ---- spec 4.6: landed cost ----
  '4.6.landed-cost.quantity-as-given': [
    {
      id: 'domain-rule.landed-cost-quantity-rounded',
      family: 'domain-rule',
      file: LANDED_ENGINE,
      find: '{ quantity: input.quantity, quantityUnit: input.quantityUnit }',
      replace: '{ quantity: Math.round(input.quantity), quantityUnit: input.quantityUnit }',
      visible: 'spec 4.6: quantity is kept as given, no rounding; the mutation rounds it in the breakdown.',
    },
  ],
  '4.6.rule2.usd-only': [
    {
      id: 'domain-rule.landed-cost-provider-in-gbp',
      family: 'domain-rule',
      file: 'simulator/domains/landed-cost/provider.ts',
      find: "const runs = request.currency === 'USD' ||",
      replace: "const runs = request.currency !== 'EUR' ||",
      visible: 'spec 4.6 rule 2: the provider comparison runs only in USD (else non_usd_corridor); the mutation runs it in every currency but EUR.',
    },
  ],
  '4.6.rule6.source-follows-destination': [
    {
      id: 'domain-rule.landed-cost-one-authority',
      family: 'domain-rule',
      file: 'simulator/domains/landed-cost/reference-data.ts',
      find: 'authorityFor: (destination) => byDestination.get(destination) ?? defaults[0],',
      replace: 'authorityFor: (destination) => defaults[0] ?? byDestination.get(destination),',
      visible: 'spec 4.6 rule 6: the authority source follows the destination; the mutation answers the US/default source for every destination.',
    },
  ],
  '4.6.rule6.unsupported-expression': [
    {
      id: 'response-shape.landed-cost-unsupported-not-flagged',
      family: 'response-shape',
      file: LANDED_ENGINE,
      find: 'return notAvailable(duty.reason, { unsupportedExpression: flagged,',
      replace: 'return notAvailable(duty.reason, { unsupportedExpression: duty.ok,',
      visible: 'spec 4.6 rule 6: an unsupported quantity-aware expression answers rate_not_available with metadata.unsupportedExpression true; the mutation says false.',
    },
  ],

  // ---- spec 5: auth ----
  '4.bearer-required': [
    {
      id: 'auth.bearer-prefix-optional',
      family: 'auth',
      file: 'simulator/domains/auth/authenticate.ts',
      find: 'const match = /^Bearer +([A-Za-z0-9_\\-.]+)\\s*$/i.exec(authorization);',
      replace: 'const match = /^(?:Bearer +)?([A-Za-z0-9_\\-.]+)\\s*$/i.exec(authorization);',
      visible: 'spec 4, 5.1: tenant endpoints need Authorization: Bearer <token>; the mutation also accepts the bare token (auth.malformed-bearer sends a genuine token without its scheme since 2026-11-27).',
    },
  ],
  '5.4.principal.billing': [
    {
      id: 'auth.principal-denied-without-actual',
      family: 'auth',
      file: 'simulator/domains/auth/authenticate.ts',
      find: "required: allowed.length === 1 ? allowed[0] : allowed,\n        actual: principal.type,",
      replace: 'required: allowed.length === 1 ? allowed[0] : allowed,',
      visible: 'spec 5.4: PRINCIPAL_DENIED carries details.required and details.actual; the mutation drops actual.',
    },
  ],

  // ---- spec 6: webhooks ----
  '6.header.content-type': [
    {
      id: 'webhooks.content-type-text',
      family: 'webhooks',
      file: DISPATCHER,
      find: "'Content-Type': 'application/json',",
      replace: "'Content-Type': 'text/plain',",
      visible: 'spec 6: a delivery is sent with Content-Type application/json; the mutation sends text/plain.',
    },
  ],
  '6.header.delivery-id': [
    {
      id: 'webhooks.delivery-id-per-attempt',
      family: 'webhooks',
      file: DISPATCHER,
      find: "'X-SVC-Delivery-ID': delivery.id,",
      replace: "'X-SVC-Delivery-ID': deps.ids.uuid(),",
      visible: 'spec 6: X-SVC-Delivery-ID is the delivery id, equal to the body id; the mutation sends a fresh id per attempt.',
    },
  ],
  '6.header.signature-only-with-secret': [
    {
      id: 'webhooks.empty-signature-without-secret',
      family: 'webhooks',
      file: DISPATCHER,
      find: '...(secret === null ? {} : signatureHeader(',
      replace: "...(secret === null ? { 'X-SVC-Signature': 'v1=' } : signatureHeader(",
      visible: 'spec 6: X-SVC-Signature is sent only when a secret is configured; the mutation sends an empty v1= without one.',
    },
  ],
  '6.config.events-filter': [
    {
      id: 'webhooks.default-events-completed-only',
      family: 'webhooks',
      file: WEBHOOK_CONFIG,
      find: 'if (!isPresent(value)) return [...WEBHOOK_EVENTS];',
      replace: "if (!isPresent(value)) return ['job.completed'];",
      visible: 'spec 6: without webhookEvents both events are delivered; the mutation delivers job.completed only.',
      also: ['6.event.failed'],
    },
  ],
  '6.config.two-forms': [
    {
      id: 'webhooks.nested-form-ignored',
      family: 'webhooks',
      file: WEBHOOK_CONFIG,
      find: 'return top ?? nested;',
      replace: 'return top;',
      visible: 'spec 6: the nested webhook { url, secret, events } configures a delivery as the top-level fields do; the mutation ignores it.',
    },
  ],

  // ---- spec 8: limits ----
  '8.1.read-bucket': [
    {
      id: 'limits.get-counted-as-write',
      family: 'limits',
      file: 'simulator/kernel/http/rate-limit.ts',
      find: "if (['get', 'head', 'options'].includes(operation.method)) return 'read';",
      replace: "if (['head', 'options'].includes(operation.method)) return 'read';",
      visible: 'spec 8.1: the read bucket covers GET/HEAD/OPTIONS; the mutation counts GET against the write bucket.',
    },
  ],
  '8.5.normalized-payload': [
    {
      id: 'idempotency.authority-case-kept',
      family: 'idempotency',
      file: 'simulator/kernel/http/idempotency.ts',
      find: 'const normalized = screeningAuthority.trim().toUpperCase();',
      replace: 'const normalized = screeningAuthority.trim();',
      visible: 'spec 8.5, 4.2: the payload is compared once normalized (screeningAuthority ca is CA); the mutation compares its case as sent.',
    },
  ],
  '8.6.defaults': [
    {
      id: 'pagination.findings-default-limit-100',
      family: 'pagination',
      file: FINDING_ROUTES,
      find: 'const FINDINGS_DEFAULT_LIMIT = 50;',
      replace: 'const FINDINGS_DEFAULT_LIMIT = 100;',
      visible: 'spec 8.6: limit defaults to 50 on every list; the mutation serves 100 findings by default.',
    },
    {
      id: 'pagination.jobs-default-limit-100',
      family: 'pagination',
      file: 'simulator/domains/jobs/jobs.routes.ts',
      find: 'const JOBS_DEFAULT_LIMIT = 50;',
      replace: 'const JOBS_DEFAULT_LIMIT = 100;',
      visible: 'spec 8.6: limit defaults to 50 on every list; the mutation serves 100 jobs by default.',
    },
  ],
  // ---- more, second pass over the rules still without one ----
  '2.1.token.type-bearer': [
    {
      id: 'response-shape.token-type-lowercase',
      family: 'response-shape',
      file: 'simulator/domains/auth/token.routes.ts',
      find: "token_type: 'Bearer',",
      replace: "token_type: 'bearer',",
      visible: 'spec 2.1: token_type is always Bearer; the mutation answers bearer.',
    },
  ],
  '2.1.token.required-fields': [
    {
      id: 'response-shape.expires-in-string',
      family: 'response-shape',
      file: 'simulator/domains/auth/token.routes.ts',
      find: 'expires_in: tokens.announcedLifetime(),',
      replace: 'expires_in: String(tokens.announcedLifetime()),',
      visible: 'spec 2.1: expires_in is integer seconds; the mutation sends it as a string.',
    },
  ],
  '2.1.token.default-adapter': [
    {
      id: 'response-shape.token-default-adapter-is-allowlist',
      family: 'response-shape',
      file: 'simulator/domains/auth/token.routes.ts',
      find: ', default_adapter: principal.defaultAdapter }',
      replace: ', default_adapter: principal.allowedAdapters ?? principal.defaultAdapter }',
      visible: "spec 2.1: default_adapter is a string or null; the mutation answers the key's adapter allowlist (an array) when it has one.",
    },
  ],
  '5.2.token.exp-boundary': [
    {
      id: 'auth.token-valid-at-exp',
      family: 'auth',
      file: 'simulator/domains/auth/tokens.ts',
      find: 'cached.exp + leeway <= Math.floor(deps.clock.now() / 1000)',
      replace: 'cached.exp + leeway < Math.floor(deps.clock.now() / 1000)',
      visible: 'spec 5.2 (RFC 7519): a token presented at exactly its exp second is refused; the mutation still serves it (the cached verification).',
      survives: {
        kind: 'equivalent',
        why: "after the cached branch verify() judges every token again on the tenant's own clock (tokens.ts: exp + leeway <= tenantNow is refused), and a tenant's clock is never behind the sandbox clock: a cached token the mutated line lets through at exp is refused there, so no request can tell the mutant apart (read 2026-11-27; first marked gap after run 2026-11-27, where auth.token-refused-at-exp presents a fresh token).",
      },
    },
  ],
  '2.5.sku.provided-hs': [
    {
      id: 'response-shape.feed-sku-hs-renamed',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-session.response.ts',
      find: '  providedHs: r.providedHs,',
      replace: '  hsCode: r.providedHs,',
      visible: 'spec 2.5: a normalized SKU carries providedHs; the mutation names it hsCode.',
    },
  ],
  '4.2.batch.skus-null-whole-catalog': [
    {
      id: 'domain-rule.sima-batch-null-skus-screens-none',
      family: 'domain-rule',
      file: 'simulator/domains/sima/sima.routes.ts',
      find: 'skus: body.skus ?? null,',
      replace: 'skus: body.skus ?? [],',
      visible: 'spec 4.2: skus null (or omitted) means every catalog SKU; the mutation screens none.',
    },
  ],
  '4.2.batch.run-policy-default-always': [
    {
      id: 'domain-rule.sima-batch-default-skips-duplicates',
      family: 'domain-rule',
      file: 'simulator/domains/sima/sima.routes.ts',
      find: "runPolicy: body.runPolicy ?? 'always',",
      replace: "runPolicy: body.runPolicy ?? 'skip_exact_duplicates',",
      visible: 'spec 4.2: runPolicy defaults to always; the mutation defaults to skip_exact_duplicates.',
    },
  ],
  '4.3.upload.run-policy-honoured': [
    {
      id: 'domain-rule.sima-run-policy-inverted',
      family: 'domain-rule',
      file: 'simulator/domains/sima/sima-validation.processor.ts',
      find: "if (input.runPolicy === 'skip_exact_duplicates' && previous?.fingerprint === fingerprint) {",
      replace: "if (input.runPolicy === 'always' && previous?.fingerprint === fingerprint) {",
      visible: 'spec 4.2, 4.3: skip_exact_duplicates skips identical inputs and always screens them again; the mutation does the opposite.',
    },
  ],
  '7.confirm-after-confirmed': [
    {
      id: 'state-machine.claim-confirmed-again',
      family: 'state-machine',
      file: CLAIMS,
      find: "{ from: ['SUBMITTED', 'ACKNOWLEDGED', 'FAILED'], action: 'confirm-credit', to: afterConfirmCredit },",
      replace: "{ from: ['SUBMITTED', 'ACKNOWLEDGED', 'FAILED', 'CREDIT_CONFIRMED'], action: 'confirm-credit', to: afterConfirmCredit },",
      visible: 'spec 7: confirm-credit after CREDIT_CONFIRMED returns ACTION_NOT_ALLOWED; the mutation confirms again (200).',
    },
  ],
  '7.repeat-transition': [
    {
      id: 'state-machine.claim-acknowledged-twice',
      family: 'state-machine',
      file: CLAIMS,
      find: "{ from: ['SUBMITTED'], action: 'acknowledge', to: 'ACKNOWLEDGED' },",
      replace: "{ from: ['SUBMITTED', 'ACKNOWLEDGED'], action: 'acknowledge', to: 'ACKNOWLEDGED' },",
      visible: 'spec 7: a repeat of a claim transition into the state already reached is 409; the mutation acknowledges an ACKNOWLEDGED submission again (ship.submission-model repeats every move it made, since 2026-11-27).',
    },
  ],
  '4.1.jobs.get-404': [
    {
      id: 'isolation.job-read-any-tenant',
      family: 'isolation',
      file: 'simulator/domains/jobs/job.store.ts',
      find: 'return job && job.tenantId === tenantId ? job : undefined;',
      replace: 'return job;',
      visible: "spec 4.1, 7: GET /api/jobs/:id is 404 for a job that is not the tenant's; the mutation serves another tenant's job.",
      also: ['7.not-found.other-tenant'],
    },
  ],
  '8.2.queue-cap-sima': [
    {
      id: 'limits.family-cap-off-by-one',
      family: 'limits',
      file: 'simulator/domains/jobs/queue-admission.ts',
      find: '(await jobs.inFlightCount(tenantId, family)) >= caps[familyCap.cap]',
      replace: '(await jobs.inFlightCount(tenantId, family)) > caps[familyCap.cap]',
      visible: 'spec 8.2: at the SIMA (and upload) queue-admission cap an enqueue is 429; the mutation admits one job over the cap.',
      also: ['8.2.queue-cap-upload-total'],
    },
  ],
  '8.2.queue-cap-upload-total': [
    {
      id: 'limits.total-cap-off-by-one',
      family: 'limits',
      file: 'simulator/domains/jobs/queue-admission.ts',
      find: 'if ((await jobs.inFlightCount(tenantId)) >= caps.total) {',
      replace: 'if ((await jobs.inFlightCount(tenantId)) > caps.total) {',
      visible: 'spec 8.2: at the total queue-admission cap an enqueue is 429; the mutation admits one job over it.',
    },
  ],
  '6.rule2.attempt-timeout': [
    {
      id: 'webhooks.attempt-timeout-30-s',
      family: 'webhooks',
      file: 'simulator/domains/webhooks/delivery.machine.ts',
      find: 'export const ATTEMPT_TIMEOUT_MS = 10_000;',
      replace: 'export const ATTEMPT_TIMEOUT_MS = 30_000;',
      visible: 'spec 6 rule 2: each attempt times out after 10 seconds (a failure, retried); the mutation waits 30 s.',
      also: ['8.8.webhook-limits'],
    },
  ],
  '6.body.timestamps': [
    {
      id: 'webhooks.delivery-created-at-is-job-created-at',
      family: 'webhooks',
      file: 'simulator/domains/webhooks/delivery.response.ts',
      find: '=> ({ id, event, createdAt, job });',
      replace: '=> ({ id, event, createdAt: job.createdAt, job });',
      visible: "spec 6: the body's createdAt is the delivery's time; the mutation sends the job's createdAt.",
    },
  ],
  '4.6.rule7.hint-format-exact': [
    {
      id: 'domain-rule.deprecation-hint-comma-separated',
      family: 'domain-rule',
      file: 'simulator/domains/landed-cost/legacy-aliases.ts',
      find: "`use '${canonical}' not '${alias}'`).join('; ');",
      replace: "`use '${canonical}' not '${alias}'`).join(', ');",
      visible: "spec 4.6 rule 7: X-Deprecation-Hint entries are separated by semicolons; the mutation separates them by commas.",
    },
  ],
  '4.6.rule3.threshold-still-reported': [
    {
      id: 'domain-rule.landed-cost-mismatch-drops-threshold',
      family: 'domain-rule',
      file: 'simulator/domains/landed-cost/de-minimis.ts',
      find: 'const mismatch: DeMinimisResult = { threshold: lowest.threshold,',
      replace: 'const mismatch: DeMinimisResult = { threshold: null as unknown as number,',
      visible: 'spec 4.6 rule 3: on currency_mismatch the threshold is still reported; the mutation reports none.',
    },
  ],
  // ---- the request validator, one JSON Schema keyword at a time (a vendor's validator lacking it) ----
  '4.1.billing.email-validated': [
    {
      id: 'validation.body-format-ignored',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(body) && !(shape.values',
      replace: "if (!validate(body) && !(validate.errors ?? []).every((e) => e.keyword === 'format') && !(shape.values",
      visible: "spec 4.1, 2.6: billingEmail is an e-mail address and confirmedAt an ISO timestamp (else 400); the mutation's validator ignores `format` (a validator without its formats plug-in).",
      also: ['2.6.credit.confirmation-required'],
    },
  ],
  '2.5.apply-row.only-fields': [
    {
      id: 'validation.body-additional-properties-ignored',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(body) && !(shape.values',
      replace: "if (!validate(body) && !(validate.errors ?? []).every((e) => e.keyword === 'additionalProperties') && !(shape.values",
      visible: "spec 2.5: only sku, name, hsCode, originCountry and destinationCountry are valid apply row fields (else 400); the mutation's validator ignores additionalProperties.",
    },
  ],
  '4.5.claim-create.non-empty': [
    {
      id: 'validation.body-min-items-ignored',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(body) && !(shape.values',
      replace: "if (!validate(body) && !(validate.errors ?? []).every((e) => e.keyword === 'minItems') && !(shape.values",
      visible: "spec 4.5: findingIds must be non-empty (400); the mutation's validator ignores minItems (the create then answers 409 missing_findings).",
    },
  ],
  '7.invalid-request.external-reference': [
    {
      id: 'validation.body-string-constraints-ignored',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(body) && !(shape.values',
      replace: "if (!validate(body) && !(validate.errors ?? []).every((e) => e.keyword === 'minLength' || e.keyword === 'pattern') && !(shape.values",
      visible: "spec 4.5, 7: an empty or blank externalReference is 400 INVALID_REQUEST; the mutation's validator ignores the string constraints minLength and pattern.",
      also: ['4.5.claim.submit-reference'],
    },
  ],
  '4.2.batch.run-policy-values': [
    {
      id: 'validation.body-enum-ignored',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(body) && !(shape.values',
      replace: "if (!validate(body) && !(validate.errors ?? []).every((e) => e.keyword === 'enum') && !(shape.values",
      visible: "spec 4.2: runPolicy is always or skip_exact_duplicates (else 400); the mutation's validator ignores enum in JSON bodies.",
    },
  ],
  '4.6.landed-cost.field-types': [
    {
      id: 'validation.body-type-ignored',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(body) && !(shape.values',
      replace: "if (!validate(body) && !(validate.errors ?? []).every((e) => e.keyword === 'type') && !(shape.values",
      visible: "spec 4.6: shippingCost and insurance are numbers (else 400); the mutation's validator ignores type.",
    },
  ],
  '8.5.key-length': [
    {
      id: 'validation.header-not-validated',
      family: 'validation',
      file: VALIDATE,
      find: 'if (!validate(coerced) && !onlyRaisedCaps(',
      replace: "if (!validate(coerced) && rule.in !== 'header' && !onlyRaisedCaps(",
      visible: 'spec 8.5: Idempotency-Key is 1 to 200 characters (else 400); the mutation does not validate header parameters.',
    },
  ],

  // ---- third pass ----
  '2.2.job.list-envelope': [
    {
      id: 'response-shape.jobs-list-key-items',
      family: 'response-shape',
      file: 'simulator/domains/jobs/jobs.routes.ts',
      find: 'body: { jobs: page.jobs.map(toJobResponse), count: page.count }',
      replace: 'body: { items: page.jobs.map(toJobResponse), count: page.count }',
      visible: 'spec 2.2: the job list is { jobs, count }; the mutation names the list items.',
    },
  ],
  '2.2.job.catalog-upload-type': [
    {
      id: 'response-shape.job-type-internal-name',
      family: 'response-shape',
      file: 'simulator/domains/jobs/job.response.ts',
      find: '    id: job.id,\n    type: job.type,',
      replace: "    id: job.id,\n    type: job.type === 'catalog_upload' ? ('trade_catalog' as typeof job.type) : job.type,",
      visible: 'spec 2.2: public integrations see catalog_upload for trade catalog jobs; the mutation shows an internal name outside the type enum.',
      also: ['2.2.job.type-enum'],
    },
  ],
  '2.2.job.status-enum': [
    {
      id: 'response-shape.job-status-succeeded',
      family: 'response-shape',
      file: 'simulator/domains/jobs/job.response.ts',
      find: '    type: job.type,\n    status: job.status,',
      replace: "    type: job.type,\n    status: job.status === 'COMPLETED' ? ('SUCCEEDED' as typeof job.status) : job.status,",
      visible: 'spec 2.2: status is PENDING, PROCESSING, COMPLETED or FAILED; the mutation answers SUCCEEDED for a completed job.',
    },
  ],
  '2.7.submission.envelope': [
    {
      id: 'response-shape.submission-bare',
      family: 'response-shape',
      file: CLAIM_ROUTES,
      find: '({ status, body: { submission: await shape(record) } });',
      replace: '({ status, body: await shape(record) });',
      visible: 'spec 2.7: create, the moves and the detail GET answer { submission }, never a bare object; the mutation answers the bare submission.',
      also: ['4.5.claim-detail', '4.5.claim.confirm-credit-status'],
    },
  ],
  '2.4.report.json-fields': [
    {
      id: 'response-shape.sima-report-without-config-version',
      family: 'response-shape',
      file: SIMA_REPORT,
      find: '    configVersion: meta.configVersion,\n',
      replace: '',
      visible: 'spec 2.4: the JSON report has generatedAt, tenantId and configVersion, required; the mutation leaves configVersion out.',
    },
  ],
  '2.5.issue.fields': [
    {
      id: 'response-shape.feed-issue-key-renamed',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-session.response.ts',
      find: '  issueKey: r.issueKey,',
      replace: '  key: r.issueKey,',
      visible: 'spec 2.5: an issue has issueKey; the mutation names it key.',
    },
  ],
  '2.8.billing.fields': [
    {
      id: 'response-shape.billing-without-customer',
      family: 'response-shape',
      file: BILLING,
      find: 'body: { tenantId: tenant.id, setupIntentId: intent.id, clientSecret, paymentCustomerId },',
      replace: 'body: { tenantId: tenant.id, setupIntentId: intent.id, clientSecret },',
      visible: 'spec 2.8: the billing setup response has tenantId, setupIntentId, clientSecret and paymentCustomerId, all required; the mutation leaves paymentCustomerId out.',
    },
  ],
  '4.4.upload.row-overrides': [
    {
      id: 'domain-rule.feed-row-origin-ignored',
      family: 'domain-rule',
      file: 'simulator/domains/trade/feed-normalize.rules.ts',
      find: '  return { country: code, issues: [] };\n}',
      replace: "  return { country: field === 'originCountry' ? defaults.originCountry : code, issues: [] };\n}",
      visible: "spec 4.4: rows may override the feed's originCountry by column; the mutation always takes the feed-level default.",
    },
  ],
  '4.4.review.unknown-404': [
    {
      id: 'errors.feed-review-unknown-job-400',
      family: 'errors',
      file: 'simulator/domains/trade/feed-preview.routes.ts',
      find: "if (!job || job.variant !== PREVIEW_VARIANT) throw notFound('classify-preview job');",
      replace: "if (!job || job.variant !== PREVIEW_VARIANT) throw invalidRequest('jobId is not a classify-preview job of this tenant', 'jobId');",
      visible: "spec 4.4: review answers 404 for a preview job that is not the tenant's; the mutation answers 400.",
    },
  ],
  '4.6.landed-cost.shipping-default-zero': [
    {
      id: 'domain-rule.landed-cost-shipping-estimated',
      family: 'domain-rule',
      file: 'simulator/domains/landed-cost/landed-cost.routes.ts',
      find: 'shippingCost: body.shippingCost ?? deviations.at(LANDED_COST_HOOKS.shippingCostDefault, 0),',
      replace: 'shippingCost: body.shippingCost ?? deviations.at(LANDED_COST_HOOKS.shippingCostDefault, Math.round(body.productValue * 5) / 100),',
      visible: 'spec 4.6: shippingCost defaults to 0 when absent; the mutation estimates 5 % of the product value.',
    },
  ],
  '4.6.compliance.pending-review-blocks': [
    {
      id: 'domain-rule.compliance-one-pending-review-quoteable',
      family: 'domain-rule',
      file: 'simulator/domains/classification/compliance.ts',
      find: 'if (facts.pendingReviews > 0) {',
      replace: 'if (facts.pendingReviews > 1) {',
      visible: 'spec 4.6: a product with a pending classification review is not quoteable; the mutation needs two.',
    },
  ],
  '4.3.ship.adapter-allowlist': [
    {
      id: 'auth.adapter-allowlist-reads-default',
      family: 'auth',
      file: 'simulator/domains/auth/adapters.ts',
      find: 'principal.allowedAdapters.includes(adapterId)) return;',
      replace: 'principal.allowedAdapters.includes(principal.defaultAdapter ?? adapterId)) return;',
      visible: "spec 4.3, 5.4, 7: adapter_id outside the key's allowlist is 403 ADAPTER_NOT_ALLOWED; the mutation checks the key's default adapter instead of adapter_id.",
      also: ['5.4.adapter-allowlist', '7.adapter-not-allowed'],
    },
  ],
  '4.1.billing.principal-integration': [
    {
      id: 'auth.principal-types-ignored',
      family: 'auth',
      file: 'simulator/domains/auth/authenticate.ts',
      find: 'if (Array.isArray(types) && !types.includes(principal.type) && deps.defects.at(',
      replace: 'if (Array.isArray(types) && types.length === 0 && deps.defects.at(',
      visible: 'spec 4.1, 5.4, 5.5: billing setup needs an integration principal and dashboard-only routes refuse integration tokens (403 PRINCIPAL_DENIED); the mutation enforces no principal type.',
      also: ['5.5.dashboard-only', '7.principal-denied'],
    },
  ],
  '7.invalid-token': [
    {
      id: 'auth.revoked-key-bearer-honoured',
      family: 'auth',
      file: 'simulator/domains/auth/authenticate.ts',
      find: "deps.defects.at(AUTH_HOOKS.bearerKeyHonoured, state === 'active', { state })",
      replace: "deps.defects.at(AUTH_HOOKS.bearerKeyHonoured, state !== 'expired', { state })",
      visible: 'spec 5, 7: a bearer whose key was revoked is 401 INVALID_TOKEN; the mutation honours it until the key expires.',
    },
  ],
  '7.invalid-api-key': [
    {
      id: 'auth.unknown-key-reads-revoked',
      family: 'auth',
      file: 'simulator/domains/auth/authenticate.ts',
      find: "keyError('INVALID_API_KEY', 'integration key is not recognised')",
      replace: "keyError('REVOKED_API_KEY', 'integration key is not recognised')",
      visible: 'spec 7: exchanging an unknown key answers 401 INVALID_API_KEY; the mutation answers REVOKED_API_KEY.',
    },
  ],
  '8.5.without-key': [
    {
      id: 'idempotency.missing-key-shared',
      family: 'idempotency',
      file: 'simulator/kernel/http/contract-routes.ts',
      find: "const key = valid.headers['idempotency-key'];",
      replace: "const key = valid.headers['idempotency-key'] ?? 'default';",
      visible: 'spec 8.5: without the header, repeated requests create independent jobs; the mutation files them under one default key (a replay or a 409).',
    },
  ],
  '8.5.keys-expire': [
    {
      id: 'idempotency.keys-kept-forever',
      family: 'idempotency',
      file: 'simulator/kernel/http/idempotency.ts',
      find: 'if (stored && stored.expiresAt > clock.now())',
      replace: 'if (stored)',
      visible: 'spec 8.5: keys expire server-side; the mutation keeps them for ever (the same key after the expiry still replays).',
    },
  ],
  '6.header.event': [
    {
      id: 'webhooks.event-header-underscored',
      family: 'webhooks',
      file: DISPATCHER,
      find: "'X-SVC-Event': deps.defects.at(WEBHOOKS_HOOKS.eventHeader, delivery.event),",
      replace: "'X-SVC-Event': deps.defects.at(WEBHOOKS_HOOKS.eventHeader, delivery.event.replace('.', '_')),",
      visible: 'spec 6: X-SVC-Event is the event name (job.completed); the mutation sends job_completed.',
    },
  ],
  '6.body.fields': [
    {
      id: 'webhooks.body-job-renamed',
      family: 'webhooks',
      file: 'simulator/domains/webhooks/delivery.response.ts',
      find: '=> ({ id, event, createdAt, job });',
      replace: '=> ({ id, event, createdAt, data: job });',
      visible: 'spec 6: the delivery body is { id, event, createdAt, job }; the mutation names job data.',
    },
  ],
  '7.action-not-allowed.idempotency': [
    {
      id: 'idempotency.conflict-reads-invalid',
      family: 'idempotency',
      file: 'simulator/kernel/http/idempotency.ts',
      find: "actionNotAllowed('this Idempotency-Key was already used with a different payload'",
      replace: "invalidRequest('this Idempotency-Key was already used with a different payload'",
      visible: 'spec 7, 8.5: the same key with a different payload is 409 ACTION_NOT_ALLOWED; the mutation answers 400 INVALID_REQUEST.',
      also: ['4.2.batch.idempotency-conflict', '4.4.upload.idempotency-conflict', '4.3.upload.idempotency-conflict'],
    },
  ],
  '5.1.bearer.weak-secrets': [
    {
      id: 'auth.signing-secret-guessable',
      family: 'auth',
      file: 'simulator/domains/auth/signing-key.store.ts',
      find: 'secret: deps.ids.secret(32),',
      replace: "secret: 'secret',",
      visible: 'spec 5.1: only the server\'s own key signs bearers; the mutation signs with the guessable secret "secret", so a forged token verifies.',
    },
  ],
  '4.1.token.key-errors': [
    {
      id: 'errors.revoked-key-forbidden',
      family: 'errors',
      file: 'simulator/kernel/errors.ts',
      find: '...(SPEC_CODES as unknown as Record<SpecErrorCode, number>), ...SANDBOX_CODES };',
      replace: '...(SPEC_CODES as unknown as Record<SpecErrorCode, number>), ...SANDBOX_CODES, REVOKED_API_KEY: 403 };',
      visible: 'spec 4.1, 7: key errors at the token exchange answer 401; the mutation answers a revoked key 403.',
      also: ['7.revoked-api-key'],
    },
  ],
  '4.4.session.not-tenants-404': [
    {
      id: 'isolation.feed-session-any-tenant',
      family: 'isolation',
      file: 'simulator/domains/trade/feed-session.store.ts',
      find: 'session?.tenantId === tenantId ||',
      replace: 'session !== undefined ||',
      visible: "spec 4.4, 7: a session that is not the tenant's is 404; the mutation serves any tenant's session.",
      also: ['7.not-found.other-tenant'],
    },
  ],
  '4.2.report.rows-are-results': [
    {
      id: 'domain-rule.sima-report-flagged-by-default',
      family: 'domain-rule',
      file: SIMA_RESULTS,
      find: 'const records = await everyResult(principal.tenantId, reportFilter(selection, query.status));',
      replace: "const records = await everyResult(principal.tenantId, reportFilter(selection ?? 'flagged', query.status));",
      visible: "spec 4.2: the unfiltered report exports every outcome of the tenant; the mutation exports only flagged ones unless a filter is given.",
    },
  ],
  '4.3.upload.accepted-202': [
    {
      id: 'response-shape.sima-upload-answers-201',
      family: 'response-shape',
      file: SIMA_UPLOADS,
      find: 'return { status: 202, body: { jobId: job.id, status: job.status, message: receipt.message',
      replace: 'return { status: 201, body: { jobId: job.id, status: job.status, message: receipt.message',
      visible: 'spec 4.3: each upload endpoint answers 202 with its receipt; the mutation answers /api/upload and the catalog upload 201.',
    },
  ],
  '2.3.receipt.trade-feed': [
    {
      id: 'response-shape.feed-receipt-without-file-name',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-upload.routes.ts',
      find: 'fileName: upload.fileName, replayed: false } };',
      replace: 'replayed: false } };',
      visible: 'spec 2.3, 4.4: the feed upload receipt has sessionId, jobId, status and fileName; the mutation leaves fileName out.',
    },
  ],
  '2.7.submission.status-enum': [
    {
      id: 'response-shape.submission-status-credited',
      family: 'response-shape',
      file: 'simulator/domains/ship/claim.response.ts',
      find: '      status: record.status,',
      replace: "      status: record.status === 'CREDIT_CONFIRMED' ? ('CREDITED' as typeof record.status) : record.status,",
      visible: 'spec 2.7: status is DRAFT, READY, SUBMITTED, ACKNOWLEDGED, CREDIT_CONFIRMED, CLOSED or FAILED; the mutation answers CREDITED.',
    },
  ],
  '2.6.finding.workflow-enum': [
    {
      id: 'response-shape.finding-status-in-review',
      family: 'response-shape',
      file: 'simulator/domains/ship/finding.response.ts',
      find: '    workflowStatus: f.workflowStatus,',
      replace: "    workflowStatus: f.workflowStatus === 'CARRIER_REVIEW' ? ('IN_REVIEW' as typeof f.workflowStatus) : f.workflowStatus,",
      visible: 'spec 2.6: workflowStatus is OPEN, DISPUTED, SUBMITTED, CARRIER_REVIEW, CREDITED, REJECTED or DISMISSED; the mutation answers IN_REVIEW.',
    },
  ],
  '2.4.result.required-fields': [
    {
      id: 'response-shape.sima-result-without-is-stale',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima-result.store.ts',
      find: "'fingerprint', 'supersededAt', 'reviews']);",
      replace: "'fingerprint', 'supersededAt', 'reviews', 'isStale']);",
      visible: 'spec 2.4: a result item has isStale, required; the mutation leaves it out as bookkeeping.',
    },
  ],
  '4.1.token.exchange': [
    {
      id: 'response-shape.token-exchange-answers-201',
      family: 'response-shape',
      file: 'simulator/domains/auth/token.routes.ts',
      find: '        status: 200,\n        // A credential',
      replace: '        status: 201,\n        // A credential',
      visible: 'spec 4.1, 5.1: the token exchange answers 200 with the token response; the mutation answers 201.',
    },
  ],
  '2.4.results.list-envelope': [
    {
      id: 'response-shape.sima-results-next-cursor-renamed',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima-result.response.ts',
      find: '    cursor: page.nextCursor,',
      replace: '    nextCursor: page.nextCursor,',
      visible: 'spec 2.4: the results list is { outcomes, total, limit, offset?, cursor, hasMore }; the mutation names the cursor nextCursor.',
      also: ['4.2.results.cursor'],
    },
  ],
  '2.4.summary.shape': [
    {
      id: 'response-shape.sima-summary-exposure-string',
      family: 'response-shape',
      file: SIMA_RESULTS,
      find: 'totalExposure: round2(totalExposure),',
      replace: 'totalExposure: round2(totalExposure).toFixed(2),',
      visible: 'spec 2.4: totalExposure is a number; the mutation sends a money string ("1234.50").',
      also: ['4.2.summary.served'],
    },
  ],
  '2.4.evidence.required-keys': [
    {
      id: 'response-shape.sima-evidence-audit-renamed',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima-evidence.ts',
      find: '    auditTrail: auditTrail(history),',
      replace: '    audit: auditTrail(history),',
      visible: 'spec 2.4: evidence has the keys result, classification, attributes, measureApplicability, thresholds, exposure, history and auditTrail; the mutation names auditTrail audit.',
      also: ['4.2.evidence.served'],
    },
  ],
  '5.1.bearer.names-tenant': [
    {
      id: 'auth.org-header-switches-tenant',
      family: 'auth',
      file: 'simulator/domains/auth/authenticate.ts',
      find: "deps.defects.at(AUTH_HOOKS.tenantOverride, undefined, { orgHeader: headers['x-org-id']?.trim()",
      replace: "deps.defects.at(AUTH_HOOKS.tenantOverride, headers['x-org-id']?.trim(), { orgHeader: headers['x-org-id']?.trim()",
      visible: "spec 5.1: the bearer alone names the tenant; the mutation lets an x-org-id header naming another tenant switch whose call it is.",
      also: ['4.1.jobs.get-404'],
    },
  ],
  // ---- the rules the gap checks of issue 27 hold (written with those checks, 2026-11-27) ----
  '4.2.batch.skus-listed-screened': [
    {
      id: 'domain-rule.listed-batch-screens-first-only',
      family: 'domain-rule',
      file: 'simulator/domains/sima/sima-validation.processor.ts',
      find: '[...new Set(listed)];',
      replace: '[...new Set(listed)].slice(0, 1);',
      visible: 'spec 4.2: skus (an array) screens those SKUs; the mutation screens only the first SKU of the list.',
    },
  ],
  '4.2.batch.authority-default-ca': [
    {
      id: 'domain-rule.omitted-authority-screens-us',
      family: 'domain-rule',
      file: 'simulator/domains/sima/sima.routes.ts',
      find: "return deviations.at(SIMA_HOOKS.defaultScreeningAuthority, 'CA', { sent: 'omitted' });",
      replace: "return deviations.at(SIMA_HOOKS.defaultScreeningAuthority, 'US', { sent: 'omitted' });",
      visible: 'spec 4.2: an omitted screeningAuthority defaults to CA; the mutation screens a batch without one under US.',
    },
  ],
  '4.4.preview.inflight-limit-429': [
    {
      id: 'limits.preview-family-cap-dropped',
      family: 'limits',
      file: 'simulator/domains/jobs/queue-admission.ts',
      find: "  preview: { bucket: 'preview_inflight', cap: 'preview', label: 'classify-preview' },\n",
      replace: '',
      visible: 'spec 4.4, 8.4: classify-preview is 429 at the per-tenant in-flight preview limit; the mutation drops that limit (only the total cap is left).',
      also: ['8.4.preview-inflight-limit'],
    },
  ],
  '4.4.review.not-reviewable-409': [
    {
      id: 'state-machine.review-of-in-flight-preview',
      family: 'state-machine',
      file: 'simulator/domains/trade/feed-preview.routes.ts',
      find: "job.status === 'COMPLETED', { status: job.status }",
      replace: "job.status !== 'FAILED', { status: job.status }",
      visible: 'spec 4.4: review is 409 when the preview job is not in a reviewable state; the mutation takes a review of a PENDING or PROCESSING preview (200).',
    },
  ],
  '6.rule4.ssrf-resolved': [
    {
      id: 'webhooks.resolved-address-not-checked',
      family: 'webhooks',
      file: 'simulator/domains/webhooks/transport.ts',
      find: 'if (!options.allowed && options.checkResolved !== false) {',
      replace: 'if (!options.allowed && options.checkResolved === undefined) {',
      visible: 'spec 6 rule 4: the resolved address is checked against the blocklist; the mutation checks only literal hosts, so a name resolving to 127.0.0.1 is delivered to.',
    },
  ],
  '8.1.write-upload-buckets': [
    {
      id: 'limits.writes-in-read-bucket',
      family: 'limits',
      file: 'simulator/kernel/http/rate-limit.ts',
      find: "return 'multipart/form-data' in content ? 'upload' : 'write';",
      replace: "return 'multipart/form-data' in content ? 'upload' : 'read';",
      visible: 'spec 8.1: non-upload mutations count in the write bucket; the mutation counts them in the read bucket (a full write bucket never refuses).',
    },
  ],
  // ---- the 29 held rules the merged run of 2026-11-27 left without a mutation (issue 27 item 3) ----
  '2.2.job.reconciliation': [
    {
      id: 'response-shape.job-reconciliation-without-not-applicable',
      family: 'response-shape',
      file: 'simulator/domains/jobs/job.response.ts',
      find: '    reconciliation: { ...emptyReconciliation(), ...job.reconciliation },',
      replace: '    reconciliation: (({ skusNotApplicable: _dropped, ...kept }) => kept)({ ...emptyReconciliation(), ...job.reconciliation }),',
      visible: 'spec 2.2: reconciliation holds rowsUploaded, rowsSkipped, rowsDeduplicated, skusFound, skusScreened and skusNotApplicable; the mutation leaves skusNotApplicable out of every job.',
    },
  ],
  '2.2.job.skipped-rows': [
    {
      id: 'response-shape.job-skipped-rows-without-sample',
      family: 'response-shape',
      file: 'simulator/domains/jobs/job.response.ts',
      find: '    skippedRows: { ...emptySkippedRows(), ...job.skippedRows },',
      replace: '    skippedRows: { counts: job.skippedRows?.counts ?? null },',
      visible: 'spec 2.2: skippedRows holds counts and sample (each nullable, both there); the mutation leaves sample out of every job.',
    },
  ],
  '2.2.job.outcomes': [
    {
      id: 'response-shape.job-outcomes-without-false-positive',
      family: 'response-shape',
      file: 'simulator/domains/jobs/job.response.ts',
      find: '    outcomes: { ...zeroOutcomes(), ...job.outcomes },',
      replace: '    outcomes: (({ falsePositive: _dropped, ...kept }) => kept)({ ...zeroOutcomes(), ...job.outcomes }),',
      visible: 'spec 2.2: outcomes holds the integers atRisk, cleared, needsReview and falsePositive; the mutation leaves falsePositive out of every job.',
    },
  ],
  '2.4.result.outcome-enum': [
    {
      id: 'response-shape.sima-result-outcome-clear',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima-result.response.ts',
      find: '    outcomes: page.items.map(toSimaResultItem),',
      replace: "    outcomes: page.items.map(toSimaResultItem).map((item) => (item.outcome === 'CLEARED' ? { ...item, outcome: 'CLEAR' as typeof item.outcome } : item)),",
      visible: 'spec 2.4: outcome is AT_RISK, NEEDS_REVIEW or CLEARED; the mutation lists a cleared result with outcome CLEAR.',
    },
  ],
  '3.5.sima.workflow-values': [
    {
      id: 'response-shape.sima-result-workflow-new',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima-result.response.ts',
      find: '    outcomes: page.items.map(toSimaResultItem),',
      replace: "    outcomes: page.items.map(toSimaResultItem).map((item) => (item.workflowStatus === 'OPEN' ? { ...item, workflowStatus: 'NEW' as typeof item.workflowStatus } : item)),",
      visible: 'spec 3.5, 2.4: SIMA workflowStatus values are OPEN, OVERRIDDEN, ACCEPTED, DISMISSED (or null); the mutation lists an open result as NEW.',
      also: ['2.4.result.outcome-enum'],
    },
  ],
  '2.4.result.exposure-annual': [
    {
      id: 'response-shape.sima-result-null-exposure-omitted',
      family: 'response-shape',
      file: 'simulator/domains/sima/sima-result.store.ts',
      find: 'if (!BOOKKEEPING.has(key)) item[key] = record[key];',
      replace: "if (!BOOKKEEPING.has(key) && !(key === 'exposureAnnual' && record[key] === null)) item[key] = record[key];",
      visible: 'spec 2.4: exposureAnnual is a number or null, required; the mutation leaves it out of a result without exposure instead of sending null.',
    },
  ],
  '3.2.feed.normalizing': [
    {
      id: 'state-machine.feed-never-normalizing',
      family: 'state-machine',
      file: FEED,
      find: "    { from: ['UPLOADED'], action: 'normalize', to: 'NORMALIZING' },\n    { from: ['NORMALIZING'], action: 'resume', to: 'NORMALIZING' },\n    { from: ['NORMALIZING'], action: 'finish_clean', to: 'READY' },\n    { from: ['NORMALIZING'], action: 'finish_blocked', to: 'PREVIEW_BLOCKED' },",
      replace: "    { from: ['UPLOADED'], action: 'normalize', to: 'UPLOADED' },\n    { from: ['NORMALIZING'], action: 'resume', to: 'NORMALIZING' },\n    { from: ['UPLOADED', 'NORMALIZING'], action: 'finish_clean', to: 'READY' },\n    { from: ['UPLOADED', 'NORMALIZING'], action: 'finish_blocked', to: 'PREVIEW_BLOCKED' },",
      visible: 'spec 3.2: UPLOADED moves to NORMALIZING when normalization starts; the mutation keeps the session UPLOADED while it normalizes and moves it straight to its end state.',
      survives: {
        kind: 'gap',
        why: "trade.feed-lifecycle-model reads each session right after its receipt and then after its normalization job ended; with the self-test's job timings (start 50 ms, processing 100 ms) normalization is over before a read can fall inside it, and UPLOADED then READY is a path of the table either way. A check reading the session while its normalization job is PROCESSING (a feed large enough to take seconds, or a job the simulator profile could hold) would see UPLOADED (run 2026-11-27).",
      },
    },
  ],
  '3.2.feed.terminal-for-polling': [
    {
      id: 'state-machine.feed-preview-renormalizes',
      family: 'state-machine',
      file: FEED,
      find: "{ from: ['READY'], action: 'classify_preview', to: 'READY' },",
      replace: "{ from: ['READY'], action: 'classify_preview', to: 'NORMALIZING' },",
      visible: 'spec 3.2: READY is terminal for polling (and classify-preview keeps it READY); the mutation takes a READY session back to NORMALIZING when a preview starts, where no worker ends it.',
      survives: {
        kind: 'gap',
        why: "trade.feed-lifecycle-model would see it (a preview on a session known READY reads it back, and no path of spec 3.2 leads from READY to NORMALIZING), but its sessions rarely are READY when a preview comes: a feed whose SKUs all carry an HS code ends PREVIEW_BLOCKED as the direct-apply shortcut, so READY needs an acknowledged non-blocking feed first, and the run's 15 sequences held no preview after one (run twice 2026-11-27). A model step previewing a session it just acknowledged READY would see it.",
      },
    },
  ],
  '3.4.submission.findings-independent': [
    {
      id: 'state-machine.claim-create-submits-findings',
      family: 'state-machine',
      file: CLAIM_ROUTES,
      find: '      await claims.create(record);',
      replace: "      await claims.create(record);\n      for (const f of found) await findings.update({ ...f, workflowStatus: 'SUBMITTED', updatedAt: now });",
      visible: 'spec 3.4: creating a submission does not change the state of the findings; the mutation moves each bundled finding to SUBMITTED.',
    },
  ],
  '3.4.submission.credit-confirmed-not-billing': [
    {
      id: 'state-machine.claim-confirm-credits-findings',
      family: 'state-machine',
      file: CLAIM_ROUTES,
      find: "        ...(to === 'FAILED' ? { failedAt: now, failureReason: body.reason?.trim() || 'the carrier credited none of the findings' } : {}),\n      }));\n      return envelope(shape, saved);",
      replace: "        ...(to === 'FAILED' ? { failedAt: now, failureReason: body.reason?.trim() || 'the carrier credited none of the findings' } : {}),\n      }));\n      if (saved.status === 'CREDIT_CONFIRMED') for (const id of saved.findingIds) { const f = await findings.get(tenantId, id); if (f) await findings.update({ ...f, workflowStatus: 'CREDITED', updatedAt: saved.updatedAt }); }\n      return envelope(shape, saved);",
      visible: 'spec 3.4: a submission-level CREDIT_CONFIRMED does not replace the per-finding credit endpoint: it credits no finding; the mutation marks every bundled finding CREDITED.',
    },
  ],
  '4.5.claim.per-finding-credit': [
    {
      id: 'errors.finding-credit-refused-as-batch',
      family: 'errors',
      file: FINDING_ROUTES,
      find: '    async creditFinding({ principal, params, body }) {',
      replace: "    async creditFinding({ principal, params, body }) {\n      if (body) throw invalidRequest('credits are recorded by the claim submission (confirm-credit)', 'findingId', { remediation: 'POST /api/ship/claims/submissions/{submissionId}/confirm-credit' });",
      visible: 'spec 4.5 rule 5, 3.4: per-finding credits are recorded through the finding credit endpoint, the billing record; the mutation refuses every per-finding credit with 400, as if the submission-level confirm-credit were the record.',
    },
  ],
  '4.1.billing.reuses-customer': [
    {
      id: 'domain-rule.billing-new-customer-each-call',
      family: 'domain-rule',
      file: BILLING,
      find: 'if (!defects.at(BILLING_HOOKS.customerReused, true)) {',
      replace: 'if (!defects.at(BILLING_HOOKS.customerReused, false)) {',
      visible: "spec 4.1: billing setup creates or reuses the tenant's payment customer; the mutation creates a new customer at every call.",
    },
  ],
  '4.2.results.tenant-only': [
    {
      id: 'isolation.sima-results-any-tenant',
      family: 'isolation',
      file: 'simulator/domains/sima/sima-result.store.ts',
      find: '  const where: Where<ResultField> = { tenantId, current: true };',
      replace: '  const where: Where<ResultField> = { current: true };',
      visible: "spec 4.2, 7: the results list holds only the tenant's results; the mutation drops the tenant from the results' conditions, so every tenant's current results are listed.",
    },
  ],
  '4.3.enqueue.webhook-fields': [
    {
      id: 'webhooks.upload-form-webhook-ignored',
      family: 'webhooks',
      file: SIMA_UPLOADS,
      find: '    const webhook = peers.webhooks.parseConfig(request.body);',
      replace: '    const webhook = request.files.length ? null : peers.webhooks.parseConfig(request.body);',
      visible: 'spec 4.3, 6: any enqueue endpoint accepts the optional webhook fields, on an upload as form fields; the mutation ignores them on /api/upload and the catalog upload (no delivery).',
    },
  ],
  '4.4.session.get': [
    {
      id: 'response-shape.feed-session-enveloped',
      family: 'response-shape',
      file: 'simulator/domains/trade/feed-session.routes.ts',
      find: 'return { status: 200, body: toFeedSession(await sessionOf(principal.tenantId, params.sessionId)) };',
      replace: 'return { status: 200, body: { session: toFeedSession(await sessionOf(principal.tenantId, params.sessionId)) } };',
      visible: 'spec 4.4, 2.5: GET /api/trade/feeds/:sessionId answers the session detail itself; the mutation wraps it in { session } as claim submissions are.',
    },
  ],
  '4.6.landed-cost.auth': [
    {
      id: 'auth.landed-cost-refuses-integration',
      family: 'auth',
      file: 'simulator/domains/landed-cost/landed-cost.routes.ts',
      find: '      const tenantId = principal.tenantId;',
      replace: "      if (principal.type === 'integration') throw invalidRequest('landed cost takes a dashboard session', 'Authorization');\n      const tenantId = principal.tenantId;",
      visible: 'spec 4.6: POST /api/trade/landed-cost takes a dashboard or an integration bearer; the mutation refuses an integration bearer (400).',
    },
  ],
  '4.6.rule7.alias-beside-canonical': [
    {
      id: 'domain-rule.landed-cost-alias-beside-canonical-flagged',
      family: 'domain-rule',
      file: 'simulator/domains/landed-cost/legacy-aliases.ts',
      find: 'if (lone || deviations.at(LANDED_COST_HOOKS.aliasBesideCanonicalFlagged, false, alias)) flagged.push(alias);',
      replace: 'flagged.push(alias);',
      visible: 'spec 4.6 rule 7: an alias sent alongside its canonical field is not flagged; the mutation names it in X-Deprecation-Hint too.',
    },
  ],
  '5.1.key-exchange': [
    {
      id: 'auth.issued-token-other-issuer',
      family: 'auth',
      file: 'simulator/domains/auth/tokens.ts',
      find: '.setIssuer(ISSUER)',
      replace: ".setIssuer('tfas')",
      visible: 'spec 5.1: the exchanged bearer opens tenant endpoints; the mutation issues tokens under an issuer the verification does not accept (a renamed constant in one place), so the new token answers 401.',
    },
  ],
  '5.1.bearer.verified': [
    {
      id: 'auth.bad-signature-read-as-is',
      family: 'auth',
      file: 'simulator/domains/auth/tokens.ts',
      find: 'if (!checks.signatureVerified && error instanceof errors.JWSSignatureVerificationFailed) payload = decodeJwt(token);',
      replace: 'if (error instanceof errors.JWSSignatureVerificationFailed) payload = decodeJwt(token);',
      visible: "spec 5.1, 7: an altered or foreign-signed bearer is 401 INVALID_TOKEN; the mutation reads the claims of a token whose signature does not verify as they are.",
    },
  ],
  '5.2.token.re-exchange': [
    {
      id: 'auth.token-dated-on-sandbox-clock',
      family: 'auth',
      file: 'simulator/domains/auth/tokens.ts',
      find: 'const iat = Math.floor(deps.clocks.of(input.tenantId).now() / 1000);',
      replace: 'const iat = Math.floor(deps.clock.now() / 1000);',
      visible: "spec 5.2: on 401 INVALID_TOKEN re-exchanging the key gives a working token; the mutation dates new tokens by the sandbox clock while they expire by the tenant's, so once the tenant's time passed an expiry the re-exchanged token is expired already.",
    },
  ],
  '6.body.id-stable': [
    {
      id: 'webhooks.retry-new-delivery-id',
      family: 'webhooks',
      file: DISPATCHER,
      find: 'const id = deps.defects.at(WEBHOOKS_HOOKS.attemptDeliveryId, delivery.id, { newId: () => deps.ids.uuid() });',
      replace: 'const id = deps.defects.at(WEBHOOKS_HOOKS.attemptDeliveryId, delivery.attempts.length ? deps.ids.uuid() : delivery.id, { newId: () => deps.ids.uuid() });',
      visible: 'spec 6: the delivery id is the same on retries; the mutation sends each retry under a new id (body and X-SVC-Delivery-ID).',
    },
  ],
  '7.invalid-request.malformed-json': [
    {
      id: 'errors.malformed-json-server-error',
      family: 'errors',
      file: 'simulator/kernel/http/error-envelope.ts',
      find: "  if (status === 400) return new ApiError('INVALID_REQUEST', 'the request body could not be parsed', { field: 'body' });",
      replace: "  if (raised?.httpCode === 400) return new ApiError('INVALID_REQUEST', 'the request body could not be parsed', { field: 'body' });",
      visible: "spec 7: a body that is not JSON is 400 INVALID_REQUEST, never a server error; the mutation maps only the form parser's 400, so the JSON parser's reaches the client as 500.",
    },
  ],
  '8.5.scope': [
    {
      id: 'idempotency.key-shared-across-tenants',
      family: 'idempotency',
      file: 'simulator/kernel/http/idempotency.ts',
      find: "const tenant = defects.has('idempotency.scope-ignores-tenant') ? '*' : scope.tenantId;",
      replace: "const tenant = defects.has('idempotency.scope-ignores-tenant') ? '*' : '';",
      visible: "spec 8.5: a key is scoped by tenant, endpoint and key; the mutation leaves the tenant out of the scope, so another tenant's request with the same key replays (or conflicts with) the first tenant's.",
    },
  ],
  '8.6.top-of-range-served': [
    {
      id: 'pagination.jobs-limit-top-refused',
      family: 'pagination',
      file: 'simulator/domains/jobs/jobs.routes.ts',
      find: '      const offset = query.offset ?? 0;',
      replace: "      if (query.limit !== undefined && query.limit >= 100) throw invalidRequest('limit must be below 100', 'limit');\n      const offset = query.offset ?? 0;",
      visible: 'spec 8.6, 4.1: the jobs limit range is 1..100 and its top is served; the mutation refuses limit=100 (an exclusive bound).',
    },
  ],
  '9.1.current-v1.3.0-surfaces': [
    {
      id: 'errors.compliance-surface-not-implemented',
      family: 'errors',
      file: 'simulator/domains/classification/compliance.routes.ts',
      find: '      return { status: 200, body: result };',
      replace: "      return { status: 501, body: { error: { code: 'NOT_IMPLEMENTED', message: 'the compliance check is not in this build' } } };",
      visible: 'spec 9.1, 4.6: v1.3.0 lists the compliance check among its surfaces; the mutation answers it 501 (a build without the surface).',
    },
  ],
  '2.7.submission.finding-explanations': [
    {
      id: 'response-shape.submission-findings-as-stored',
      family: 'response-shape',
      file: 'simulator/domains/ship/claim.response.ts',
      find: 'if (finding) items.push(await view.item(finding));',
      replace: 'if (finding) items.push(finding as never);',
      visible: 'spec 2.7: each finding in a submission response carries the explanation fields of the finding record; the mutation lists the findings as stored, without claimEligibility, claimBlockerReason and actionability.',
    },
  ],
  '4.3.upload.source-adapter-default': [
    {
      id: 'domain-rule.catalog-adapter-default-extended',
      family: 'domain-rule',
      file: SIMA_UPLOADS,
      find: "return preferred && CATALOG_ADAPTERS.includes(preferred) ? preferred : 'catalog-excel';",
      replace: "return preferred && CATALOG_ADAPTERS.includes(preferred) ? preferred : 'extended-excel';",
      visible: 'spec 4.3: the catalog upload sourceAdapter defaults to catalog-excel; the mutation reads an omitted sourceAdapter as extended-excel (and its receipt names it).',
    },
  ],
  '6.rule3.marked-failed': [
    {
      id: 'webhooks.fifth-attempt-after-fourth-failure',
      family: 'webhooks',
      file: 'simulator/domains/webhooks/delivery.machine.ts',
      find: 'export const actionAfter = (ok: boolean, attempt: number): DeliveryAction => (ok ? \'succeed\' : attempt < MAX_ATTEMPTS ? \'retry\' : \'give_up\');',
      replace: 'export const actionAfter = (ok: boolean, attempt: number): DeliveryAction => (ok ? \'succeed\' : attempt <= MAX_ATTEMPTS ? \'retry\' : \'give_up\');',
      visible: 'spec 6 rule 3: after the fourth failure the delivery is marked failed, no fifth attempt; the mutation asks for a retry after attempt 4 (the table refuses it, so the delivery stays pending instead of failed, or a fifth attempt goes out).',
    },
  ],
  '6.no-other-events': [
    {
      id: 'webhooks.feed-normalization-as-session-event',
      family: 'webhooks',
      file: 'simulator/domains/webhooks/deliveries.ts',
      find: 'deps.defects.at(WEBHOOKS_HOOKS.payloadEvent, event, { job })',
      replace: "deps.defects.at(WEBHOOKS_HOOKS.payloadEvent, job.status === 'COMPLETED' && typeof job.result?.sessionId === 'string' ? 'trade_feed.ready' : event, { job })",
      visible: "spec 6: no events are emitted for feed sessions; the mutation announces a feed normalization's completion as the session's event (trade_feed.ready in the delivery body).",
    },
  ],
  '4.5.claim.subcode-invalid-transition': [
    {
      id: 'errors.finding-refusal-subcode-renamed',
      family: 'errors',
      file: FINDING_ROUTES,
      find: "const details = { subcode: 'invalid_transition', findingId };",
      replace: "const details = { subcode: 'invalid_state', findingId };",
      visible: 'spec 4.5 rule 4: a refused transition carries the 409 details subcode invalid_transition; the mutation names it invalid_state on the finding endpoints.',
    },
  ],
};

/** The list as mutations: each names the rule it is listed under, then the rules in `also`. */
export function ruleKeyedMutations(list: Record<string, RuleMutation[]> = RULE_MUTATIONS): Mutation[] {
  return Object.entries(list).flatMap(([rule, entries]) => entries.map(({ also, ...m }) => ({ ...m, rules: m.sandboxDefined ? [] : [rule, ...(also ?? [])] })));
}
