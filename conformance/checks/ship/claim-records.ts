// What the freight-audit writes keep, judged from what the server itself was sent and answered:
//   ship.claim-create-keeps (spec 2.7, 3.4, 4.5 create and rule 4): a claim submission created from findingIds
//     that hold an id of no finding of the tenant keeps exactly the tenant's findings asked for (rule 4: the
//     ids are filtered to the tenant, and only an empty result is missing_findings), its carrier, DRAFT with no
//     transition timestamp and no packetUrl yet (2.7: "set on the matching transition", "set once READY"),
//     the same on its detail GET; and the findings keep their workflow states (3.4: "Creating a submission
//     does not change the state of the findings"); and each finding the submission embeds shows the explanation
//     fields of its finding record (2.7).
//   ship.finding-credit-recorded (spec 2.6, 3.4, 4.5 credit): the per-finding credit endpoint is the billing
//     record; the credit a CREDITED finding records is the amount confirmed, with the confirmation sent. The
//     finding's other fields are not shown (2.6), so the record is read where the finding shows one: the
//     contract's `credit` (sandbox-defined), required in the simulator profile, judged when present elsewhere.
//   ship.claim-packet-contents (spec 2.7 packetUrl, 3.4 generate-packet; the packet's contents are the
//     sandbox's, simulator/README.md, so the simulator profile only): the PDF at packetUrl names every finding
//     the submission claims with its tracking number and the amount claimed, read from the server's own
//     finding records (the contract's sandbox-defined `trackingNumber` and `recoverableAmount`).
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { findingIdOf } from '../../harness/locate.js';
import { seeded } from '../jobs-support.js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { SUBMISSIONS_PATH, call, findingAction, isProblem, listFindings, submissionAction, submissionOf, tenantWithFindings, type Finding } from './support.js';

/** Spec 2.6: the finding's explanation fields the interface names. */
const EXPLANATION_FIELDS = ['claimEligibility', 'claimBlockerReason', 'actionability', 'headline'] as const;

/**
 * The findings a submission response embeds, wherever it keeps them (spec 2.7 does not name the key): the
 * objects of its arrays that are findings of `ids` (findingIdOf). None when it embeds none (only findingIds).
 */
function embeddedFindings(submission: Record<string, unknown>, ids: readonly string[]): Record<string, unknown>[] {
  return Object.values(submission)
    .filter(Array.isArray)
    .flatMap((items: unknown[]) => items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && ids.includes(findingIdOf(item as Record<string, unknown>) ?? '')));
}

/** An id of no finding of any tenant (rule 4 filters it out). */
const UNKNOWN_FINDING = '00000000-0000-4000-8000-0000000ce4e5';
const carrierOf = (f: Finding) => String(f.carrier ?? 'FEDEX');
const sameSet = (a: readonly unknown[], b: readonly string[]) => a.length === b.length && b.every((id) => a.includes(id));
/** spec 2.7: the timestamps set on their transitions, none of which a DRAFT has made. */
const TRANSITION_STAMPS = ['submittedAt', 'acknowledgedAt', 'creditConfirmedAt', 'failedAt'];

