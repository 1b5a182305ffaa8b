// Workflow C, ship audit to claim (spec 3.3, 3.4, 4.3, 4.5): upload a carrier agreement and an invoice file,
// list the findings the audit raised, dispute the claimable ones, bundle them into a claim submission, generate
// its packet, submit it, record the carrier's acknowledgement and credit, then record each finding's credit
// (the billing record, spec 4.5 rule 5).
//
//   SANDBOX_URL=http://127.0.0.1:4010 SANDBOX_API_KEY=... npm run example:ship
import { ApiError, ok, type Schemas } from './lib/client.js';
import { multipart, readSample, runExample, waitForJob, type ExampleContext, type UploadFile } from './lib/example.js';
import { SHIPMENT_HEADER, sampleShipmentRows, toCsv } from '#fixtures/freight/sample-shipments.js';

type Submission = Schemas['ClaimSubmission'];
const CARRIER = 'FEDEX';

/**
 * Uploads a ship-family file and waits for its job. spec 4.3: the same file again is 409 DUPLICATE_UPLOAD
 * with `details.existingJobId`; an integrator re-running its import carries on with that job.
 */
async function uploadAndWait(ctx: ExampleContext, path: '/api/carrier/agreements/upload' | '/api/ship/upload', file: UploadFile) {
  const form = multipart<Schemas['ShipUploadForm']>(file, ctx.webhooks.subscription());
  const result = await ctx.api.POST(path, form);
  if (result.response.status === 409 && result.error?.code === 'DUPLICATE_UPLOAD') {
    const existing = String(result.error.details?.existingJobId);
    ctx.log(`  ${file.name} was uploaded before (409 DUPLICATE_UPLOAD): using its job ${existing}`);
    return waitForJob(ctx, existing, { subscribed: false });
  }
  const receipt = ok(result, `upload ${file.name}`);
  ctx.log(`  accepted: job ${receipt.jobId} for ${receipt.fileName}`);
  return waitForJob(ctx, receipt.jobId, { subscribed: true });
}

/**
 * One claim transition. spec 7: a repeat of a transition into the state already reached answers 409
 * ACTION_NOT_ALLOWED, "which a caller may treat as success": when the client's retry after a 5xx meets
 * that, the submission is read back and accepted if it reached the state.
 */
async function transition(ctx: ExampleContext, what: string, expected: Submission['status'], id: string, call: () => Promise<{ data?: { submission: Submission }; error?: unknown; response: Response }>) {
  try {
    const { submission } = ok(await call(), what);
    ctx.log(`  ${what}: ${submission.status}`);
    return submission;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409 && error.body?.code === 'ACTION_NOT_ALLOWED')) throw error;
    const { submission } = ok(await ctx.api.GET('/api/ship/claims/submissions/{submissionId}', { params: { path: { submissionId: id } } }), 'read the submission');
    if (submission.status !== expected) throw error;
    ctx.log(`  ${what}: already ${submission.status} (409 on a repeat counts as success, spec 7)`);
    return submission;
  }
}

