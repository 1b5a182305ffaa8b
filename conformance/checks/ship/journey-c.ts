// ship.journey-c (spec 1 workflow C, 2.7, 3.3, 3.4, 4.5): an integrator uploads an invoice file, lists the
// findings, disputes some, bundles them into a claim submission, generates the packet, submits,
// acknowledges and confirms the credit, then records the per-finding credit. Judged on what the spec
// names: workflow states, the `{ submission }` envelope, packetUrl once READY, the transition timestamps,
// the findings unchanged by the submission, a non-empty externalReference, confirm-credit after
// CREDIT_CONFIRMED refused, and the packet served to its own tenant only.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { CONFIRMATION, FINDINGS_PATH, SUBMISSIONS_PATH, call, errorOf, findingAction, isProblem, listFindings, submissionAction, submissionOf, tenantWithFindings, type Finding } from './support.js';

const EXPLANATION = ['workflowStatus', 'claimEligibility', 'claimBlockerReason', 'actionability', 'headline'];

export const shipJourneyC = defineCheck({
  id: 'ship.journey-c',
  title: 'Workflow C: upload, findings, dispute, claim submission, packet, submit, acknowledge, confirm credit, per-finding credit',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship journey C', 3, 2);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const admin = ctx.admin;
    const fresh = setup.findings.filter((f) => f.workflowStatus === 'OPEN' && f.claimEligibility === 'ELIGIBLE');
    if (setup.tenant.fresh) ctx.expect(fresh.length === setup.findings.length, 'findings-start-open', `${setup.findings.length - fresh.length} finding(s) of a fresh upload are not OPEN and ELIGIBLE (spec 3.3: a finding starts OPEN)`, undefined);
    const carrier = String(fresh[0]?.carrier ?? 'FEDEX');
    const picked = fresh.filter((f) => String(f.carrier ?? 'FEDEX') === carrier).slice(0, 2);
    if (picked.length < 1) ctx.skip('no OPEN, ELIGIBLE finding to dispute');

    for (const f of picked) {
      const disputed = await findingAction(client, f.id, 'dispute', admin);
      if (!ctx.expect(disputed.response.status === 200 && (disputed.response.body as Finding)?.workflowStatus === 'DISPUTED', 'finding-dispute', `POST ${FINDINGS_PATH}/${f.id}/dispute on an OPEN finding answered ${disputed.response.status} ${JSON.stringify((disputed.response.body as Finding)?.workflowStatus)}, not 200 DISPUTED (spec 3.3)`, disputed)) return;
    }
    const ids = picked.map((f) => f.id);
    const created = await call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier, findingIds: ids } }, admin);
    const draft = submissionOf(created);
    if (!ctx.expect(created.response.status === 201 && draft?.status === 'DRAFT', 'submission-created', `POST ${SUBMISSIONS_PATH} with ${ids.length} DISPUTED, ELIGIBLE finding(s) answered ${created.response.status} ${JSON.stringify(draft?.status)}, not 201 { submission } in DRAFT (spec 3.4, 2.7)`, created)) return;
    const id = String(draft!.id);
    ctx.expect(Array.isArray(draft!.findingIds) && ids.every((x) => (draft!.findingIds as string[]).includes(x)), 'submission-findings', `submission ${id} does not list the finding ids it was created with (spec 2.7)`, created);
    if (Array.isArray(draft!.findings)) {
      const lacking = (draft!.findings as Finding[]).filter((f) => EXPLANATION.some((k) => !(k in f)));
      ctx.expect(lacking.length === 0, 'submission-finding-explanations', `${lacking.length} finding(s) inside submission ${id} lack explanation fields ${EXPLANATION.join(', ')} (spec 2.7)`, created);
    }
    const after = await listFindings(client, admin, 'DISPUTED');
    if (!isProblem(after)) ctx.expect(ids.every((x) => after.findings.some((f) => f.id === x)), 'submission-leaves-findings', `after creating submission ${id}, its findings are no longer all DISPUTED (spec 3.4: creating a submission does not change the findings' states)`, after.exchange);

    const read = await call(client, 'GET', `${SUBMISSIONS_PATH}/${id}`, {}, admin);
    ctx.expect(read.response.status === 200 && submissionOf(read)?.status === 'DRAFT', 'submission-read', `GET ${SUBMISSIONS_PATH}/${id} answered ${read.response.status} without { submission } in DRAFT (spec 2.7: never a bare object)`, read);

    const ready = await submissionAction(client, id, 'generate-packet', admin);
    const readyBody = submissionOf(ready);
    if (!ctx.expect(ready.response.status === 200 && readyBody?.status === 'READY' && typeof readyBody.packetUrl === 'string', 'packet-generated', `generate-packet on a DRAFT submission answered ${ready.response.status} ${JSON.stringify(readyBody?.status)} packetUrl ${JSON.stringify(readyBody?.packetUrl)}, not READY with a packetUrl (spec 3.4)`, ready)) return;
    await checkPacket(ctx, String(readyBody!.packetUrl), await client.token());

    const blank = await submissionAction(client, id, 'submit', admin, { externalReference: '' });
    ctx.expect(blank.response.status === 400 && errorOf(blank).code === 'INVALID_REQUEST', 'external-reference-required', `submit with an empty externalReference answered ${blank.response.status}, not 400 INVALID_REQUEST (spec 3.4, 7)`, blank);
    const steps: Array<[string, unknown, string, string]> = [
      ['submit', { externalReference: 'FICT-CONF-DSP-1' }, 'SUBMITTED', 'submittedAt'],
      ['acknowledge', { externalReference: 'FICT-CONF-ACK-1' }, 'ACKNOWLEDGED', 'acknowledgedAt'],
      ['confirm-credit', { confirmation: CONFIRMATION, amountsByFinding: Object.fromEntries(picked.map((f) => [f.id, typeof f.recoverableAmount === 'number' && f.recoverableAmount > 0 ? f.recoverableAmount : 1])) }, 'CREDIT_CONFIRMED', 'creditConfirmedAt'],
    ];
    for (const [step, body, status, stamp] of steps) {
      const res = await submissionAction(client, id, step, admin, body);
      const s = submissionOf(res);
      if (!ctx.expect(res.response.status === 200 && s?.status === status, `submission-${step}`, `${step} answered ${res.response.status} ${JSON.stringify(s?.status)}, not 200 { submission } in ${status} (spec 3.4)`, res)) return;
      ctx.expect(typeof s![stamp] === 'string', 'submission-timestamps', `${step} moved submission ${id} to ${status} with ${stamp} ${JSON.stringify(s![stamp])} (spec 2.7: set on the matching transition)`, res);
    }
    const again = await submissionAction(client, id, 'confirm-credit', admin, { confirmation: CONFIRMATION });
    ctx.expect(again.response.status === 409 && errorOf(again).code === 'ACTION_NOT_ALLOWED', 'confirm-after-confirmed', `confirm-credit after CREDIT_CONFIRMED answered ${again.response.status} ${JSON.stringify(errorOf(again).code)}, not 409 ACTION_NOT_ALLOWED (spec 7)`, again);

    // spec 4.5 rule 5: the per-finding credit is the billing record. Its source states are not shown: the
    // finding goes on along the spec's moves (SUBMITTED, CARRIER_REVIEW) and a credit refused with 409 is allowed.
    const f = picked[0];
    for (const action of ['submit', 'carrier-review']) {
      const moved = await findingAction(client, f.id, action, admin);
      ctx.expect(moved.response.status === 200, `finding-${action}`, `POST ${FINDINGS_PATH}/${f.id}/${action} answered ${moved.response.status} (spec 3.3)`, moved);
    }
    const credited = await findingAction(client, f.id, 'credit', admin, { amount: 1, confirmation: CONFIRMATION });
    if (credited.response.status === 200) ctx.expect((credited.response.body as Finding)?.workflowStatus === 'CREDITED', 'finding-credit', `the per-finding credit answered 200 with workflowStatus ${JSON.stringify((credited.response.body as Finding)?.workflowStatus)}, not CREDITED (spec 4.5)`, credited);
    else ctx.expect(credited.response.status === 409, 'finding-credit', `the per-finding credit of a CARRIER_REVIEW finding answered ${credited.response.status}, neither 200 CREDITED nor 409 (spec 4.5)`, credited);

    async function checkPacket(context: CheckContext, url: string, token: string) {
      const own = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const bytes = Buffer.from(await own.arrayBuffer());
      const ok = own.status === 200 && (own.headers.get('content-type') ?? '').includes('pdf') && bytes.subarray(0, 5).toString() === '%PDF-';
      context.expect(ok, 'packet-served', `GET packetUrl ${url} answered ${own.status} ${own.headers.get('content-type')} (${bytes.length} bytes), not a PDF for the tenant owning the submission (spec 2.7, 3.4)`);
      const other = admin ? await context.admin!.createTenant({ name: 'Conformance ship journey C (other tenant)' }) : undefined;
      const second = other ? context.client.withApiKey(other.integrationKey) : context.second;
      if (!second) return;
      const theirs = await fetch(url, { headers: { authorization: `Bearer ${await second.token()}` } });
      await theirs.arrayBuffer();
      context.expect(theirs.status !== 200, 'packet-isolated', `GET packetUrl ${url} with another tenant's bearer answered ${theirs.status}: the packet was served outside its tenant (spec 7 NOT_FOUND: not the tenant's)`);
    }
  },
});