export const shipClaimCreateKeeps = defineCheck({
  id: 'ship.claim-create-keeps',
  title: "Claim creation keeps exactly the tenant's findings asked for and the carrier, in DRAFT with nothing set yet, and moves no finding",
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship claim create keeps', 3, 2);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const admin = ctx.admin;
    const open = setup.findings.filter((f) => f.workflowStatus === 'OPEN');
    const carrier = open[0] ? carrierOf(open[0]) : undefined;
    const pair: Finding[] = [];
    for (const f of open.filter((x) => carrierOf(x) === carrier)) {
      if (pair.length === 2) break;
      const disputed = await findingAction(client, f.id, 'dispute', admin);
      const shown = disputed.response.body as Finding | null;
      if (disputed.response.status === 200 && shown?.claimEligibility === 'ELIGIBLE') pair.push({ ...shown, id: f.id }); // the id as listed (findingIdOf)
    }
    if (pair.length < 2) ctx.skip(`fewer than two findings of one carrier read ELIGIBLE once DISPUTED (${pair.length}): nothing to bundle`);
    const asked = pair.map((f) => f.id);

    const created = await call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier, findingIds: [...asked, UNKNOWN_FINDING] } }, admin);
    const submission = submissionOf(created);
    if (!ctx.expect(created.response.status === 201 && typeof submission?.id === 'string', 'claim-created', `a claim for carrier ${carrier} bundling ELIGIBLE findings ${asked.join(', ')} and ${UNKNOWN_FINDING} (no finding of the tenant) answered ${created.response.status}, not 201 { submission }: findingIds are filtered to the tenant, and only an empty result is refused (spec 4.5 rule 4 missing_findings)`, created)) return;
    const judge = (s: Record<string, unknown>, where: string, exchange: typeof created) => {
      const ids = Array.isArray(s.findingIds) ? s.findingIds : [];
      ctx.expect(sameSet(ids, asked), 'claim-keeps-findings', `${where}: findingIds ${JSON.stringify(s.findingIds)}, not exactly the tenant's findings asked for ${JSON.stringify(asked)} (spec 2.7, 4.5 rule 4: filtered to the tenant, nothing else dropped or added)`, exchange);
      ctx.expect(typeof s.carrier === 'string' && s.carrier.toUpperCase() === String(carrier).toUpperCase(), 'claim-keeps-carrier', `${where}: carrier ${JSON.stringify(s.carrier)}, not the ${JSON.stringify(carrier)} it was created for (spec 2.7, 4.5)`, exchange);
      ctx.expect(s.status === 'DRAFT', 'claim-created-draft', `${where}: status ${JSON.stringify(s.status)}, not DRAFT (spec 3.4, 4.5: 201 { submission } in DRAFT)`, exchange);
      const stamped = TRANSITION_STAMPS.filter((k) => s[k] !== undefined && s[k] !== null);
      ctx.expect(!stamped.length, 'claim-draft-unstamped', `${where}: a DRAFT submission shows ${stamped.map((k) => `${k} ${JSON.stringify(s[k])}`).join(', ')}, set before its transition (spec 2.7: set on the matching transition)`, exchange);
      ctx.expect(s.packetUrl === undefined || s.packetUrl === null || s.packetUrl === '', 'claim-draft-no-packet', `${where}: a DRAFT submission shows packetUrl ${JSON.stringify(s.packetUrl)} (spec 2.7, 3.4: set once READY, by generate-packet)`, exchange);
    };
    judge(submission!, 'the created submission', created);
    const detail = await call(client, 'GET', `${SUBMISSIONS_PATH}/${String(submission!.id)}`, {}, admin);
    const read = submissionOf(detail);
    if (ctx.expect(detail.response.status === 200 && !!read, 'claim-detail-served', `GET ${SUBMISSIONS_PATH}/${String(submission!.id)} answered ${detail.response.status}, not 200 { submission } (spec 2.7, 4.5)`, detail)) {
      judge(read!, 'the submission read back', detail);
    }

    // spec 3.4: the finding workflow and the submission workflow are independent.
    const listed = await listFindings(client, admin);
    if (isProblem(listed)) return ctx.fail(listed.rule, listed.message, listed.exchange);
    for (const id of asked) {
      const f = listed.findings.find((x) => x.id === id);
      ctx.expect(f?.workflowStatus === 'DISPUTED', 'claim-create-keeps-finding-states', `finding ${id}, DISPUTED when bundled, is ${JSON.stringify(f?.workflowStatus)} after the claim was created (spec 3.4: creating a submission does not change the state of the findings)`, listed.exchange);
    }
    // spec 2.7: "Each finding in a submission response carries the same explanation fields as the finding
    // record" (spec 2.6 names them). Judged on the detail read just before the findings were listed.
    if (read) {
      for (const embedded of embeddedFindings(read, asked)) {
        const record = listed.findings.find((x) => x.id === findingIdOf(embedded));
        if (!record) continue;
        const differing = EXPLANATION_FIELDS.filter((field) => JSON.stringify(embedded[field]) !== JSON.stringify(record[field]));
        ctx.expect(
          !differing.length,
          'submission-finding-explanations',
          `the submission's finding ${record.id} shows ${differing.map((field) => `${field} ${JSON.stringify(embedded[field])}`).join(', ')}, the finding record ${differing.map((field) => `${field} ${JSON.stringify(record[field])}`).join(', ')} (spec 2.7: each finding in a submission response carries the same explanation fields as the finding record)`,
          detail,
        );
      }
    }
  },
});

