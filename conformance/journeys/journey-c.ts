// journeys.c (spec 1 workflow C, 2.3, 2.6, 2.7, 3.3, 3.4, 4.3, 4.5): an integrator uploads orders, a carrier
// agreement and an invoice, reads the audit, lists the findings, disputes some, bundles them into a claim
// submission, generates the packet, submits, acknowledges and confirms the credit, then records the
// per-finding credit. Every response is contract-checked by the client; the journey adds what each step must
// answer and the invariants across them (ship.invariants.ts): at every submission move the findings keep the
// states their own workflow gave them, the submission keeps its state while the findings move, and a
// shipment's findings are the tenant's.
import { defineCheck, type CheckContext } from '../harness/check.js';
import { RUN_NONCE } from '../checks/jobs-support.js';
import { CONFIRMATION, FINDINGS_PATH, SUBMISSIONS_PATH, call, errorOf, findingAction, isProblem, listFindings, submissionAction, submissionOf, uploadInvoice, type Finding } from '../checks/ship/support.js';
import { uniqueFile } from '../checks/uploads/files.js';
import { untestable } from '../checks/uploads/send.js';
import { findingsKeepOwnWorkflow, shipmentFindingsListed, submissionFindingsExplained, submissionKeepsOwnStatus, submissionListsFindings } from './ship.invariants.js';
import { withFindingIds } from '../harness/locate.js';
import { Steps } from './steps.js';
import { journeyTenant, settleJob, uploadOperation, type JourneyTenant } from './support.js';

