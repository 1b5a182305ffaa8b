// Pagination (spec 4.1, 8.6): paging through GET /api/jobs with `limit` and `offset` (offset += limit until a
// page is short) visits every job exactly once, with a stable count.
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { Exchange } from '../harness/types.js';
import { pageDefaultChecks } from './page-defaults.js';
import { batchBody, enqueue, isRateLimited, receiptJobId, settleJobs, SKU_POOL, writeTenant } from './jobs-support.js';

/** Jobs wanted in the tenant: several pages at limit 2 and 3, with a short last page. */
const WANTED = 7;
/** spec 4.1: jobs `limit` is 1..100. */
const MAX_LIMIT = 100;

interface Problem {
  rule: string;
  message: string;
  exchange?: Exchange;
}

interface Listing {
  exchange: Exchange;
  ids: string[];
  count: unknown;
}

async function list(client: ConformanceClient, query: string): Promise<Listing | Problem> {
  const exchange = await client.call('GET', `/api/jobs?${query}`);
  const body = exchange.response.body as { jobs?: Array<{ id?: unknown }>; count?: unknown } | null;
  if (exchange.response.status !== 200 || !Array.isArray(body?.jobs)) {
    return { rule: 'pagination-page-served', message: `GET /api/jobs?${query} answered ${exchange.response.status} without a jobs array`, exchange };
  }
  return { exchange, ids: body!.jobs.map((job) => String(job?.id)), count: body!.count };
}

const isProblem = (value: Listing | Problem): value is Problem => 'rule' in value;

/** One traversal at `limit`, compared with the single page of up to 100 jobs. */
async function traverse(client: ConformanceClient, limit: number, reference: Listing): Promise<Problem[]> {
  const problems: Problem[] = [];
  const seen = new Map<string, number>(); // id -> offset of the page that returned it first
  const pages: Array<{ offset: number; exchange: Exchange }> = [];
  const total = typeof reference.count === 'number' ? reference.count : reference.ids.length;
  for (let offset = 0; offset < MAX_LIMIT && pages.length <= MAX_LIMIT; offset += limit) {
    const page = await list(client, `limit=${limit}&offset=${offset}`);
    if (isProblem(page)) return [...problems, page];
    pages.push({ offset, exchange: page.exchange });
    if (page.ids.length > limit) problems.push({ rule: 'pagination-limit', message: `limit=${limit}&offset=${offset} returned ${page.ids.length} jobs`, exchange: page.exchange });
    if (page.count !== reference.count) {
      problems.push({ rule: 'pagination-count-stable', message: `limit=${limit}&offset=${offset} counts ${JSON.stringify(page.count)} where the single page counts ${JSON.stringify(reference.count)} (spec 2.2: count is the number of matching jobs)`, exchange: page.exchange });
    }
    for (const id of page.ids) {
      if (seen.has(id)) {
        problems.push({ rule: 'pagination-no-duplicates', message: `job ${id} came back at limit=${limit}&offset=${offset} after the page at offset ${seen.get(id)} already returned it`, exchange: page.exchange });
      } else seen.set(id, offset);
    }
    if (page.ids.length < limit) break;
  }
  // The traversal covers the positions of the single page (all jobs when there are at most 100).
  const covered = Math.min(total, MAX_LIMIT, reference.ids.length);
  const missing = reference.ids.slice(0, covered).filter((id) => !seen.has(id));
  if (missing.length) {
    const at = reference.ids.indexOf(missing[0]);
    const page = pages.find((p) => p.offset <= at && at < p.offset + limit) ?? pages[pages.length - 1];
    problems.push({
      rule: 'pagination-no-gaps',
      message: `paging with limit=${limit} never returned ${missing.length} of the ${covered} jobs of the single page (first: ${missing[0]}, position ${at}, expected on the page at offset ${page?.offset ?? '?'})`,
      exchange: page?.exchange,
    });
  }
  if (total <= MAX_LIMIT) {
    const extra = [...seen.keys()].filter((id) => !reference.ids.includes(id));
    if (extra.length) problems.push({ rule: 'pagination-no-gaps', message: `paging with limit=${limit} returned ${extra.length} job(s) the single page does not list (first: ${extra[0]})`, exchange: pages[pages.length - 1]?.exchange });
  }
  return problems;
}

const jobsTraversal = defineCheck({
  id: 'pagination.jobs-traversal',
  title: 'Paging through the job list with limit and offset returns every job once, with a stable count',
  area: 'pagination',
  needs: [],
  async run(ctx: CheckContext) {
    const writes = ctx.options.profile !== 'readonly';
    const tenant = writes ? await writeTenant(ctx, 'Conformance pagination') : { client: ctx.client, fresh: false };
    const { client } = tenant;
    if (writes) {
      const first = await list(client, 'limit=1');
      if (isProblem(first)) return ctx.fail(first.rule, first.message, first.exchange);
      const existing = typeof first.count === 'number' ? first.count : 0;
      const created: string[] = [];
      for (let i = existing; i < WANTED; i++) {
        const exchange = await enqueue(client, batchBody([SKU_POOL[i % SKU_POOL.length]]));
        const id = receiptJobId(exchange);
        if (id) created.push(id);
        else if (isRateLimited(exchange)) break;
        else return ctx.fail('enqueue-accepted', `POST /api/sima/batch answered ${exchange.response.status}, not 202`, exchange);
      }
      // The spec names no order for the list: let the new jobs end first, so no job moves while we page.
      await settleJobs(client, created, { admin: ctx.admin });
    }

    // spec 4.1: limit=100 is the top of the range and is served.
    const reference = await list(client, `limit=${MAX_LIMIT}`);
    if (isProblem(reference)) return ctx.fail('pagination-limit-max', `${reference.message} (spec 4.1: limit 1..100)`, reference.exchange);
    ctx.expect(reference.ids.length <= MAX_LIMIT, 'pagination-limit', `limit=${MAX_LIMIT} returned ${reference.ids.length} jobs`, reference.exchange);
    const one = await list(client, 'limit=1');
    if (!isProblem(one)) ctx.expect(one.ids.length <= 1, 'pagination-limit', `limit=1 returned ${one.ids.length} jobs`, one.exchange);
    if (reference.ids.length < 3) ctx.skip(`the tenant has ${reference.ids.length} job(s): too few to page through`);

    for (const limit of [2, 3]) {
      let problems = await traverse(client, limit, reference);
      // A shared tenant may gain jobs while we page: a problem counts only when it shows again.
      if (problems.length && !tenant.fresh) {
        const again = await list(client, `limit=${MAX_LIMIT}`);
        if (!isProblem(again)) problems = await traverse(client, limit, again);
      }
      for (const problem of problems) ctx.fail(problem.rule, problem.message, problem.exchange);
    }
  },
});

export const paginationChecks: Check[] = [jobsTraversal, ...pageDefaultChecks];