export const shipFindingCreditRecorded = defineCheck({
  id: 'ship.finding-credit-recorded',
  title: 'A finding credit records the amount confirmed and its confirmation (the billing record)',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship finding credit', 3, 1);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const admin = ctx.admin;
    const finding = setup.findings.find((f) => f.workflowStatus === 'OPEN');
    if (!finding) ctx.skip('no OPEN finding to take to a credit');
    for (const action of ['dispute', 'submit', 'carrier-review']) {
      const moved = await findingAction(client, finding.id, action, admin);
      if (moved.response.status !== 200) ctx.skip(`POST .../findings/${finding.id}/${action} answered ${moved.response.status}: the finding cannot reach CARRIER_REVIEW here (the ship.finding-model check judges the moves)`);
    }
    // A small amount (1.01..5.99), below any charge of the invoice, so no cap a deployment may set refuses it.
    const amount = seeded(fc.integer({ min: 101, max: 599 }), ctx.seed, 31) / 100;
    const confirmation = { source: 'conformance', referenceId: `FICT-CONF-CR-${finding.id.slice(0, 8)}`, confirmedAt: new Date().toISOString() };
    const credited = await findingAction(client, finding.id, 'credit', admin, { amount, confirmation });
    // spec 3.3: the source states of credit are not shown; CARRIER_REVIEW is where a carrier credits.
    if (credited.response.status === 409) ctx.skip(`a CARRIER_REVIEW finding cannot be credited here (409; spec 3.3 leaves credit's source states open)`);
    const shown = credited.response.body as Finding | null;
    if (!ctx.expect(credited.response.status === 200 && shown?.workflowStatus === 'CREDITED', 'finding-credited', `POST .../findings/${finding.id}/credit with amount ${amount} answered ${credited.response.status} ${JSON.stringify(shown?.workflowStatus)}, not 200 in CREDITED (spec 4.5)`, credited)) return;

    const listed = await listFindings(client, admin);
    if (isProblem(listed)) return ctx.fail(listed.rule, listed.message, listed.exchange);
    const reads: Array<[string, Finding | undefined, typeof credited]> = [['the credit answer', shown!, credited], ['the findings list', listed.findings.find((f) => f.id === finding.id), listed.exchange]];
    for (const [where, f, exchange] of reads) {
      const credit = f?.credit as { amount?: unknown; confirmation?: { referenceId?: unknown; source?: unknown } } | null | undefined;
      if (credit === undefined || credit === null || typeof credit !== 'object') {
        // The record's shape is the contract's (sandbox-defined): required of our sandbox only.
        if (ctx.options.profile === 'simulator') ctx.fail('finding-credit-recorded', `${where} shows CREDITED finding ${finding.id} without its credit (${JSON.stringify(credit)}); the contract's Finding.credit records it`, exchange);
        continue;
      }
      ctx.expect(typeof credit.amount === 'number' && Math.round(credit.amount * 100) === Math.round(amount * 100), 'finding-credit-amount', `${where}: finding ${finding.id} credited with amount ${amount} records credit.amount ${JSON.stringify(credit.amount)}: the credit recorded is the amount confirmed (spec 4.5 credit, 3.4: the per-finding credit endpoint is the billing record)`, exchange);
      const kept = credit.confirmation;
      if (kept !== undefined) {
        ctx.expect(kept?.referenceId === confirmation.referenceId && kept?.source === confirmation.source, 'finding-credit-confirmation', `${where}: finding ${finding.id} records confirmation ${JSON.stringify(kept)}, not the source ${confirmation.source} and referenceId ${confirmation.referenceId} sent (spec 2.6 credit confirmation)`, exchange);
      }
    }
  },
});

