// sima.summary-matches-results (spec 2.4, 4.2): the summary describes the results under the same filter:
// `totalSkus`, `atRisk` and `needsReview` are the counts over the full results list (one latest result per
// SKU), and `totalExposure` is the sum of their `exposureAnnual` (null counts 0), within 0.01. Without a
// filter, and under each filter the summary takes ("query `outcome`, `workflow`, `workflow_not` as above"):
// outcome AT_RISK and NEEDS_REVIEW, workflow OPEN, workflow_not OPEN. Whether workflow_not keeps a result
// without a workflowStatus is not settled (support.ts), but the summary and the results list must settle it
// alike: both are read under the same filter, and the summary is judged against that list.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import { allResults, label, EXPOSURE_TOLERANCE, isProblem, num, read, simaTenant, SUMMARY_PATH, tally, query, type Problem } from './support.js';

const FILTERS: Array<Record<string, string>> = [{}, { outcome: 'AT_RISK' }, { outcome: 'NEEDS_REVIEW' }, { workflow: 'OPEN' }, { workflow_not: 'OPEN' }];

async function judge(client: ConformanceClient, ctx: CheckContext, filters: Record<string, string>): Promise<Problem[]> {
  const where = label(filters);
  const q = query(filters);
  const exchange = await read(client, q ? `${SUMMARY_PATH}?${q}` : SUMMARY_PATH, ctx.admin);
  if (exchange.response.status !== 200) return [{ rule: 'summary-served', message: `GET ${SUMMARY_PATH} (${where}) answered ${exchange.response.status}, not 200 (spec 4.2)`, exchange }];
  const summary = exchange.response.body as { totalSkus?: unknown; atRisk?: unknown; needsReview?: unknown; totalExposure?: unknown };
  const results = await allResults(client, filters, ctx.admin);
  if (isProblem(results)) return [results];
  const problems: Problem[] = [];
  const differ = (rule: string, field: string, got: unknown, what: string) =>
    problems.push({ rule, message: `${where}: the summary's ${field} is ${JSON.stringify(got)}, but ${what} (GET /api/sima/results?${query({ ...filters, limit: 1000 })})`, exchange });
  if (summary.totalSkus !== results.total) differ('summary-total-skus', 'totalSkus', summary.totalSkus, `the results list under the same filter has total ${results.total}`);
  if (!results.complete) return problems; // counts over the items need the full list
  const seen = tally(results.items);
  if (summary.atRisk !== seen.AT_RISK) differ('summary-at-risk', 'atRisk', summary.atRisk, `${seen.AT_RISK} of the results under the same filter are AT_RISK`);
  if (summary.needsReview !== seen.NEEDS_REVIEW) differ('summary-needs-review', 'needsReview', summary.needsReview, `${seen.NEEDS_REVIEW} of the results under the same filter are NEEDS_REVIEW`);
  const exposure = num(summary.totalExposure);
  if (exposure === undefined || Math.abs(exposure - seen.exposure) > EXPOSURE_TOLERANCE) {
    differ('summary-total-exposure', 'totalExposure', summary.totalExposure, `the exposureAnnual of the ${seen.total} result(s) under the same filter sum to ${Math.round(seen.exposure * 100) / 100} (tolerance ${EXPOSURE_TOLERANCE})`);
  }
  return problems;
}

export const simaSummaryMatchesResults = defineCheck({
  id: 'sima.summary-matches-results',
  title: 'The SIMA summary counts and sums the results list under the same filter',
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA summary');
    if (!tenant) return;
    for (const filters of FILTERS) {
      let problems = await judge(tenant.client, ctx, filters);
      // A shared tenant may be screened between the two reads: a problem counts only when it shows again.
      if (problems.length && !tenant.fresh) problems = await judge(tenant.client, ctx, filters);
      for (const problem of problems) ctx.fail(problem.rule, problem.message, problem.exchange);
    }
  },
});