await runExample('example:ship', async (ctx) => {
  const { api, log, step } = ctx;

  step('Upload the FedEx carrier agreement the invoices are audited against');
  await uploadAndWait(ctx, '/api/carrier/agreements/upload', await readSample('fixtures/freight/agreement-fedex.csv'));

  step('Upload the FedEx invoice file');
  // The rows of fixtures/freight/shipments-fedex.csv, dated from today as a real invoice of the past week
  // would be: the committed file is dated once, and its findings leave their dispute windows as time passes.
  const invoice: UploadFile = { name: 'shipments-fedex.csv', bytes: Buffer.from(toCsv(SHIPMENT_HEADER, sampleShipmentRows(new Date()).map((r) => r.cells))) };
  const audit = await uploadAndWait(ctx, '/api/ship/upload', invoice);
  log(`  audited ${audit.reconciliation.rowsUploaded ?? 0} rows`);

  step('List the OPEN findings and pick the ones a dispute makes claimable');
  const page = ok(await api.GET('/api/ship/findings', { params: { query: { workflowStatus: 'OPEN', limit: 500 } } }), 'list findings');
  for (const f of page.findings) log(`  ${f.findingType} ${f.trackingNumber}: ${f.headline} [${f.claimEligibility}, ${f.actionability}, recoverable ${f.recoverableAmount}]`);
  // An OPEN finding is not ELIGIBLE yet (spec 4.5 rule 1): `disputable` says nothing but the dispute stands in the way.
  const picked = page.findings.filter((f) => f.carrier === CARRIER && f.actionability === 'disputable' && (f.recoverableAmount ?? 0) > 0).slice(0, 3);
  if (picked.length === 0) throw new Error('no OPEN claimable FedEx finding left: this tenant worked them already (POST /_sim/reset, or a new tenant)');

  step(`Dispute ${picked.length} findings (OPEN -> DISPUTED)`);
  for (const f of picked) {
    const disputed = ok(await api.POST('/api/ship/findings/{findingId}/dispute', { params: { path: { findingId: f.id } } }), 'dispute');
    log(`  ${f.id} ${disputed.workflowStatus}`);
  }

  step('Create a claim submission bundling them');
  // spec 4.5: not idempotent, so the client does not retry it on 5xx (a retry could create a duplicate).
  const findingIds = picked.map((f) => f.id);
  const { submission: draft } = ok(await api.POST('/api/ship/claims/submissions', { body: { carrier: CARRIER, findingIds, notes: 'example:ship' } }), 'create the claim submission');
  log(`  submission ${draft.id} ${draft.status} for ${draft.findingIds.length} findings`);
  const submissionId = draft.id;
  const path = { params: { path: { submissionId } } };

  step('Generate the claim packet, submit it, record the acknowledgement and the credit');
  const ready = await transition(ctx, 'generate-packet', 'READY', submissionId, () => api.POST('/api/ship/claims/submissions/{submissionId}/generate-packet', path));
  log(`  packet: ${ready.packetUrl}`);
  const reference = `FICT-FDX-DSP-${submissionId.slice(0, 8)}`;
  await transition(ctx, 'submit', 'SUBMITTED', submissionId, () => api.POST('/api/ship/claims/submissions/{submissionId}/submit', { ...path, body: { externalReference: reference } }));
  await transition(ctx, 'acknowledge', 'ACKNOWLEDGED', submissionId, () => api.POST('/api/ship/claims/submissions/{submissionId}/acknowledge', { ...path, body: { externalReference: reference } }));
  const confirmation = { source: 'carrier billing portal', referenceId: `FICT-CR-${submissionId.slice(0, 8)}`, confirmedAt: new Date().toISOString() };
  const amountsByFinding = Object.fromEntries(picked.map((f) => [f.id, f.recoverableAmount ?? 0]));
  const confirmed = await transition(ctx, 'confirm-credit', 'CREDIT_CONFIRMED', submissionId, () =>
    api.POST('/api/ship/claims/submissions/{submissionId}/confirm-credit', { ...path, body: { confirmation, amountsByFinding } }),
  );
  if (confirmed.status !== 'CREDIT_CONFIRMED') throw new Error(`confirm-credit left the submission ${confirmed.status}`);

  step('Record each finding credit (the billing record, spec 4.5 rule 5): submit, then credit');
  let credited = 0;
  for (const f of picked) {
    ok(await api.POST('/api/ship/findings/{findingId}/submit', { params: { path: { findingId: f.id } } }), 'submit the finding');
    const done = ok(await api.POST('/api/ship/findings/{findingId}/credit', { params: { path: { findingId: f.id } }, body: { amount: f.recoverableAmount!, confirmation } }), 'credit the finding');
    credited += done.credit?.amount ?? 0;
    log(`  ${f.id} ${done.workflowStatus} ${done.credit?.amount} ${done.currency ?? ''}`);
  }
  log(`  claim ${submissionId} CREDIT_CONFIRMED, ${picked.length} findings CREDITED, ${Math.round(credited * 100) / 100} recovered`);
});
