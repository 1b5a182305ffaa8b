// sima.results-filters-hold (spec 2.4, 4.2): for every value of every results filter (`outcome`, `workflow`,
// `workflow_not`, `hs_in_scope`, `is_stale`), every returned item satisfies it, the filtered total is at most
// the unfiltered one, and, when both lists are read in full, the filtered list is exactly the unfiltered items
// that match (a result the spec leaves open, workflow_not on an item without a workflowStatus, may go either
// way). A value no item has still concludes something: its list must be empty. Read again by offset in pages
// of 2, a filtered list is the same list: offset skips exactly `offset` matching results (spec 8.6).
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import { allResults, label, fieldOf, FILTER_VALUES, idOf, isProblem, pageOf, query, resultsPage, simaTenant, type FilterValue, type Problem, type ResultsList } from './support.js';

function judge(filter: FilterValue, all: ResultsList, filtered: ResultsList): Problem[] {
  const problems: Problem[] = [];
  const where = label({ [filter.param]: filter.value });
  const field = fieldOf[filter.param];
  const broken = filtered.items.filter((item) => !filter.holds(item));
  if (broken.length) {
    const first = broken[0];
    problems.push({
      rule: 'results-filter-holds',
      message: `${where}: ${broken.length} of ${filtered.items.length} returned result(s) do not satisfy it (first: SKU ${String(first.sku)} with ${field} ${JSON.stringify(first[field])}) (spec 4.2)`,
      exchange: pageOf(filtered, first),
    });
  }
  if (filtered.total > all.total) {
    problems.push({ rule: 'results-filter-total', message: `${where}: total is ${filtered.total}, more than the unfiltered total ${all.total}`, exchange: filtered.pages[0] });
  }
  if (all.complete && filtered.complete) {
    const ids = new Set(filtered.items.map(idOf));
    const unfiltered = new Set(all.items.map(idOf));
    const foreign = filtered.items.filter((item) => !unfiltered.has(idOf(item)));
    if (foreign.length) {
      problems.push({
        rule: 'results-filter-subset',
        message: `${where}: ${foreign.length} returned result(s) are not in the unfiltered list (first: ${idOf(foreign[0])}, SKU ${String(foreign[0].sku)}) (spec 4.2: the tenant's latest result per SKU)`,
        exchange: pageOf(filtered, foreign[0]),
      });
    }
    const missing = all.items.filter((item) => filter.expected(item) === true && !ids.has(idOf(item)));
    if (missing.length) {
      problems.push({
        rule: 'results-filter-complete',
        message: `${where}: ${missing.length} result(s) of the unfiltered list match it but are not returned (first: SKU ${String(missing[0].sku)} with ${field} ${JSON.stringify(missing[0][field])})`,
        exchange: filtered.pages[0],
      });
    }
  }
  return problems;
}

/** Small pages, so that a filtered list of a few results crosses page boundaries. */
const WALK_LIMIT = 2;

/** The filtered list read by offset in pages of WALK_LIMIT must be the list read at once (spec 8.6). */
async function judgeOffsetWalk(client: ConformanceClient, ctx: CheckContext, filter: FilterValue, filtered: ResultsList): Promise<Problem[]> {
  if (!filtered.complete || filtered.items.length <= WALK_LIMIT) return [];
  const where = label({ [filter.param]: filter.value });
  const walked: string[] = [];
  for (let offset = 0; offset < filtered.items.length; offset += WALK_LIMIT) {
    const page = await resultsPage(client, query({ [filter.param]: filter.value, limit: WALK_LIMIT, offset }), ctx.admin);
    if (isProblem(page)) return [page];
    walked.push(...page.items.map(idOf));
    const expected = filtered.items.slice(offset, offset + WALK_LIMIT).map(idOf);
    if (page.items.map(idOf).join() !== expected.join()) {
      return [{
        rule: 'results-filter-offset-walk',
        message: `${where}, limit ${WALK_LIMIT}, offset ${offset}: answered results ${JSON.stringify(page.items.map((i) => i.sku))}, not ${JSON.stringify(filtered.items.slice(offset, offset + WALK_LIMIT).map((i) => i.sku))} of the same filtered list read at once (spec 8.6: offset skips exactly offset matching results)`,
        exchange: page.exchange,
      }];
    }
  }
  return [];
}

async function judgeAll(client: ConformanceClient, ctx: CheckContext, all: ResultsList): Promise<Array<{ filter: FilterValue; problems: Problem[] }>> {
  const verdicts = [];
  for (const filter of FILTER_VALUES) {
    const filtered = await allResults(client, { [filter.param]: filter.value }, ctx.admin);
    if (isProblem(filtered)) {
      verdicts.push({ filter, problems: [filtered] });
      continue;
    }
    const problems = judge(filter, all, filtered);
    verdicts.push({ filter, problems: problems.length ? problems : await judgeOffsetWalk(client, ctx, filter, filtered) });
  }
  return verdicts;
}

export const simaResultsFiltersHold = defineCheck({
  id: 'sima.results-filters-hold',
  title: 'Every results filter of spec 4.2 returns only, and (read in full) all, the results that match it',
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA results filters');
    if (!tenant) return;
    let verdicts = await judgeAll(tenant.client, ctx, tenant.results);
    // A shared tenant may be screened while we read: a problem counts only when it shows again.
    if (!tenant.fresh && verdicts.some((v) => v.problems.length)) {
      const again = await allResults(tenant.client, {}, ctx.admin);
      if (isProblem(again)) return ctx.fail(again.rule, again.message, again.exchange);
      verdicts = await judgeAll(tenant.client, ctx, again);
    }
    for (const problem of verdicts.flatMap((v) => v.problems)) ctx.fail(problem.rule, problem.message, problem.exchange);
  },
});
