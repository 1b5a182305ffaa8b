// sima.evidence-current-result (spec 2.4, 4.2): after a SKU is screened again, the evidence shows the screening
// the results list now holds for it, not an earlier one. One screening cannot tell the two apart
// (sima.evidence-served compares them after one), so a few listed SKUs (one per outcome) are screened again with
// `POST /api/sima/batch { skus }` and no runPolicy: spec 4.2 makes `always` the default, so every one of them
// is screened anew, whatever a server's `skip_exact_duplicates` would skip. Then, for each:
//   rescreen-listed      the listed result is that new screening: its analysisDate is not before the job was
//                        created (a second of slack: the two stamps may come from different clocks' rounding);
//   evidence-current     the evidence's `result` shows the listed result, not the one listed before: spec 2.4
//                        makes `result` a free-form object, so it is searched (at any depth) for the two ids;
//                        naming the earlier id and not the current one is showing the earlier screening.
//                        Naming neither says nothing (a shape without ids), and when the re-screening kept the
//                        id (a server may update one record per SKU) there is nothing to tell apart.
// In a shared tenant another client may screen the same SKUs meanwhile: a mismatch counts only when a second
// read shows it again.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { enqueue, receiptJobId, settleJobs } from '../jobs-support.js';
import { allResults, evidencePath, isProblem, OUTCOMES, read, simaTenant, type Problem, type SimaItem } from './support.js';

const instant = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

/** Every string inside `value`, at any depth (a free-form object's ids wherever its shape puts them). */
function stringsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

/** The first listed SKU of each outcome. */
const onePerOutcome = (items: SimaItem[]) =>
  OUTCOMES.map((outcome) => items.find((item) => item.outcome === outcome && typeof item.sku === 'string')).filter((item): item is SimaItem => item !== undefined);

async function judge(ctx: CheckContext, client: ConformanceClient, skus: string[], before: Map<string, string>, jobCreated: number, jobId: string): Promise<Problem[]> {
  const listed = await allResults(client, {}, ctx.admin);
  if (isProblem(listed)) return [listed];
  const problems: Problem[] = [];
  for (const sku of skus) {
    const item = listed.items.find((candidate) => candidate.sku === sku);
    const page = listed.pages[0];
    if (!item) {
      problems.push({ rule: 'rescreen-listed', message: `SKU ${sku}, screened again by job ${jobId}, is no longer in the results list`, exchange: page });
      continue;
    }
    const analysed = instant(item.analysisDate);
    if (analysed === undefined || analysed < jobCreated - 1_000) {
      problems.push({ rule: 'rescreen-listed', message: `SKU ${sku} was screened again by job ${jobId} (created ${new Date(jobCreated).toISOString()}, runPolicy omitted: spec 4.2 default always), but the results list its result ${String(item.id)} of analysisDate ${JSON.stringify(item.analysisDate)}, from before that job`, exchange: page });
    }
    const exchange: Exchange = await read(client, evidencePath(sku), ctx.admin);
    if (exchange.response.status !== 200) {
      problems.push({ rule: 'evidence-served', message: `the evidence of SKU ${sku}, listed in the results, answered ${exchange.response.status}, not 200 (spec 4.2)`, exchange });
      continue;
    }
    const earlier = before.get(sku);
    if (earlier === undefined || earlier === item.id) continue;
    const named = stringsIn((exchange.response.body as { result?: unknown } | null)?.result);
    if (named.has(earlier) && !named.has(String(item.id))) {
      problems.push({ rule: 'evidence-current', message: `after SKU ${sku} was screened again (job ${jobId}), its evidence's result names ${earlier}, the result listed before, and not ${String(item.id)}, the one the results list now (spec 2.4, 4.2: the evidence of the SKU's result)`, exchange });
    }
  }
  return problems;
}

export const simaEvidenceCurrentResult = defineCheck({
  id: 'sima.evidence-current-result',
  title: "After a SKU is screened again (runPolicy default always), the results list the new screening and its evidence does not show the earlier one",
  area: 'sima',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA evidence current');
    if (!tenant) return;
    const picked = onePerOutcome(tenant.results.items);
    const skus = picked.map((item) => item.sku as string);
    const before = new Map(picked.map((item) => [item.sku as string, String(item.id)]));
    const enqueued = await enqueue(tenant.client, { skus });
    const jobId = receiptJobId(enqueued);
    if (!ctx.expect(jobId !== undefined, 'enqueue-accepted', `POST /api/sima/batch { skus: ${JSON.stringify(skus)} } answered ${enqueued.response.status}, not 202 with a jobId (spec 2.3, 4.2)`, enqueued)) return;
    let last: Exchange | undefined;
    const settled = await settleJobs(tenant.client, [jobId!], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 90_000, onRead: (_id, exchange) => (last = exchange) });
    const job = (last?.response.body ?? {}) as { status?: unknown; createdAt?: unknown };
    if (!settled.settled) {
      if (ctx.admin) return ctx.fail('job-reaches-terminal', `the screening ${jobId} of ${skus.length} SKU(s) is still ${String(job.status)} after ${settled.advancedSeconds} s of virtual time (spec 3.1)`, last);
      ctx.skip(`the screening ${jobId} did not end while the check waited (still ${String(job.status)})`);
    }
    if (job.status !== 'COMPLETED') ctx.skip(`the screening ${jobId} ended ${String(job.status)}: nothing new to compare`);
    const created = instant(job.createdAt);
    if (!ctx.expect(created !== undefined, 'job-created-at', `job ${jobId} has createdAt ${JSON.stringify(job.createdAt)}, not a date-time (spec 2.2)`, last)) return;
    let problems = await judge(ctx, tenant.client, skus, before, created!, jobId!);
    if (problems.length && !tenant.fresh) problems = await judge(ctx, tenant.client, skus, before, created!, jobId!);
    for (const problem of problems) ctx.fail(problem.rule, problem.message, problem.exchange);
  },
});
