// ship.claim-eligibility (spec 2.6, 4.5 rule 1): a finding's claimEligibility says what claim creation does
// with it. Rule 1: "Only findings with claimEligibility: ELIGIBLE can be bundled. Eligible workflow states:
// DISPUTED, SUBMITTED, CARRIER_REVIEW. Ineligible: OPEN, DISMISSED, CREDITED, REJECTED, carrier-blocked
// findings, and findings already linked to an active submission." Judged from what the server itself shows,
// with no assumption about which findings it raises or which other eligibility values it uses:
//   - a finding shown (listed, or answered by a move) in OPEN, DISMISSED, CREDITED or REJECTED never reads ELIGIBLE;
//   - a finding read ELIGIBLE is accepted into a claim submission for its carrier (201), and once an active
//     (DRAFT) submission holds it, it no longer reads ELIGIBLE;
//   - a finding read as anything but ELIGIBLE is refused by claim creation (never 2xx);
//   - a finding that read ELIGIBLE while DISPUTED still reads ELIGIBLE once SUBMITTED and once CARRIER_REVIEW
//     (the three eligible workflow states; only its workflow state changed, so none of the rule's other
//     blockers, carrier policy or a link, can have appeared), and is bundled from there.
// The findings are moved with the moves spec 3.3 fixes (dispute, dismiss, submit, carrier-review) and then
// credit and reject, whose source states the spec leaves open: a 409 there leaves the finding where it was.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { CONFIRMATION, SUBMISSIONS_PATH, call, findingAction, isProblem, listFindings, submissionOf, tenantWithFindings, type Finding } from './support.js';

/** spec 4.5 rule 1: the workflow states it names as ineligible. */
export const INELIGIBLE_STATES = ['OPEN', 'DISMISSED', 'CREDITED', 'REJECTED'];

/** The moves that take an OPEN finding to each state to look at (spec 3.3), credit and reject last. */
const PATHS: Array<{ target: string; moves: Array<[string, unknown?]> }> = [
  { target: 'DISPUTED', moves: [['dispute']] },
  { target: 'OPEN', moves: [] },
  { target: 'DISMISSED', moves: [['dismiss']] },
  { target: 'CREDITED', moves: [['dispute'], ['submit'], ['carrier-review'], ['credit', { amount: 1, confirmation: CONFIRMATION }]] },
  { target: 'REJECTED', moves: [['dispute'], ['submit'], ['reject']] },
  { target: 'CARRIER_REVIEW', moves: [['dispute'], ['submit'], ['carrier-review']] },
  { target: 'SUBMITTED', moves: [['dispute'], ['submit']] },
];

/** spec 4.5 rule 1: "Eligible workflow states: DISPUTED, SUBMITTED, CARRIER_REVIEW." */
export const ELIGIBLE_STATES = ['DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW'];

const carrierOf = (f: Finding) => String(f.carrier ?? 'FEDEX');
const describe = (f: Finding) => `finding ${f.id} (${String(f.workflowStatus)}, claimEligibility ${JSON.stringify(f.claimEligibility)}, claimBlockerReason ${JSON.stringify(f.claimBlockerReason ?? null)})`;

