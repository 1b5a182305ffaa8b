// ship.findings-status-counts (spec 4.5 "finding page with status counts", 2.6): the counts per workflow
// state the findings page carries agree with the findings it lists. The spec names neither the field nor
// its shape ("response field list: not shown"), so the counts are located, not assumed: a property of the
// page (or of an object inside it) that maps workflow states to integers, or a list of entries each naming
// a state and an integer. A state the counts leave out counts 0. Judged on an unfiltered page holding every
// finding of the tenant (whether counts follow a filter is not said), after moves that spread the findings
// over OPEN, DISPUTED and DISMISSED.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { FINDINGS_PATH, FINDING_STATES, call, findingAction, isProblem, listFindings, tenantWithFindings } from './support.js';

type Counts = Record<string, number>;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isState = (v: unknown): v is string => typeof v === 'string' && (FINDING_STATES as readonly string[]).includes(v);

/** Counts per state read from one value, if it is shaped as counts per state. */
function countsIn(value: unknown): Counts | null {
  // A count entry is small (a state, a count, perhaps a label); a finding carries at least the five fields
  // spec 2.6 names, whatever its identifier is called, so the findings themselves are never taken for counts.
  if (Array.isArray(value) && value.length > 0 && value.every((e) => typeof e === 'object' && e !== null && Object.keys(e).length <= 3)) {
    const counts: Counts = {};
    for (const entry of value as Array<Record<string, unknown>>) {
      const state = Object.values(entry).filter(isState);
      const count = Object.values(entry).filter(isCount);
      if (state.length !== 1 || count.length !== 1) return null;
      counts[state[0]] = count[0];
    }
    return counts;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length > 0 && entries.every(([k, v]) => isState(k) && isCount(v))) return Object.fromEntries(entries);
  }
  return null;
}

/** The page's counts per state: a property of the page, or of an object one level inside it. */
export function locateStatusCounts(body: unknown): { where: string; counts: Counts } | null {
  if (typeof body !== 'object' || body === null) return null;
  for (const [key, value] of Object.entries(body)) {
    const counts = countsIn(value);
    if (counts) return { where: key, counts };
  }
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    for (const [inner, nested] of Object.entries(value)) {
      const counts = countsIn(nested);
      if (counts) return { where: `${key}.${inner}`, counts };
    }
  }
  return null;
}

export const shipFindingsStatusCounts = defineCheck({
  id: 'ship.findings-status-counts',
  title: "The findings page's status counts agree with the findings it lists (spec 4.5)",
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship status counts', 3, 3);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const [a, b] = setup.findings.filter((f) => f.workflowStatus === 'OPEN');
    if (a) await findingAction(client, a.id, 'dispute', ctx.admin);
    if (b) await findingAction(client, b.id, 'dismiss', ctx.admin);

    const page = await call(client, 'GET', `${FINDINGS_PATH}?limit=500`, {}, ctx.admin);
    if (page.response.status !== 200) return ctx.fail('findings-served', `GET ${FINDINGS_PATH}?limit=500 answered ${page.response.status}, not 200 (spec 4.5)`, page);
    const located = locateStatusCounts(page.response.body);
    if (!located) ctx.skip('no counts per workflow state located in the findings page (its field list is not shown, spec 4.5)');
    const listed = await listFindings(client, ctx.admin);
    if (isProblem(listed)) return ctx.fail(listed.rule, listed.message, listed.exchange);
    if (listed.findings.length >= 2500) ctx.skip(`the tenant holds ${listed.findings.length}+ findings, more than this check walks`);
    const seen: Counts = {};
    for (const f of listed.findings) seen[String(f.workflowStatus)] = (seen[String(f.workflowStatus)] ?? 0) + 1;
    const wrong = FINDING_STATES.filter((s) => (located!.counts[s] ?? 0) !== (seen[s] ?? 0));
    ctx.expect(
      wrong.length === 0,
      'status-counts-match',
      `the findings page counts ${wrong.map((s) => `${s} ${located!.counts[s] ?? 0}`).join(', ')} (at ${located!.where}), while the tenant's ${listed.findings.length} listed findings hold ${wrong.map((s) => `${s} ${seen[s] ?? 0}`).join(', ')} (spec 4.5: a finding page with status counts)`,
      page,
    );
  },
});
