// ship.claim-rules (spec 4.5 claim creation rules 1-4): ineligible findings are 400 INVALID_REQUEST naming
// each finding and its claimBlockerReason in details.invalidFindingStates; a finding linked to an active
// submission is 409 ACTION_NOT_ALLOWED naming it in details.duplicateLinks, while one of a FAILED submission
// is bundled again (201); findingIds of no finding of the tenant is 409 with subcode missing_findings; and
// (control API) a carrier the tenant policy blocks is 409 with subcode carrier_blocked.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { AdminClient } from '../../harness/admin.js';
import type { ConformanceClient } from '../../harness/client.js';
import { namesValue } from '../../harness/locate.js';
import { CONFIRMATION, SUBMISSIONS_PATH, call, errorOf, findingAction, isProblem, submissionAction, submissionOf, tenantWithFindings } from './support.js';

const UNKNOWN_FINDING = '00000000-0000-4000-8000-00000000c0de';

/**
 * Walks a DRAFT submission of one finding to FAILED (spec 3.4): generate-packet, submit, then confirm-credit
 * with every finding failed (amount 0). Returns the status it ends in; a step refused leaves it where it is.
 */
async function failSubmission(client: ConformanceClient, id: string, findingId: string, admin?: AdminClient): Promise<unknown> {
  const steps: Array<[string, unknown]> = [
    ['generate-packet', undefined],
    ['submit', { externalReference: 'FICT-CONF-RULE3' }],
    ['confirm-credit', { confirmation: CONFIRMATION, amountsByFinding: { [findingId]: 0 } }],
  ];
  let status: unknown = 'DRAFT';
  for (const [step, body] of steps) {
    const answer = await submissionAction(client, id, step, admin, body);
    if (answer.response.status !== 200) return status;
    status = submissionOf(answer)?.status;
    if (status === 'FAILED') return status;
  }
  return status;
}

export const shipClaimRules = defineCheck({
  id: 'ship.claim-rules',
  title: 'Claim creation follows rules 1-4: invalidFindingStates, duplicateLinks, missing_findings, carrier_blocked',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship claim rules', 3, 3);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const admin = ctx.admin;
    const open = setup.findings.filter((f) => f.workflowStatus === 'OPEN');
    if (open.length < 3) ctx.skip(`only ${open.length} OPEN finding(s) to work with`);
    const [first, second, third] = open;
    const carrierOf = (f: typeof first) => String(f.carrier ?? 'FEDEX');
    const create = (ids: string[], carrier: string) => call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier, findingIds: ids } }, admin);

    // Rule 4: nothing left after filtering to the tenant.
    const missing = await create([UNKNOWN_FINDING], carrierOf(first));
    ctx.expect(missing.response.status === 409 && errorOf(missing).code === 'ACTION_NOT_ALLOWED' && errorOf(missing).details?.subcode === 'missing_findings', 'claim-missing-findings', `findingIds naming no finding of the tenant answered ${missing.response.status} ${JSON.stringify(errorOf(missing).details?.subcode)}, not 409 subcode missing_findings (spec 4.5 rule 4)`, missing);

    // Rules 1-2: an OPEN finding cannot be bundled.
    const ineligible = await create([first.id], carrierOf(first));
    const states = errorOf(ineligible).details?.invalidFindingStates;
    // `claimBlockerReason` is the spec's name (rule 2); the key naming the finding is not given: any value naming it.
    const named = Array.isArray(states) && states.some((s) => namesValue(s, first.id) && 'claimBlockerReason' in (s as object));
    ctx.expect(ineligible.response.status === 400 && errorOf(ineligible).code === 'INVALID_REQUEST' && named, 'claim-ineligible-findings', `an OPEN finding bundled into a claim answered ${ineligible.response.status} ${JSON.stringify(errorOf(ineligible).code)}, not 400 INVALID_REQUEST with details.invalidFindingStates naming it and its claimBlockerReason (spec 4.5 rules 1-2)`, ineligible);

    // Rule 3: a finding already linked to an active submission.
    await findingAction(client, second.id, 'dispute', admin);
    const held = await create([second.id], carrierOf(second));
    const heldId = submissionOf(held)?.id;
    if (!ctx.expect(held.response.status === 201 && typeof heldId === 'string', 'claim-created', `a DISPUTED, ELIGIBLE finding answered ${held.response.status}, not 201 { submission } (spec 4.5 rule 1)`, held)) return;
    const linked = await create([second.id], carrierOf(second));
    const links = errorOf(linked).details?.duplicateLinks;
    const naming = Array.isArray(links) && links.some((l) => namesValue(l, String(heldId)));
    ctx.expect(linked.response.status === 409 && errorOf(linked).code === 'ACTION_NOT_ALLOWED' && naming, 'claim-duplicate-links', `a finding linked to DRAFT submission ${heldId} bundled again answered ${linked.response.status}, not 409 ACTION_NOT_ALLOWED with details.duplicateLinks naming that submission (spec 4.5 rule 3)`, linked);

    // Rule 3, the other way: a FAILED submission no longer holds its findings. It fails when confirm-credit
    // reports every finding failed (spec 3.4), or at packet generation or submission on its own.
    const failed = await failSubmission(client, String(heldId), second.id, admin);
    if (failed === 'FAILED') {
      const again = await create([second.id], carrierOf(second));
      ctx.expect(again.response.status === 201 && submissionOf(again)?.status === 'DRAFT', 'claim-failed-releases-findings', `a finding of FAILED submission ${heldId} bundled again answered ${again.response.status} ${JSON.stringify(submissionOf(again)?.status ?? errorOf(again).code)}, not 201 { submission } in DRAFT (spec 4.5 rule 3: a FAILED submission no longer holds its findings)`, again);
    }

    // Rule 4 carrier_blocked: the tenant's carrier policy (set through the control API).
    if (!admin || !setup.tenant.tenantId) return;
    await findingAction(client, third.id, 'dispute', admin);
    await admin.updateSettings(setup.tenant.tenantId, { carrierPolicies: { [carrierOf(third)]: { policy: 'manual_import_only' } } });
    const blocked = await create([third.id], carrierOf(third));
    ctx.expect(blocked.response.status === 409 && errorOf(blocked).details?.subcode === 'carrier_blocked', 'claim-carrier-blocked', `with carrier ${carrierOf(third)} set manual_import_only for the tenant, a claim for it answered ${blocked.response.status} ${JSON.stringify(errorOf(blocked).details?.subcode)}, not 409 subcode carrier_blocked (spec 4.5 rule 4)`, blocked);
  },
});
