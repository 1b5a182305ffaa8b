// sima.results-filters-hold (spec 2.4, 4.2): for every value of every results filter (`outcome`, `workflow`,
// `workflow_not`, `hs_in_scope`, `is_stale`), every returned item satisfies it, the filtered total is at most
// the unfiltered one, and, when both lists are read in full, the filtered list is exactly the unfiltered items
// that match (a result the spec leaves open, workflow_not on an item without a workflowStatus, may go either
// way). A value no item has still concludes something: its list must be empty.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import { allResults, label, fieldOf, FILTER_VALUES, idOf, isProblem, pageOf, simaTenant, type FilterValue, type Problem, type ResultsList } from './support.js';

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

async function judgeAll(client: ConformanceClient, ctx: CheckContext, all: ResultsList): Promise<Array<{ filter: FilterValue; problems: Problem[] }>> {
  const verdicts = [];
  for (const filter of FILTER_VALUES) {
    const filtered = await allResults(client, { [filter.param]: filter.value }, ctx.admin);
    verdicts.push({ filter, problems: isProblem(filtered) ? [filtered] : judge(filter, all, filtered) });
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