export const shipClaimEligibility = defineCheck({
  id: 'ship.claim-eligibility',
  title: 'A finding reads claimEligibility ELIGIBLE exactly when claim creation accepts it, and keeps it in every eligible workflow state (spec 4.5 rule 1)',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship claim eligibility', 7, 3);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const admin = ctx.admin;

    /** Rule 1, read side: no finding shown in a state the rule names as ineligible reads ELIGIBLE. */
    const judgeShown = (findings: Finding[], where: string, exchange?: Exchange) => {
      for (const f of findings.filter((x) => INELIGIBLE_STATES.includes(String(x.workflowStatus)))) {
        ctx.expect(f.claimEligibility !== 'ELIGIBLE', 'ineligible-state-reads-eligible', `${where} shows ${describe(f)}: a ${String(f.workflowStatus)} finding cannot be bundled into a claim, so it must not read ELIGIBLE (spec 4.5 rule 1)`, exchange);
      }
    };
    judgeShown(setup.findings, 'the findings list');

    const open = setup.findings.filter((f) => f.workflowStatus === 'OPEN');
    if (open.length < 2) ctx.skip(`only ${open.length} OPEN finding(s) to move`);
    const ours = PATHS.slice(0, open.length).map((path, i) => ({ ...path, id: open[i].id }));
    /** The findings that read ELIGIBLE while DISPUTED: rule 1 keeps them eligible in SUBMITTED and CARRIER_REVIEW. */
    const eligibleWhenDisputed = new Set<string>();
    /** Rule 1, eligible side: such a finding shown in another eligible state still reads ELIGIBLE. */
    const judgeStillEligible = (findings: Finding[], where: string, exchange?: Exchange) => {
      for (const f of findings.filter((x) => eligibleWhenDisputed.has(x.id) && ELIGIBLE_STATES.includes(String(x.workflowStatus)))) {
        ctx.expect(f.claimEligibility === 'ELIGIBLE', 'eligible-state-reads-ineligible', `${where} shows ${describe(f)}, which read ELIGIBLE while DISPUTED: SUBMITTED and CARRIER_REVIEW are eligible workflow states like DISPUTED, and only its workflow state changed (spec 4.5 rule 1)`, exchange);
      }
    };
    for (const { id, moves } of ours) {
      for (const [action, body] of moves) {
        const answer = await findingAction(client, id, action, admin, body);
        if (answer.response.status !== 200) break;
        const shown = answer.response.body as Finding;
        if (shown.workflowStatus === 'DISPUTED' && shown.claimEligibility === 'ELIGIBLE') eligibleWhenDisputed.add(id);
        judgeShown([shown], `POST .../findings/${id}/${action}`, answer);
        judgeStillEligible([shown], `POST .../findings/${id}/${action}`, answer);
      }
    }

    const listed = await listFindings(client, admin);
    if (isProblem(listed)) return ctx.fail(listed.rule, listed.message, listed.exchange);
    judgeShown(listed.findings, 'the findings list after the moves', listed.exchange);
    judgeStillEligible(listed.findings, 'the findings list after the moves', listed.exchange);

    // Rule 1, create side: each of our findings goes to claim creation alone, judged by what it read.
    for (const { id } of ours) {
      const f = listed.findings.find((x) => x.id === id);
      if (!f) {
        ctx.fail('finding-listed', `finding ${id}, moved by this check, is missing from the findings list (spec 4.5)`, listed.exchange);
        continue;
      }
      const created = await call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier: carrierOf(f), findingIds: [f.id] } }, admin);
      const status = created.response.status;
      if (f.claimEligibility !== 'ELIGIBLE') {
        // A finding that lost ELIGIBLE in another eligible state was failed above; its refusal says nothing more.
        ctx.expect(status < 200 || status >= 300, 'ineligible-finding-bundled', `${describe(f)} was bundled into a claim submission (${status}): only ELIGIBLE findings can be bundled (spec 4.5 rule 1)`, created);
        continue;
      }
      if (!ctx.expect(status === 201 && typeof submissionOf(created)?.id === 'string', 'eligible-finding-refused', `${describe(f)} read ELIGIBLE, yet a claim submission for carrier ${carrierOf(f)} bundling it answered ${status}, not 201 { submission } (spec 4.5 rules 1-2: ELIGIBLE findings can be bundled; ineligible ones are refused)`, created)) continue;
      // Rule 1: "findings already linked to an active submission" are ineligible; a DRAFT submission is active (rule 3).
      const after = await listFindings(client, admin);
      if (isProblem(after)) return ctx.fail(after.rule, after.message, after.exchange);
      const held = after.findings.find((x) => x.id === f.id);
      ctx.expect(held?.claimEligibility !== 'ELIGIBLE', 'linked-finding-reads-eligible', `${held ? describe(held) : `finding ${f.id}`} still reads ELIGIBLE while DRAFT submission ${String(submissionOf(created)?.id)} holds it: a finding linked to an active submission is ineligible (spec 4.5 rules 1 and 3)`, after.exchange);
    }
  },
});