/** The text of a PDF, page after page (pdf.js; the packet's text streams are compressed). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    parts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return parts.join('\n');
}

export const shipClaimPacketContents = defineCheck({
  id: 'ship.claim-packet-contents',
  title: 'The claim packet names every finding it claims with its tracking number and amount',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    if (ctx.options.profile !== 'simulator') ctx.skip("the packet's contents are the sandbox's (spec 2.7 gives only packetUrl): the simulator profile only");
    const setup = await tenantWithFindings(ctx, 'Conformance ship claim packet', 3, 2);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const admin = ctx.admin;
    const open = setup.findings.filter((f) => f.workflowStatus === 'OPEN');
    const carrier = open[0] ? carrierOf(open[0]) : undefined;
    const claimed: Finding[] = [];
    for (const f of open.filter((x) => carrierOf(x) === carrier)) {
      const disputed = await findingAction(client, f.id, 'dispute', admin);
      const shown = disputed.response.body as Finding | null;
      if (disputed.response.status === 200 && shown?.claimEligibility === 'ELIGIBLE') claimed.push({ ...shown, id: f.id });
    }
    if (claimed.length < 2) ctx.skip(`fewer than two findings of one carrier read ELIGIBLE once DISPUTED (${claimed.length})`);
    const created = await call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier, findingIds: claimed.map((f) => f.id) } }, admin);
    const id = submissionOf(created)?.id;
    if (!ctx.expect(created.response.status === 201 && typeof id === 'string', 'claim-created', `a claim bundling ${claimed.length} ELIGIBLE findings answered ${created.response.status}, not 201 { submission } (spec 4.5)`, created)) return;
    const generated = await submissionAction(client, String(id), 'generate-packet', admin);
    const url = submissionOf(generated)?.packetUrl;
    if (!ctx.expect(generated.response.status === 200 && typeof url === 'string' && url !== '', 'packet-generated', `generate-packet of DRAFT submission ${String(id)} answered ${generated.response.status} with packetUrl ${JSON.stringify(url)}, not 200 READY with a packetUrl (spec 2.7, 3.4)`, generated)) return;
    const fetched = await fetch(String(url), { headers: { authorization: `Bearer ${await client.token()}` } });
    const bytes = new Uint8Array(await fetched.arrayBuffer());
    if (!ctx.expect(fetched.status === 200 && Buffer.from(bytes.subarray(0, 5)).toString() === '%PDF-', 'packet-served', `GET packetUrl ${String(url)} answered ${fetched.status} (${bytes.length} bytes), not the PDF packet (spec 2.7, 3.4)`, generated)) return;
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const f of claimed) {
      const tracking = typeof f.trackingNumber === 'string' ? f.trackingNumber : undefined;
      const amount = typeof f.recoverableAmount === 'number' ? f.recoverableAmount.toFixed(2) : undefined;
      const missing = [!text.includes(f.id) && `its id ${f.id}`, !(tracking && text.includes(tracking)) && `its tracking number ${JSON.stringify(f.trackingNumber)}`, !(amount && text.includes(amount)) && `the amount claimed ${JSON.stringify(f.recoverableAmount)}`].filter(Boolean);
      ctx.expect(!missing.length, 'packet-names-findings', `the packet of submission ${String(id)} (packetUrl ${String(url)}) claims finding ${f.id} but its text lacks ${missing.join(', ')}: a carrier packet names every finding it claims with its tracking number and amount`, generated);
    }
  },
});
