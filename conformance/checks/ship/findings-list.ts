// ship.findings-list-filters (spec 4.5, 8.6): GET /api/ship/findings returns only findings in the
// workflowStatus asked for, its limit/offset pages walk every finding once, and the page's status counts
// (spec 4.5 "finding page with status counts"; their key and shape are the deployment's, found by
// harness/locate.ts) agree with the findings it lists.
// ship.batch-credit-disabled (spec 4.5): the batch endpoint refuses action=credit with 400 INVALID_REQUEST
// and a remediation pointing to the per-finding credit endpoint.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { pageItems, statusCounts, withFindingIds } from '../../harness/locate.js';
import type { Exchange } from '../../harness/types.js';
import { FINDINGS_PATH, FINDING_STATES, call, errorOf, findingAction, isProblem, tenantWithFindings, type Finding, type ShipTenant } from './support.js';

/** Disagreements between the page's status counts and the findings it lists; none when they agree. */
async function countProblems(ctx: CheckContext, client: ShipTenant['client']): Promise<Array<{ message: string; exchange: Exchange }>> {
  const whole = await call(client, 'GET', `${FINDINGS_PATH}?limit=500`, {}, ctx.admin);
  const listed = (pageItems(whole.response.body, 'findings') ?? []) as Finding[];
  const counts = statusCounts(whole.response.body, FINDING_STATES, 'statusCounts');
  if (!counts) return [{ message: `GET ${FINDINGS_PATH}?limit=500 answered ${whole.response.status} with no status counts a client can find (spec 4.5: "finding page with status counts")`, exchange: whole }];
  if (listed.length >= 500) return [];
  // A state no finding is in may be left out of the counts.
  return FINDING_STATES.filter((state) => (counts[state] ?? 0) !== listed.filter((f) => f.workflowStatus === state).length).map((state) => ({
    message: `GET ${FINDINGS_PATH}?limit=500 counts ${counts[state] ?? 0} finding(s) ${state} but lists ${listed.filter((f) => f.workflowStatus === state).length} in that state, of ${listed.length} (spec 4.5)`,
    exchange: whole,
  }));
}

/** The page's status counts (their key and shape the deployment's) agree with what it lists; in a shared
 *  tenant a disagreement counts only when a second read shows it again. */
async function statusCountsAgree(ctx: CheckContext, client: ShipTenant['client'], fresh: boolean) {
  let problems = await countProblems(ctx, client);
  if (problems.length && !fresh) problems = await countProblems(ctx, client);
  for (const problem of problems) ctx.fail('finding-status-counts', problem.message, problem.exchange);
}

export const shipFindingsListFilters = defineCheck({
  id: 'ship.findings-list-filters',
  title: 'The findings list honours workflowStatus and walks every finding once with limit and offset',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship findings list', 3, 3);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const [a, b] = setup.findings.filter((f) => f.workflowStatus === 'OPEN');
    if (a) await findingAction(client, a.id, 'dispute', ctx.admin);
    if (b) await findingAction(client, b.id, 'dismiss', ctx.admin);
    for (const status of FINDING_STATES) {
      const path = `${FINDINGS_PATH}?workflowStatus=${status}&limit=500`;
      const page = await call(client, 'GET', path, {}, ctx.admin);
      const items = (pageItems(page.response.body, 'findings') ?? []) as Finding[];
      const wrong = items.filter((f) => f.workflowStatus !== status);
      ctx.expect(page.response.status === 200 && wrong.length === 0, 'findings-filter', `GET ${path} answered ${page.response.status} with ${wrong.length} finding(s) in another state (${[...new Set(wrong.map((f) => String(f.workflowStatus)))].join(', ')}) (spec 4.5)`, page);
    }
    await statusCountsAgree(ctx, client, setup.tenant.fresh);
    if (!setup.tenant.fresh) return;
    const seen: string[] = [];
    for (let offset = 0; offset < setup.findings.length + 1; offset++) {
      const page = await call(client, 'GET', `${FINDINGS_PATH}?limit=1&offset=${offset}`, {}, ctx.admin);
      seen.push(...withFindingIds((pageItems(page.response.body, 'findings') ?? []) as Finding[]).map((f) => f.id));
    }
    const unique = new Set(seen);
    ctx.expect(unique.size === seen.length && unique.size === setup.findings.length, 'findings-pagination', `limit=1 pages over offsets 0..${setup.findings.length} returned ${seen.length} finding(s), ${unique.size} distinct, in a tenant holding ${setup.findings.length} (spec 8.6)`);
  },
});

export const shipBatchCreditDisabled = defineCheck({
  id: 'ship.batch-credit-disabled',
  title: 'The findings batch refuses action=credit with 400 INVALID_REQUEST pointing to the per-finding credit endpoint',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship batch credit', 3, 1);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const res = await call(setup.tenant.client, 'POST', `${FINDINGS_PATH}/batch`, { json: { action: 'credit', findingIds: [setup.findings[0].id] } }, ctx.admin);
    const text = JSON.stringify(res.response.body ?? '');
    ctx.expect(res.response.status === 400 && errorOf(res).code === 'INVALID_REQUEST' && /\/credit/.test(text), 'batch-credit-disabled', `POST ${FINDINGS_PATH}/batch with action=credit answered ${res.response.status} ${JSON.stringify(errorOf(res).code)}, not 400 INVALID_REQUEST with a remediation naming the per-finding credit endpoint (spec 4.5)`, res);
  },
});
