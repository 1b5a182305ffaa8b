// sima.results-cursor-walks-once (spec 2.4, 4.2, 8.6): following `cursor` from the first page with a small
// `limit` visits every result once: no page exceeds the limit, no result comes twice, none of the single
// large page (limit=1000) is missed, `total` stays the same, a page with `hasMore: true` names the next
// `cursor`, and the last page has `hasMore: false` and `cursor: null`. A cursor the server never issued is
// 400 INVALID_REQUEST (spec 7: validation failure).
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { RUN_NONCE, seeded } from '../jobs-support.js';
import { idOf, isProblem, MAX_LIMIT, query, read, RESULTS_PATH, resultsPage, simaTenant, type Problem, type ResultsPage } from './support.js';

/** More pages than any walk of at most MAX_LIMIT results at the smallest limit needs. */
const MAX_PAGES = 600;

async function walk(client: ConformanceClient, ctx: CheckContext, limit: number, reference: ResultsPage): Promise<Problem[]> {
  const problems: Problem[] = [];
  const seen = new Map<string, number>(); // id -> page that returned it first
  const pages: Exchange[] = [];
  let cursor: string | undefined;
  for (let index = 0; ; index++) {
    if (index >= MAX_PAGES) {
      problems.push({ rule: 'cursor-terminates', message: `limit=${limit}: still hasMore after ${MAX_PAGES} pages for a total of ${reference.total}`, exchange: pages[pages.length - 1] });
      break;
    }
    const q = query({ limit, cursor });
    const page = await resultsPage(client, q, ctx.admin);
    if (isProblem(page)) return [...problems, page];
    pages.push(page.exchange);
    const where = index === 0 ? `the first page (limit=${limit})` : `page ${index + 1} (limit=${limit}, following the cursor)`;
    if (page.items.length > limit) problems.push({ rule: 'results-limit', message: `${where} returned ${page.items.length} results`, exchange: page.exchange });
    if (page.total !== reference.total) {
      problems.push({ rule: 'cursor-total-stable', message: `${where} has total ${page.total} where the single page has ${reference.total} (spec 2.4)`, exchange: page.exchange });
    }
    for (const item of page.items) {
      const id = idOf(item);
      if (seen.has(id)) {
        problems.push({ rule: 'cursor-no-repeats', message: `${where} returned result ${id} (SKU ${String(item.sku)}) again, already on page ${seen.get(id)! + 1}`, exchange: page.exchange });
      } else seen.set(id, index);
    }
    if (page.hasMore === true) {
      if (typeof page.cursor !== 'string' || page.cursor === '') {
        problems.push({ rule: 'cursor-continues', message: `${where} says hasMore: true but gives no cursor to follow (cursor ${JSON.stringify(page.cursor)})`, exchange: page.exchange });
        break;
      }
      cursor = page.cursor;
      continue;
    }
    if (page.hasMore !== false) {
      problems.push({ rule: 'cursor-last-page', message: `${where} has hasMore ${JSON.stringify(page.hasMore)}, not a boolean`, exchange: page.exchange });
    } else if (page.cursor !== null) {
      problems.push({ rule: 'cursor-last-page', message: `${where} says hasMore: false but its cursor is ${JSON.stringify(page.cursor)}, not null (spec 2.4)`, exchange: page.exchange });
    }
    break;
  }
  if (reference.total <= MAX_LIMIT) {
    const missing = reference.items.filter((item) => !seen.has(idOf(item)));
    if (missing.length) {
      problems.push({
        rule: 'cursor-no-gaps',
        message: `following the cursor with limit=${limit} never returned ${missing.length} of the ${reference.items.length} results of the single page (first: ${idOf(missing[0])}, SKU ${String(missing[0].sku)})`,
        exchange: pages[pages.length - 1],
      });
    }
    const known = new Set(reference.items.map(idOf));
    const extra = [...seen.keys()].filter((id) => !known.has(id));
    if (extra.length) problems.push({ rule: 'cursor-no-gaps', message: `following the cursor with limit=${limit} returned ${extra.length} result(s) the single page does not list (first: ${extra[0]})`, exchange: pages[pages.length - 1] });
  }
  return problems;
}

export const simaResultsCursorWalksOnce = defineCheck({
  id: 'sima.results-cursor-walks-once',
  title: 'Following the results cursor with a small limit visits every result once and ends with hasMore false and cursor null',
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA results cursor');
    if (!tenant) return;
    const { client } = tenant;
    let reference = await resultsPage(client, query({ limit: MAX_LIMIT }), ctx.admin);
    if (isProblem(reference)) return ctx.fail(reference.rule, reference.message, reference.exchange);

    // A garbage cursor (spec 7: validation failure) is refused, whatever the data.
    const garbage = `~not-a-cursor-${RUN_NONCE}~`;
    const refused = await read(client, `${RESULTS_PATH}?${query({ limit: 2, cursor: garbage })}`, ctx.admin);
    const code = (refused.response.body as { code?: unknown } | null)?.code;
    ctx.expect(
      refused.response.status === 400 && code === 'INVALID_REQUEST',
      'cursor-garbage-rejected',
      `a cursor the server never issued (${garbage}) answered ${refused.response.status}${typeof code === 'string' ? ` ${code}` : ''}, not 400 INVALID_REQUEST (spec 7)`,
      refused,
    );

    if (reference.total < 2) ctx.skip(`the tenant has ${reference.total} SIMA result(s): too few to follow a cursor`);
    // Several pages, with a short last page most of the time: a limit in 2..7 drawn with the seed.
    const limit = Math.min(seeded(fc.integer({ min: 2, max: 7 }), ctx.seed), reference.total - 1);
    let problems = await walk(client, ctx, limit, reference);
    if (problems.length && !tenant.fresh) {
      const again = await resultsPage(client, query({ limit: MAX_LIMIT }), ctx.admin);
      if (!isProblem(again)) {
        reference = again;
        problems = await walk(client, ctx, limit, reference);
      }
    }
    for (const problem of problems) ctx.fail(problem.rule, problem.message, problem.exchange);
  },
});
