// ship.findings-traversal and ship.submissions-traversal (spec 2.7 list envelope, 4.5, 8.6): paging through
// the findings list and the claim submissions list with limit and offset (offset += limit until a page is
// short) returns every item once, and `hasMore` says whether items lie beyond the page: true before the end,
// false on the page that ends the list. The submissions envelope `{ submissions, total, limit, offset,
// hasMore }` is the spec's (2.7); the finding page's fields are "not shown" (spec 4.5; the contract's
// FindingList is sandbox-defined), so for findings `hasMore` and `total` are judged in the simulator profile
// only, while every profile with writes judges the walk itself.
import { findingIdOf, pageItems } from '../../harness/locate.js';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { FINDINGS_PATH, SUBMISSIONS_PATH, call, findingAction, isProblem, submissionAction, submissionOf, tenantWithFindings, type Problem, type ShipTenant } from './support.js';

/** spec 3.4: the claim submission states. */
const SUBMISSION_STATES = ['DRAFT', 'READY', 'SUBMITTED', 'ACKNOWLEDGED', 'CREDIT_CONFIRMED', 'CLOSED', 'FAILED'] as const;
const SUBMISSIONS_SHAPE: ListShape = { path: SUBMISSIONS_PATH, key: 'submissions', max: 200, judgeEnvelope: true };

/** Page sizes of the walk: with a handful of items, full pages, a short last page and a full last page. */
const LIMITS = [2, 3];

interface ListShape {
  path: string;
  /** The key of the item array (spec 2.7 `submissions`; the sandbox's `findings`). */
  key: string;
  /** The largest `limit` the endpoint takes (spec 4.5: findings 500, submissions 200). */
  max: number;
  /** Whether `total` and `hasMore` are normative for this list in this run. */
  judgeEnvelope: boolean;
}

interface Page {
  exchange: Exchange;
  ids: string[];
  total: unknown;
  hasMore: unknown;
}

async function page(tenant: ShipTenant, ctx: CheckContext, shape: ListShape, query: string): Promise<Page | Problem> {
  const path = `${shape.path}?${query}`;
  const exchange = await call(tenant.client, 'GET', path, {}, ctx.admin);
  const body = exchange.response.body as Record<string, unknown> | null;
  // The finding page's item key is the sandbox's (spec 4.5): found by what it holds; `submissions` is the spec's.
  const items = shape.judgeEnvelope ? body?.[shape.key] : pageItems(body, shape.key);
  if (exchange.response.status !== 200 || !Array.isArray(items)) return { rule: 'page-served', message: `GET ${path} answered ${exchange.response.status} without a ${shape.key} array (spec 4.5)`, exchange };
  // A submission's `id` is the spec's (2.7); a finding's identifier is named by the deployment (findingIdOf).
  const idOf = (item: Record<string, unknown>) => (shape.key === 'findings' ? findingIdOf(item) : item?.id);
  return { exchange, ids: (items as Array<Record<string, unknown>>).map((item) => String(idOf(item))), total: body!.total, hasMore: body!.hasMore };
}

/** One walk at `limit` against the single page `reference` (every item of the tenant): its problems. */
async function walk(tenant: ShipTenant, ctx: CheckContext, shape: ListShape, limit: number, reference: Page): Promise<Problem[]> {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const count = reference.ids.length;
  for (let offset = 0; offset <= count; offset += limit) {
    const at = await page(tenant, ctx, shape, `limit=${limit}&offset=${offset}`);
    if (isProblem(at)) return [...problems, at];
    const where = `GET ${shape.path}?limit=${limit}&offset=${offset}`;
    if (at.ids.length > limit) problems.push({ rule: 'pagination-limit', message: `${where} returned ${at.ids.length} items`, exchange: at.exchange });
    for (const id of at.ids) {
      if (seen.has(id)) problems.push({ rule: 'pagination-no-duplicates', message: `${where} returned ${id} again`, exchange: at.exchange });
      seen.add(id);
    }
    if (shape.judgeEnvelope) {
      if (at.total !== reference.total) problems.push({ rule: 'pagination-total-stable', message: `${where} says total ${JSON.stringify(at.total)} where limit=${shape.max} says ${JSON.stringify(reference.total)}`, exchange: at.exchange });
      // Items lie beyond this page exactly when the page ends before the list does.
      const beyond = offset + at.ids.length < count;
      if (at.hasMore !== beyond) {
        problems.push({ rule: beyond ? 'has-more-before-end' : 'has-more-false-on-last-page', message: `${where} (items ${offset + 1}..${offset + at.ids.length} of ${count}) says hasMore ${JSON.stringify(at.hasMore)}, not ${beyond} (spec 2.7 list envelope)`, exchange: at.exchange });
      }
    }
    if (at.ids.length < limit) break;
  }
  const missing = reference.ids.filter((id) => !seen.has(id));
  if (missing.length) problems.push({ rule: 'pagination-no-gaps', message: `paging ${shape.path} with limit=${limit} never returned ${missing.length} of its ${count} items (first: ${missing[0]})`, exchange: reference.exchange });
  return problems;
}

