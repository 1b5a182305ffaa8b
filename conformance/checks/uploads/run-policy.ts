// uploads.run-policy (spec 4.3, 4.2, 2.2): `POST /api/upload` takes `runPolicy` (`always` default /
// `skip_exact_duplicates`). The same small catalog file (its last row a SKU unique to the run) is uploaded
// again and again, each job waited for:
//   1. without runPolicy: the reference screening;
//   2. without runPolicy again: the default is `always`, so the file's SKUs are screened anew: the job reports
//      as many SKUs screened (reconciliation.skusScreened) as the first, and the run's SKU is listed with a
//      result not older than this job;
//   3. with runPolicy=always: the same;
//   4. simulator profile only, with runPolicy=skip_exact_duplicates: the sandbox reads an identical input as
//      an exact duplicate and skips it (simulator/README.md), so fewer SKUs are screened than under `always`.
//      The spec does not say what an exact duplicate is, so other profiles do not judge this step.
// Two results stamped within the same second are not told apart (a second of slack on analysisDate).
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { receiptJobId, settleJobs } from '../jobs-support.js';
import { allResults, isProblem } from '../sima/support.js';
import { formWith, uniqueFile } from './files.js';
import { runTag, uploadTenant, type UploadTenant } from './send.js';
import { uploadOperations, type UploadOperation } from './targets.js';

interface Screening {
  jobId: string;
  created: number;
  screened: number;
  job: Exchange;
}

const instant = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

async function screen(ctx: CheckContext, tenant: UploadTenant, target: UploadOperation, file: File, runPolicy: string | undefined, step: string): Promise<Screening | undefined> {
  const form = formWith(target, file);
  if (runPolicy !== undefined) form.append('runPolicy', runPolicy);
  const accepted = await tenant.client.call('POST', target.path, { form });
  const jobId = receiptJobId(accepted);
  if (!ctx.expect(jobId !== undefined, 'upload-accepted', `${step}: POST ${target.path} answered ${accepted.response.status}, not 202 with a jobId (spec 4.3)`, accepted)) return undefined;
  let last: Exchange | undefined;
  const settled = await settleJobs(tenant.client, [jobId!], { admin: ctx.admin, realMs: ctx.admin ? 10_000 : 90_000, onRead: (_id, exchange) => (last = exchange) });
  const job = (last?.response.body ?? {}) as { status?: unknown; createdAt?: unknown; reconciliation?: { skusScreened?: unknown } };
  if (!settled.settled) {
    if (ctx.admin) return void ctx.fail('job-reaches-terminal', `${step}: job ${jobId} is still ${String(job.status)} after ${settled.advancedSeconds} s of virtual time (spec 3.1)`, last);
    ctx.skip(`${step}: job ${jobId} did not end while the check waited (still ${String(job.status)})`);
  }
  if (job.status !== 'COMPLETED') ctx.skip(`${step}: job ${jobId} ended ${String(job.status)}: nothing screened to compare`);
  const created = instant(job.createdAt);
  const screened = job.reconciliation?.skusScreened;
  if (!ctx.expect(created !== undefined && Number.isInteger(screened), 'job-fields', `${step}: job ${jobId} lacks a date-time createdAt or an integer reconciliation.skusScreened (spec 2.2)`, last)) return undefined;
  return { jobId: jobId!, created: created!, screened: screened as number, job: last! };
}

/** The run's SKU as listed now: its analysisDate, or undefined when it is not listed. */
async function listedAnalysis(ctx: CheckContext, tenant: UploadTenant, sku: string): Promise<{ at?: number; exchange?: Exchange }> {
  const listed = await allResults(tenant.client, {}, ctx.admin);
  if (isProblem(listed)) return {};
  const item = listed.items.find((candidate) => candidate.sku === sku);
  return { at: item ? instant(item.analysisDate) : undefined, exchange: listed.pages[0] };
}

export const uploadRunPolicy = defineCheck({
  id: 'uploads.run-policy',
  title: 'POST /api/upload screens an identical file anew by default and with runPolicy=always (and skips it with skip_exact_duplicates in the sandbox)',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const target = uploadOperations(ctx.contract).find((t) => t.jobType === 'sima_validation' && !t.unvalued.length);
    if (!target) return ctx.skip(`contract ${ctx.contract.version} has no SIMA screening upload (x-job-type sima_validation)`);
    const tenant = await uploadTenant(ctx, 'Conformance upload runPolicy', [target]);
    const sku = runTag(ctx, 'policy', 0);
    const file = uniqueFile(ctx.contract.doc, target, sku);
    const first = await screen(ctx, tenant, target, file, undefined, 'upload 1 (runPolicy omitted)');
    if (!first) return;
    if (first.screened === 0) ctx.skip(`the first screening of the file (job ${first.jobId}) screened no SKU: nothing to screen again`);
    for (const [policy, step] of [[undefined, 'upload 2 (runPolicy omitted: default always)'], ['always', 'upload 3 (runPolicy=always)']] as const) {
      const again = await screen(ctx, tenant, target, file, policy, step);
      if (!again) return;
      ctx.expect(again.screened === first.screened, 'run-policy-always', `${step} of the identical file: job ${again.jobId} screened ${again.screened} SKU(s), the first upload ${first.screened} (spec 4.3: always screens every SKU again)`, again.job);
      const listed = await listedAnalysis(ctx, tenant, sku);
      if (listed.at !== undefined && listed.at < again.created - 1_000) {
        ctx.fail('run-policy-always', `${step}: SKU ${sku} is listed with a result of ${new Date(listed.at).toISOString()}, before job ${again.jobId} was created (${new Date(again.created).toISOString()}): it was not screened again (spec 4.3: always)`, listed.exchange);
      }
    }
    if (ctx.options.profile !== 'simulator') return;
    const skipped = await screen(ctx, tenant, target, file, 'skip_exact_duplicates', 'upload 4 (runPolicy=skip_exact_duplicates)');
    if (!skipped) return;
    ctx.expect(skipped.screened < first.screened, 'run-policy-skip-honoured', `upload 4 of the identical file with runPolicy=skip_exact_duplicates: job ${skipped.jobId} screened ${skipped.screened} SKU(s), as many as under always (${first.screened}): the field was not honoured (sandbox-defined: identical inputs are exact duplicates)`, skipped.job);
  },
});