export const journeyC = defineCheck({
  id: 'journeys.c',
  title: 'Workflow C: uploads, audit, findings, dispute, claim submission, packet, submit, acknowledge, confirm credit, per-finding credit; the two workflows stay independent',
  area: 'journeys',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const steps = new Steps(ctx, 'C');
    const admin = ctx.admin;
    const agreements = uploadOperation(ctx, 'uploadCarrierAgreement');
    const tenant = await journeyTenant(ctx, 'Conformance journey C', agreements?.scopes ?? []);
    const { client } = tenant;

    // Orders and agreements first: the reference data an invoice is audited against.
    for (const [operationId, name] of [['uploadOrdersFile', 'order upload'], ['uploadCarrierAgreement', 'carrier agreement upload']] as const) {
      const target = uploadOperation(ctx, operationId);
      if (!target) continue;
      steps.next(name);
      await referenceUpload(ctx, steps, tenant, target);
    }

    steps.next('invoice upload');
    const uploaded = await uploadInvoice(client, admin);
    if (isProblem(uploaded)) return steps.fail(uploaded.rule, uploaded.message, uploaded.exchange);

    steps.next('findings');
    const listed = await listFindings(client, admin);
    if (isProblem(listed)) return steps.fail(listed.rule, listed.message, listed.exchange);
    // spec 4.5 rule 1: an OPEN finding is not ELIGIBLE yet; disputing it is what makes it claimable.
    const open = listed.findings.filter((f) => f.workflowStatus === 'OPEN');
    if (tenant.fresh) steps.expect(listed.findings.length > 0 && open.length === listed.findings.length, 'findings-start-open', `the audited invoice left ${listed.findings.length} finding(s), ${listed.findings.length - open.length} of them not OPEN (spec 3.3: a finding starts OPEN)`, listed.exchange);
    const carrier = String(open[0]?.carrier ?? 'FEDEX');
    const picked = open.filter((f) => String(f.carrier ?? 'FEDEX') === carrier).slice(0, 2);
    if (picked.length < 1) steps.skip('no OPEN finding to dispute');

    if (ctx.contract.operation('listShipmentAudits')) {
      steps.next('audit');
      await checkAudit(ctx, steps, tenant, listed.findings);
    }

    steps.next('dispute');
    const states = new Map<string, string>();
    const eligible: string[] = [];
    for (const f of picked) {
      const disputed = await findingAction(client, f.id, 'dispute', admin);
      const status = (disputed.response.body as Finding | null)?.workflowStatus;
      if (!steps.expect(disputed.response.status === 200 && status === 'DISPUTED', 'finding-dispute', `POST ${FINDINGS_PATH}/${f.id}/dispute on an OPEN finding answered ${disputed.response.status} ${JSON.stringify(status)}, not 200 DISPUTED (spec 3.3)`, disputed)) return;
      states.set(f.id, 'DISPUTED');
      if ((disputed.response.body as Finding | null)?.claimEligibility === 'ELIGIBLE') eligible.push(f.id);
    }
    /** The claim's findings are where their own workflow left them (spec 3.4), read from the list. */
    const findingsUnmoved = async (event: string) => {
      const now = await listFindings(client, admin);
      if (isProblem(now)) return steps.fail(now.rule, now.message, now.exchange);
      steps.hold(findingsKeepOwnWorkflow(states, now.findings, event), now.exchange);
    };

    steps.next('claim submission');
    // spec 4.5 rule 1: only ELIGIBLE findings are bundled; a disputed finding may still be blocked (carrier policy).
    const ids = [...eligible];
    if (ids.length < 1) steps.skip('no disputed finding reads ELIGIBLE');
    const bundled = picked.filter((f) => ids.includes(f.id));
    const created = await call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier, findingIds: ids } }, admin);
    const draft = submissionOf(created);
    if (!steps.expect(created.response.status === 201 && draft?.status === 'DRAFT', 'submission-created', `POST ${SUBMISSIONS_PATH} with ${ids.length} DISPUTED, ELIGIBLE finding(s) answered ${created.response.status} ${JSON.stringify(draft?.status)}, not 201 { submission } in DRAFT (spec 3.4, 2.7)`, created)) return;
    const id = String(draft!.id);
    steps.hold([...submissionListsFindings(draft!, ids), ...submissionFindingsExplained(draft!)], created);
    await findingsUnmoved('creating the submission');
    const read = await call(client, 'GET', `${SUBMISSIONS_PATH}/${id}`, {}, admin);
    steps.expect(read.response.status === 200 && submissionOf(read)?.status === 'DRAFT', 'submission-read', `GET ${SUBMISSIONS_PATH}/${id} answered ${read.response.status} without { submission } in DRAFT (spec 2.7: never a bare object)`, read);

    steps.next('packet');
    const ready = await submissionAction(client, id, 'generate-packet', admin);
    const readyBody = submissionOf(ready);
    if (!steps.expect(ready.response.status === 200 && readyBody?.status === 'READY' && typeof readyBody.packetUrl === 'string', 'packet-generated', `generate-packet on a DRAFT submission answered ${ready.response.status} ${JSON.stringify(readyBody?.status)} packetUrl ${JSON.stringify(readyBody?.packetUrl)}, not READY with a packetUrl (spec 3.4)`, ready)) return;
    await checkPacket(ctx, steps, String(readyBody!.packetUrl), await client.token());
    await findingsUnmoved('generating the packet');

    steps.next('submit, acknowledge, confirm credit');
    const blank = await submissionAction(client, id, 'submit', admin, { externalReference: '' });
    steps.expect(blank.response.status === 400 && errorOf(blank).code === 'INVALID_REQUEST', 'external-reference-required', `submit with an empty externalReference answered ${blank.response.status}, not 400 INVALID_REQUEST (spec 3.4, 7)`, blank);
    const moves: Array<[string, unknown, string, string]> = [
      ['submit', { externalReference: `FICT-CONF-${RUN_NONCE}-SUB` }, 'SUBMITTED', 'submittedAt'],
      ['acknowledge', { externalReference: `FICT-CONF-${RUN_NONCE}-ACK` }, 'ACKNOWLEDGED', 'acknowledgedAt'],
      ['confirm-credit', { confirmation: CONFIRMATION, amountsByFinding: Object.fromEntries(bundled.map((f) => [f.id, typeof f.recoverableAmount === 'number' && f.recoverableAmount > 0 ? f.recoverableAmount : 1])) }, 'CREDIT_CONFIRMED', 'creditConfirmedAt'],
    ];
    for (const [action, body, status, stamp] of moves) {
      const res = await submissionAction(client, id, action, admin, body);
      const s = submissionOf(res);
      if (!steps.expect(res.response.status === 200 && s?.status === status, `submission-${action}`, `${action} answered ${res.response.status} ${JSON.stringify(s?.status)}, not 200 { submission } in ${status} (spec 3.4)`, res)) return;
      steps.expect(typeof s![stamp] === 'string', 'submission-timestamps', `${action} moved submission ${id} to ${status} with ${stamp} ${JSON.stringify(s![stamp])} (spec 2.7: set on the matching transition)`, res);
      // spec 3.4: a submission-level CREDIT_CONFIRMED does not credit the findings either.
      await findingsUnmoved(`the submission's ${action}`);
    }
    const again = await submissionAction(client, id, 'confirm-credit', admin, { confirmation: CONFIRMATION });
    steps.expect(again.response.status === 409 && errorOf(again).code === 'ACTION_NOT_ALLOWED', 'confirm-after-confirmed', `confirm-credit after CREDIT_CONFIRMED answered ${again.response.status} ${JSON.stringify(errorOf(again).code)}, not 409 ACTION_NOT_ALLOWED (spec 7)`, again);

    steps.next('per-finding credit');
    // spec 4.5 rule 5: the per-finding credit is the billing record. Its source states are not shown: the
    // finding goes on along the spec's moves (SUBMITTED, CARRIER_REVIEW), and a credit refused with 409 is allowed.
    const f = bundled[0];
    for (const [action, state] of [['submit', 'SUBMITTED'], ['carrier-review', 'CARRIER_REVIEW']]) {
      const moved = await findingAction(client, f.id, action, admin);
      const status = (moved.response.body as Finding | null)?.workflowStatus;
      steps.expect(moved.response.status === 200 && status === state, `finding-${action}`, `POST ${FINDINGS_PATH}/${f.id}/${action} answered ${moved.response.status} ${JSON.stringify(status)}, not 200 ${state} (spec 3.3)`, moved);
    }
    const credited = await findingAction(client, f.id, 'credit', admin, { amount: 1, confirmation: CONFIRMATION });
    const creditedStatus = (credited.response.body as Finding | null)?.workflowStatus;
    if (credited.response.status === 200) steps.expect(creditedStatus === 'CREDITED', 'finding-credit', `the per-finding credit answered 200 with workflowStatus ${JSON.stringify(creditedStatus)}, not CREDITED (spec 4.5)`, credited);
    else steps.expect(credited.response.status === 409, 'finding-credit', `the per-finding credit of a CARRIER_REVIEW finding answered ${credited.response.status}, neither 200 CREDITED nor 409 (spec 4.5)`, credited);
    const final = await call(client, 'GET', `${SUBMISSIONS_PATH}/${id}`, {}, admin);
    steps.hold(submissionKeepsOwnStatus(submissionOf(final), 'CREDIT_CONFIRMED', `finding ${f.id} moved on through its own workflow`), final);
  },
});