/** Walks the list at each page size; in a shared tenant a problem counts only when it shows again. */
async function traverse(ctx: CheckContext, tenant: ShipTenant, shape: ListShape, minItems: number) {
  const reference = await page(tenant, ctx, shape, `limit=${shape.max}`);
  if (isProblem(reference)) return ctx.fail(reference.rule, reference.message, reference.exchange);
  if (reference.ids.length >= shape.max) ctx.skip(`the tenant holds ${shape.max} or more items: the single page cannot list them all`);
  if (reference.ids.length < minItems) return ctx.fail('items-listed', `GET ${shape.path}?limit=${shape.max} lists ${reference.ids.length} item(s) where the check created ${minItems}`, reference.exchange);
  if (shape.judgeEnvelope) ctx.expect(reference.hasMore === false, 'has-more-false-on-last-page', `GET ${shape.path}?limit=${shape.max} lists all ${reference.ids.length} items and says hasMore ${JSON.stringify(reference.hasMore)}, not false (spec 2.7 list envelope)`, reference.exchange);
  for (const limit of LIMITS) {
    let problems = await walk(tenant, ctx, shape, limit, reference);
    if (problems.length && !tenant.fresh) {
      const again = await page(tenant, ctx, shape, `limit=${shape.max}`);
      if (!isProblem(again)) problems = await walk(tenant, ctx, shape, limit, again);
    }
    for (const problem of problems) ctx.fail(problem.rule, problem.message, problem.exchange);
  }
}

export const shipFindingsTraversal = defineCheck({
  id: 'ship.findings-traversal',
  title: 'Paging through the findings list returns every finding once; hasMore is false on the last page (simulator profile)',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship findings traversal', 5, 4);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const judgeEnvelope = ctx.options.profile === 'simulator';
    await traverse(ctx, setup.tenant, { path: FINDINGS_PATH, key: 'findings', max: 500, judgeEnvelope }, setup.findings.length);
  },
});

/** Submissions the walk needs: two full pages at limit 2, a full last page at limit 3, a short one at 2. */
const SUBMISSIONS = 6;

export const shipSubmissionsTraversal = defineCheck({
  id: 'ship.submissions-traversal',
  title: 'Paging through the claim submissions list returns every submission once; hasMore is false on the last page',
  area: 'ship',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const setup = await tenantWithFindings(ctx, 'Conformance ship submissions traversal', 8, SUBMISSIONS);
    if (isProblem(setup)) return ctx.fail(setup.rule, setup.message, setup.exchange);
    const { client } = setup.tenant;
    const open = setup.findings.filter((f) => f.workflowStatus === 'OPEN').slice(0, SUBMISSIONS);
    if (open.length < SUBMISSIONS) ctx.skip(`only ${open.length} OPEN finding(s): ${SUBMISSIONS} submissions of one finding each are needed`);
    // One DISPUTED finding per submission (spec 4.5 rule 1; rule 3: a finding is held by one active submission).
    for (const finding of open) {
      await findingAction(client, finding.id, 'dispute', ctx.admin);
      const created = await call(client, 'POST', SUBMISSIONS_PATH, { json: { carrier: String(finding.carrier ?? 'FEDEX'), findingIds: [finding.id] } }, ctx.admin);
      if (created.response.status !== 201 || !submissionOf(created)) return ctx.fail('claim-created', `a DISPUTED, ELIGIBLE finding bundled alone answered ${created.response.status}, not 201 { submission } (spec 4.5 rule 1)`, created);
    }
    await traverse(ctx, setup.tenant, { path: SUBMISSIONS_PATH, key: 'submissions', max: 200, judgeEnvelope: true }, SUBMISSIONS);
    await statusFilterHolds(ctx, setup.tenant);
  },
});

/**
 * Spec 4.5 GET /api/ship/claims/submissions: "query `status` (submission state)". Two submissions move to
 * READY (generate-packet), then the list read under each status it holds returns exactly the submissions of
 * that status, and a status none holds an empty list.
 */
async function statusFilterHolds(ctx: CheckContext, tenant: ShipTenant): Promise<void> {
  const before = await page(tenant, ctx, SUBMISSIONS_SHAPE, 'limit=200');
  if (isProblem(before)) return ctx.fail(before.rule, before.message, before.exchange);
  for (const id of before.ids.slice(0, 2)) await submissionAction(tenant.client, id, 'generate-packet', ctx.admin);
  const all = await call(tenant.client, 'GET', `${SUBMISSIONS_PATH}?limit=200`, {}, ctx.admin);
  const items = ((all.response.body as { submissions?: Array<{ id?: unknown; status?: unknown }> } | null)?.submissions ?? []).map((s) => ({ id: String(s.id), status: String(s.status) }));
  const statuses = [...new Set(items.map((s) => s.status))];
  const unused = SUBMISSION_STATES.find((status) => !statuses.includes(status));
  for (const status of [...statuses, ...(unused ? [unused] : [])]) {
    const filtered = await page(tenant, ctx, SUBMISSIONS_SHAPE, `status=${encodeURIComponent(status)}&limit=200`);
    if (isProblem(filtered)) return ctx.fail(filtered.rule, filtered.message, filtered.exchange);
    const expected = items.filter((s) => s.status === status).map((s) => s.id).sort();
    const got = [...filtered.ids].sort();
    ctx.expect(
      got.length === expected.length && got.every((id, i) => id === expected[i]),
      'submissions-status-filter',
      `GET ${SUBMISSIONS_PATH}?status=${status} listed ${got.length} submission(s), the unfiltered list holds ${expected.length} in ${status} (spec 4.5: the list filters by status)`,
      filtered.exchange,
    );
  }
}
