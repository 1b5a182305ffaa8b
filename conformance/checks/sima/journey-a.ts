// sima.journey-a (spec 1 workflow A, 2.2, 3.1, 4.2): an integrator enqueues a whole-catalog screening, polls
// the job to its end, then reads the results and the summary. The job's reconciliation and outcomes agree
// with what it produced, as far as the spec makes that certain: results hold the tenant's latest result per
// SKU, so they equal the job's counts only in a tenant where nothing else screens (a fresh tenant of the
// control API); elsewhere they can only cover every SKU the job screened.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { writeTenant } from '../jobs-support.js';
import { allResults, isProblem, num, read, screenCatalog, SUMMARY_PATH, tally } from './support.js';

interface JobBody {
  status?: unknown;
  progress?: unknown;
  reconciliation?: { skusScreened?: unknown };
  outcomes?: { atRisk?: unknown; needsReview?: unknown; cleared?: unknown; falsePositive?: unknown };
}

export const simaJourneyA = defineCheck({
  id: 'sima.journey-a',
  title: 'Workflow A: a whole-catalog screening ends, and its reconciliation and outcomes agree with the results and summary',
  area: 'sima',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const tenant = await writeTenant(ctx, 'Conformance SIMA journey A');
    const screened = await screenCatalog(tenant.client, ctx.admin);
    if (isProblem(screened)) return ctx.fail(screened.rule, screened.message, screened.exchange);
    if (!screened.settled) {
      if (ctx.admin) {
        return ctx.fail('job-reaches-terminal', `job ${screened.jobId} is still ${screened.status ?? 'unread'} after the virtual clock moved ${screened.advancedSeconds} s (spec 3.1: the worker starts and finishes every job)`, screened.exchange);
      }
      ctx.skip(`job ${screened.jobId} did not end while the check polled (still ${screened.status ?? 'unread'}); the spec sets no deadline`);
    }
    const exchange = screened.exchange!;
    const job = exchange.response.body as JobBody;
    if (job.status === 'FAILED') ctx.skip(`the whole-catalog screening ${screened.jobId} ended FAILED (a terminal state the spec allows): no results to compare`);
    ctx.expect(job.progress === 100, 'job-completed-progress', `the COMPLETED job ${screened.jobId} has progress ${JSON.stringify(job.progress)}, not 100 (spec 2.2)`, exchange);

    const screenedSkus = num(job.reconciliation?.skusScreened);
    if (screenedSkus === undefined) return ctx.fail('job-reconciliation', `the COMPLETED job ${screened.jobId} has no integer reconciliation.skusScreened (spec 2.2)`, exchange);

    const results = await allResults(tenant.client, {}, ctx.admin);
    if (isProblem(results)) return ctx.fail(results.rule, results.message, results.exchange);
    const summaryExchange = await read(tenant.client, SUMMARY_PATH, ctx.admin);
    const summary = summaryExchange.response.body as { totalSkus?: unknown; atRisk?: unknown; needsReview?: unknown } | null;
    if (!ctx.expect(summaryExchange.response.status === 200, 'summary-served', `GET ${SUMMARY_PATH} answered ${summaryExchange.response.status}, not 200 (spec 4.2)`, summaryExchange)) return;
    const list = results.pages[0];

    if (!tenant.fresh) {
      // A shared tenant: other screenings may have replaced some of this job's results, never removed a SKU.
      ctx.expect(results.total >= screenedSkus, 'journey-results-cover-job', `the results list ${results.total} SKU(s), fewer than the ${screenedSkus} the job ${screened.jobId} screened (spec 4.2: latest result per SKU)`, list);
      const totalSkus = num(summary?.totalSkus);
      if (totalSkus !== undefined) ctx.expect(totalSkus >= screenedSkus, 'journey-summary-covers-job', `the summary counts ${totalSkus} SKU(s), fewer than the ${screenedSkus} the job ${screened.jobId} screened`, summaryExchange);
      return;
    }

    // A fresh tenant: this job wrote every result there is.
    const seen = tally(results.items);
    ctx.expect(results.total === screenedSkus, 'journey-results-match-job', `a tenant whose only screening is job ${screened.jobId} lists ${results.total} result(s), but the job's reconciliation.skusScreened is ${screenedSkus} (spec 2.2, 4.2: one latest result per screened SKU)`, list);
    const outcomes = job.outcomes ?? {};
    // falsePositive is not an outcome of a result item (spec 2.4): with any, the mapping is not certain. The
    // counts by outcome need every result read (at most MAX_ITEMS).
    if (num(outcomes.falsePositive) === 0 && results.complete) {
      const mismatches = (
        [
          ['atRisk', 'AT_RISK'],
          ['needsReview', 'NEEDS_REVIEW'],
          ['cleared', 'CLEARED'],
        ] as const
      ).filter(([field, outcome]) => num(outcomes[field]) !== seen[outcome]);
      if (mismatches.length) {
        ctx.fail(
          'journey-outcomes-match-results',
          `job ${screened.jobId} reports ${mismatches.map(([field, outcome]) => `outcomes.${field} = ${JSON.stringify(outcomes[field])} where the results hold ${seen[outcome]} ${outcome}`).join('; ')} (spec 2.2, 2.4)`,
          exchange,
        );
      }
    }
    const mismatched = (
      [
        ['totalSkus', screenedSkus, 'reconciliation.skusScreened'],
        ['atRisk', num(outcomes.atRisk), 'outcomes.atRisk'],
        ['needsReview', num(outcomes.needsReview), 'outcomes.needsReview'],
      ] as const
    ).filter(([field, expected]) => expected !== undefined && summary?.[field] !== expected);
    if (mismatched.length) {
      ctx.fail(
        'journey-summary-matches-job',
        `in a tenant whose only screening is job ${screened.jobId}, the summary says ${mismatched.map(([field, expected, source]) => `${field} ${JSON.stringify(summary?.[field])} where the job's ${source} is ${expected}`).join('; ')}`,
        summaryExchange,
      );
    }
  },
});