/**
 * An order or carrier-agreement upload (spec 4.3, 2.3): 202 with a receipt in PENDING, and a job that ends
 * (spec 3.1). The file is the contract's example with a row unique to the run; its columns are not the
 * spec's, so the job may end FAILED. A deployment key without the operation's scope is noted, not failed.
 */
async function referenceUpload(ctx: CheckContext, steps: Steps, tenant: JourneyTenant, target: NonNullable<ReturnType<typeof uploadOperation>>) {
  const file = uniqueFile(ctx.contract.doc, target, `CONF-${RUN_NONCE}-JC-${target.operationId}`);
  const form = new FormData();
  form.append(target.fileField, file, file.name);
  for (const [name, value] of Object.entries(target.fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  const accepted = await call(tenant.client, 'POST', target.path, { form }, ctx.admin);
  if (untestable({ client: tenant.client, fresh: tenant.fresh }, target, accepted)) return;
  const receipt = (accepted.response.body ?? {}) as { jobId?: unknown; status?: unknown };
  if (!steps.expect(accepted.response.status === 202 && typeof receipt.jobId === 'string', 'upload-accepted', `POST ${target.path} answered ${accepted.response.status}, not 202 with a jobId (spec 4.3, 2.3)`, accepted)) return;
  steps.expect(receipt.status === 'PENDING', 'upload-receipt-pending', `the receipt's status is ${JSON.stringify(receipt.status)}, not PENDING (spec 2.3: always PENDING)`, accepted);
  const job = await settleJob(ctx, tenant.client, receipt.jobId as string, ctx.admin ? 10_000 : 20_000);
  if (!job.settled && ctx.admin) steps.fail('job-reaches-terminal', `the ${target.jobType ?? 'upload'} job ${String(receipt.jobId)} is still ${job.status ?? 'unread'} after the virtual clock moved (spec 3.1)`, job.exchange);
}

/** The audit (spec 4.5, v1.2.0): its rows list, and a shipment's findings are the tenant's. Row fields are not shown: the id is read when present. */
async function checkAudit(ctx: CheckContext, steps: Steps, tenant: JourneyTenant, findings: Finding[]) {
  const audit = await call(tenant.client, 'GET', '/api/ship/audit?limit=200', {}, ctx.admin);
  const rows = (audit.response.body as { shipments?: unknown } | null)?.shipments;
  if (!steps.expect(audit.response.status === 200 && Array.isArray(rows), 'audit-served', `GET /api/ship/audit answered ${audit.response.status} without a shipments array (spec 4.5)`, audit)) return;
  const list = rows as Array<Record<string, unknown>>;
  if (tenant.fresh) steps.expect(list.length > 0, 'audit-lists-upload', 'the audit lists no shipment after an invoice upload completed in a fresh tenant (spec 4.5)', audit);
  const shipmentId = list.map((row) => row.shipmentId ?? row.id).find((v) => typeof v === 'string');
  if (!shipmentId || !ctx.contract.operation('getShipment')) return;
  const detail = await call(tenant.client, 'GET', `/api/ship/shipments/${shipmentId as string}`, {}, ctx.admin);
  const detailFindings = (detail.response.body as { findings?: unknown } | null)?.findings;
  if (!steps.expect(detail.response.status === 200 && Array.isArray(detailFindings), 'shipment-served', `GET /api/ship/shipments/${shipmentId as string} of an audited shipment answered ${detail.response.status} without a findings array (spec 4.5)`, detail)) return;
  steps.hold(shipmentFindingsListed(withFindingIds(detailFindings as Array<Record<string, unknown>>), findings), detail);
}

/** The packet at packetUrl: a PDF for its own tenant, not served to another (spec 2.7, 3.4, 7 NOT_FOUND). */
async function checkPacket(ctx: CheckContext, steps: Steps, url: string, token: string) {
  const own = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await own.arrayBuffer());
  const ok = own.status === 200 && (own.headers.get('content-type') ?? '').includes('pdf') && bytes.subarray(0, 5).toString() === '%PDF-';
  steps.expect(ok, 'packet-served', `GET packetUrl ${url} answered ${own.status} ${own.headers.get('content-type')} (${bytes.length} bytes), not a PDF for the tenant owning the submission (spec 2.7, 3.4)`);
  const other = ctx.admin ? await ctx.admin.createTenant({ name: 'Conformance journey C (other tenant)' }) : undefined;
  const second = other ? ctx.client.withApiKey(other.integrationKey) : ctx.second;
  if (!second) return;
  const theirs = await fetch(url, { headers: { authorization: `Bearer ${await second.token()}` } });
  await theirs.arrayBuffer();
  steps.expect(theirs.status !== 200, 'packet-isolated', `GET packetUrl ${url} with another tenant's bearer answered ${theirs.status}: the packet was served outside its tenant (spec 7 NOT_FOUND: not the tenant's)`);
}
