// jobs.failed-job (spec 2.2, 3.1, 6): a job whose worker fails ends FAILED, stays FAILED, carries its error,
// and its job.failed delivery says so. The spec names no input that must fail, so the check needs the
// simulator profile: the sandbox documents that an uploaded catalog whose header has no data rows fails its
// job, saying which (simulator/README.md, catalog uploads).
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { Exchange } from '../harness/types.js';
import { receiptJobId, settleJobs } from './jobs-support.js';
import { formWith } from './uploads/files.js';
import { runTag, uploadTenant } from './uploads/send.js';
import { uploadOperations, type UploadOperation } from './uploads/targets.js';
import { awaitDelivery, bodyOf, deliveryExchange, ofJob, seeded as webhookSeed, target as webhookTarget } from './webhooks/probe.js';

const FAILED_JOB_ID = 'jobs.failed-job';

/** A catalog header without data rows: the sandbox fails the job (README: "a header without data rows"). */
const HEADER_ONLY_CSV = 'sku,productName,hsCode,countryOfOrigin\n';

/** The SIMA screening upload (`x-job-type: sima_validation`), else the catalog upload: both read catalogs. */
function catalogUpload(ctx: CheckContext): UploadOperation {
  const targets = uploadOperations(ctx.contract).filter((t) => !t.unvalued.length);
  const found = targets.find((t) => t.jobType === 'sima_validation') ?? targets.find((t) => t.jobType === 'catalog_upload');
  if (!found) ctx.skip(`contract ${ctx.contract.version} has no catalog upload operation (x-job-type sima_validation or catalog_upload)`);
  return found;
}

const readJob = (ctx: CheckContext, client: CheckContext['client'], jobId: string) =>
  client.call('GET', `/api/jobs/${jobId}`);

const jobOf = (exchange: Exchange) => (exchange.response.body ?? {}) as { status?: unknown; error?: unknown; progress?: unknown };

const failedJob = defineCheck({
  id: FAILED_JOB_ID,
  title: 'A job whose worker fails ends FAILED for good, with its error, and a job.failed delivery',
  area: 'jobs',
  needs: ['writes', 'admin', 'webhookReceiver'],
  async run(ctx) {
    const operation = catalogUpload(ctx);
    const tenant = await uploadTenant(ctx, 'Conformance failed job', [operation]);
    const tag = runTag(ctx, 'failed', 0);
    const hook = webhookTarget(ctx, FAILED_JOB_ID, `${webhookSeed(ctx, FAILED_JOB_ID).nonce}-${tag}`, 'failed');
    const file = new File([HEADER_ONLY_CSV], `conformance-${tag}.csv`, { type: 'text/csv' });
    // Spec 4.3: any enqueue endpoint accepts the webhook fields (spec 6), here as form fields.
    const form = formWith(operation, file);
    form.append('webhookUrl', hook.url);
    const accepted = await tenant.client.call('POST', operation.path, { form });
    const jobId = receiptJobId(accepted);
    if (!jobId) {
      ctx.fail('upload-accepted', `${operation.operationId} with a header-only CSV answered ${accepted.response.status}, not 202 with a jobId (spec 4.3: the file is checked by the job, not at the door)`, accepted);
      return;
    }

    const settled = await settleJobs(tenant.client, [jobId], { admin: ctx.admin });
    const ended = await readJob(ctx, tenant.client, jobId);
    const job = jobOf(ended);
    // Spec 3.1: the worker's failure ends the job FAILED (the sandbox documents this file as a failure).
    if (!ctx.expect(settled.settled && job.status === 'FAILED', 'job-fails', `the ${operation.jobType} job ${jobId} of a header-only CSV ended ${JSON.stringify(job.status)}, not FAILED (spec 3.1; simulator/README.md: a header without data rows fails the job)`, ended)) return;
    // Spec 2.2: error is "string or null", and spec 6 says it is "filled for failed jobs".
    const error = job.error;
    ctx.expect(typeof error === 'string' && error.trim().length > 0, 'job-failed-error', `the FAILED job ${jobId} has error ${JSON.stringify(error)}, not a message (spec 2.2, 6: filled for failed jobs)`, ended);

    // Spec 2.2: progress is an integer on the scale where 100 means completed; a FAILED job may stop anywhere
    // on it (the spec names no value), but not off it.
    const progress = job.progress;
    ctx.expect(Number.isInteger(progress) && (progress as number) >= 0 && (progress as number) <= 100, 'job-failed-progress', `the FAILED job ${jobId} reports progress ${JSON.stringify(progress)}, not an integer from 0 to 100 (spec 2.2: 100 for completed jobs)`, ended);

    // Spec 3.1: FAILED is terminal; a later read (after more time) shows the same status, error and progress.
    await ctx.admin!.advanceClock(3_600);
    const later = await readJob(ctx, tenant.client, jobId);
    ctx.expect(jobOf(later).status === 'FAILED' && jobOf(later).error === error, 'job-failed-terminal', `an hour later the FAILED job ${jobId} reads status ${JSON.stringify(jobOf(later).status)} with error ${JSON.stringify(jobOf(later).error)} (spec 3.1: FAILED is terminal)`, later);
    ctx.expect(jobOf(later).progress === progress, 'job-failed-terminal', `an hour later the FAILED job ${jobId} reads progress ${JSON.stringify(jobOf(later).progress)}, not ${JSON.stringify(progress)} (spec 3.1: FAILED is terminal)`, later);

    // Spec 4.1: the list filtered by status=FAILED holds it (the tenant is this check's alone).
    const list = await tenant.client.call('GET', '/api/jobs?status=FAILED&limit=100');
    const listed = ((list.response.body as { jobs?: Array<{ id?: unknown }> } | null)?.jobs ?? []).some((item) => item?.id === jobId);
    ctx.expect(list.response.status === 200 && listed, 'job-failed-listed', `GET /api/jobs?status=FAILED answered ${list.response.status} without the FAILED job ${jobId} (spec 4.1)`, list);

    // Spec 6: a job reaching FAILED fires job.failed (both events by default), its job FAILED with the error.
    const delivery = await awaitDelivery(ctx, (d) => hook.matches(d) && ofJob(d, jobId));
    if (!ctx.expect(delivery !== undefined, 'webhook-job-failed', `no delivery reached ${hook.url} for the FAILED job ${jobId} (spec 6: job.failed fires when a job reaches FAILED)`)) return;
    const body = bodyOf(delivery!);
    const exchange = deliveryExchange(delivery!);
    ctx.expect(body.event === 'job.failed' && body.job?.status === 'FAILED', 'webhook-job-failed', `the delivery for the FAILED job ${jobId} reads event ${JSON.stringify(body.event)}, job.status ${JSON.stringify(body.job?.status)}, not job.failed / FAILED (spec 6)`, exchange);
    // Spec 6: the delivery's job is the job as it ended: the progress it stopped at, not the 100 of a completed one.
    ctx.expect(body.job?.progress === progress, 'webhook-job-failed-progress', `the job.failed delivery's job.progress is ${JSON.stringify(body.job?.progress)}, not the FAILED job's progress ${JSON.stringify(progress)} (spec 2.2, 6)`, exchange);
    const deliveredError = (body.job as { error?: unknown } | undefined)?.error;
    ctx.expect(typeof deliveredError === 'string' && deliveredError === error, 'webhook-job-failed-error', `the job.failed delivery's job.error is ${JSON.stringify(deliveredError)}, not the job's error ${JSON.stringify(error)} (spec 6: filled for failed jobs)`, exchange);
  },
});

export const jobFailureChecks: Check[] = [failedJob];
