// sima.review-survives-rescreen (sandbox-defined; simulator profile): what a re-screening does to a reviewer's
// decision. Spec 2.4 names `workflowStatus` (OPEN, OVERRIDDEN, ACCEPTED, DISMISSED) and spec 3.5 shows no
// transitions and no public operation for them, so a deployment's rule cannot be judged from the spec: the
// check holds the sandbox's documented one (simulator/README.md: review decisions, made through the control
// API, survive a re-screening that gives the same outcome and measure). An AT_RISK result of a fresh tenant
// is accepted (ACCEPTED), its SKU screened again with the same inputs; the listed result, still AT_RISK under
// the same measure, must read ACCEPTED. When the second screening answers otherwise (another outcome or
// measure), the decision was about another answer and nothing is judged.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { enqueue, receiptJobId, settleJobs } from '../jobs-support.js';
import { allResults, isProblem, simaTenant } from './support.js';

export const simaReviewSurvivesRescreen = defineCheck({
  id: 'sima.review-survives-rescreen',
  title: "A reviewer's decision on a SIMA result survives a re-screening with the same outcome and measure (sandbox-defined)",
  area: 'sima',
  needs: ['writes', 'admin'],
  async run(ctx: CheckContext) {
    if (ctx.options.profile !== 'simulator') ctx.skip('the review workflow is the sandbox\'s (spec 3.5: transitions not shown): judged in the simulator profile only');
    const tenant = await simaTenant(ctx, 'Conformance SIMA review and re-screen');
    if (!tenant) return;
    if (!tenant.tenantId) ctx.skip('the tenant is not one the control API created: its results cannot be reviewed');
    const item = tenant.results.items.find((candidate) => candidate.outcome === 'AT_RISK' && candidate.workflowStatus === 'OPEN' && typeof candidate.sku === 'string');
    if (!item) ctx.skip('no AT_RISK result with workflowStatus OPEN to review');
    const sku = item!.sku as string;
    let reviewed: Record<string, unknown>;
    try {
      reviewed = await ctx.admin!.reviewSimaResult(tenant.tenantId!, sku, { action: 'accept', note: 'conformance: decision to keep across a re-screening' });
    } catch (error) {
      // A sandbox whose control API has no SIMA review (an older one, a stub) leaves nothing to judge.
      if (/answered 404/.test((error as Error).message)) ctx.skip(`the control API does not serve the SIMA review: ${(error as Error).message.slice(0, 160)}`);
      throw error;
    }
    if (!ctx.expect(reviewed.workflowStatus === 'ACCEPTED', 'review-accepted', `the control API's accept of SKU ${sku} left workflowStatus ${JSON.stringify(reviewed.workflowStatus)}, not ACCEPTED`)) return;
    const enqueued = await enqueue(tenant.client, { skus: [sku] });
    const jobId = receiptJobId(enqueued);
    if (!ctx.expect(jobId !== undefined, 'enqueue-accepted', `POST /api/sima/batch { skus: [${sku}] } answered ${enqueued.response.status}, not 202 with a jobId (spec 2.3, 4.2)`, enqueued)) return;
    let last: Exchange | undefined;
    const settled = await settleJobs(tenant.client, [jobId!], { admin: ctx.admin, realMs: 10_000, onRead: (_id, exchange) => (last = exchange) });
    const status = (last?.response.body as { status?: unknown } | undefined)?.status;
    if (!ctx.expect(settled.settled && status === 'COMPLETED', 'job-reaches-terminal', `the re-screening ${jobId} of SKU ${sku} ended ${JSON.stringify(status)}, not COMPLETED`, last)) return;
    const listed = await allResults(tenant.client, {}, ctx.admin);
    if (isProblem(listed)) return ctx.fail(listed.rule, listed.message, listed.exchange);
    const now = listed.items.find((candidate) => candidate.sku === sku);
    if (!now || now.outcome !== item!.outcome || now.measureCode !== item!.measureCode) ctx.skip(`the re-screening of SKU ${sku} gave another answer (${String(now?.outcome)} under ${String(now?.measureCode)}): the decision was about the earlier one`);
    ctx.expect(now!.workflowStatus === 'ACCEPTED', 'review-survives-rescreen', `SKU ${sku} was ACCEPTED by a reviewer, then screened again (job ${jobId}) to the same ${String(now!.outcome)} under measure ${String(now!.measureCode)}, and now reads workflowStatus ${JSON.stringify(now!.workflowStatus)}, not ACCEPTED (simulator/README.md: decisions survive a re-screening with the same outcome and measure)`, listed.pages[0]);
  },
});
