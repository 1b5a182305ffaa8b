// Tenant isolation (spec 7: NOT_FOUND is "resource absent or not the tenant's"): a job of one tenant is
// invisible to another, both by id and in its job list, and its uploads are no duplicates for another.
import { defineCheck, type CheckContext } from '../harness/check.js';
import { expectError } from '../harness/expect-error.js';
import { isRateLimited, receiptJobId } from './jobs-support.js';
import { uniqueFile } from './uploads/files.js';
import { answered, drawn, runTag, untestable, upload, uploadTenant, type UploadTenant } from './uploads/send.js';
import { operationsOrSkip } from './uploads/targets.js';

const PAGE = 100; // spec 4.1: jobs `limit` 1..100
const MAX_PAGES = 5;

const isolationJobs = defineCheck({
  id: 'isolation.jobs',
  title: "Another tenant's job is 404 NOT_FOUND by id and absent from the job list",
  area: 'isolation',
  needs: ['writes', 'secondTenant'],
  async run(ctx) {
    const second = ctx.second!;
    // Spec 4.2: `skus: null` screens the whole catalog; any accepted enqueue creates a job (3.1).
    const enqueued = await ctx.client.call('POST', '/api/sima/batch', { json: { skus: null } });
    const jobId = (enqueued.response.body as { jobId?: unknown })?.jobId;
    if (!ctx.expect(enqueued.response.status === 202 && typeof jobId === 'string', 'enqueue', `POST /api/sima/batch answered ${enqueued.response.status}, not 202 with a jobId`, enqueued)) return;

    // The owner sees it, so a 404 for the other tenant is about ownership, not existence.
    const own = await ctx.client.call('GET', `/api/jobs/${jobId}`);
    if (!ctx.expect(own.response.status === 200, 'owner-reads-job', `the owning tenant's GET /api/jobs/${jobId} answered ${own.response.status}, not 200`, own)) return;

    const foreign = await second.call('GET', `/api/jobs/${jobId}`);
    if (foreign.response.status === 200) {
      ctx.fail('tenant-isolation', `the second tenant read the first tenant's job ${jobId} (200); spec 7 requires 404 NOT_FOUND for a resource not the tenant's`, foreign);
    } else {
      expectError(ctx, foreign, 404, 'NOT_FOUND', `the second tenant's GET /api/jobs/${jobId}`);
    }

    for (let page = 0; page < MAX_PAGES; page++) {
      const list = await second.call('GET', `/api/jobs?limit=${PAGE}&offset=${page * PAGE}`);
      const jobs = (list.response.body as { jobs?: unknown })?.jobs;
      if (!ctx.expect(list.response.status === 200 && Array.isArray(jobs), 'job-list', `the second tenant's job list answered ${list.response.status}, not 200 with a jobs array`, list)) return;
      const items = jobs as Array<{ id?: unknown }>;
      if (items.some((job) => job?.id === jobId)) {
        ctx.fail('tenant-isolation', `the second tenant's job list (offset ${page * PAGE}) contains the first tenant's job ${jobId}`, list);
        return;
      }
      if (items.length < PAGE) return;
    }
  },
});

const DUPLICATE_ACROSS_ID = 'isolation.duplicate-upload';

// Spec 7: DUPLICATE_UPLOAD is "same file already uploaded", naming `details.existingJobId`; another tenant's
// upload is "not the tenant's", so absent for it (NOT_FOUND). The same bytes sent by a second tenant are a
// new file for it: 202 with its own job, never a 409 naming (and so revealing) the first tenant's job. And
// the second tenant's upload changes nothing for the first: its own file again is still its duplicate,
// naming its own job (a server keeping one record per file, not per tenant, loses it here).
const isolationDuplicateUpload = defineCheck({
  id: DUPLICATE_ACROSS_ID,
  title: "A file another tenant already uploaded is no DUPLICATE_UPLOAD: the second tenant's upload gets its own job",
  area: 'isolation',
  needs: ['writes', 'secondTenant'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx).filter((t) => t.conflictCodes.includes('DUPLICATE_UPLOAD') && !t.unvalued.length);
    if (!targets.length) ctx.skip(`no upload operation of contract ${ctx.contract.version} documents 409 DUPLICATE_UPLOAD`);
    // Simulator profile: two tenants of this check, with the operations' scopes; else the two given keys.
    const owner = await uploadTenant(ctx, 'Conformance isolation: uploads (owner)', targets);
    const other: UploadTenant = ctx.admin ? await uploadTenant(ctx, 'Conformance isolation: uploads (other)', targets) : { client: ctx.second!, fresh: false };
    const reasons: string[] = [];
    for (const [index, target] of targets.entries()) {
      const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, 'iso-dup', index));
      const extra = drawn(ctx, DUPLICATE_ACROSS_ID, { operation: target.operationId, fileName: file.name });
      const first = await upload(owner.client, target, file);
      const reason = untestable(owner, target, first);
      if (reason) {
        reasons.push(reason);
        continue;
      }
      const ownerJob = receiptJobId(first);
      if (!ownerJob) {
        ctx.fail('upload-accepted', `${target.operationId}: the first tenant's upload of a new file answered ${answered(first)}, not 202 with a jobId (spec 4.3)`, first, extra);
        continue;
      }
      const second = await upload(other.client, target, file);
      const why = untestable(other, target, second);
      if (why) {
        reasons.push(`second tenant: ${why}`);
        continue;
      }
      const details = (second.response.body as { details?: { existingJobId?: unknown } } | null)?.details;
      const leaked = second.response.status === 409 && details?.existingJobId === ownerJob ? `, naming the first tenant's job ${ownerJob}` : '';
      const otherJob = receiptJobId(second);
      if (!otherJob || otherJob === ownerJob) {
        ctx.fail('duplicate-upload-per-tenant', `${target.operationId}: the second tenant's upload of the bytes the first tenant sent (${file.name}) answered ${answered(second)}${leaked}${otherJob ? ` naming the first tenant's job` : ''}, not 202 with a job of its own (spec 7: DUPLICATE_UPLOAD is about the tenant's own uploads; another tenant's are absent for it)`, second, extra);
        continue;
      }
      const again = await upload(owner.client, target, file);
      // Spec 7 names DUPLICATE_UPLOAD "same file already uploaded" and leaves open whether the file of an upload
      // whose job FAILED still counts: a server may take it again (the sandbox does). When the first job had
      // ended FAILED by now, a 202 says nothing about tenants: that target is untestable, not failed.
      if (again.response.status === 202 && (await ownerJobFailed(owner.client, ownerJob))) {
        reasons.push(`${target.operationId}: the first tenant's job ${ownerJob} had ended FAILED, and whether a failed upload's file is "already uploaded" is not given (spec 7)`);
        continue;
      }
      const againDetails = (again.response.body as { code?: unknown; details?: { existingJobId?: unknown } } | null) ?? {};
      ctx.expect(
        again.response.status === 409 && againDetails.code === 'DUPLICATE_UPLOAD' && againDetails.details?.existingJobId === ownerJob,
        'duplicate-upload-kept-per-tenant',
        `${target.operationId}: after a second tenant uploaded the same bytes, the first tenant's upload of its own file again answered ${answered(again)}${againDetails.details?.existingJobId !== undefined ? ` naming job ${JSON.stringify(againDetails.details.existingJobId)}` : ''}, not 409 DUPLICATE_UPLOAD naming its job ${ownerJob} (spec 7)`,
        again,
      );
    }
    if (reasons.length) ctx.skip(reasons.join('; '));
  },
});

/** Whether the job a receipt named has ended FAILED (spec 2.2, 3.1), read as its tenant. */
async function ownerJobFailed(client: CheckContext['client'], jobId: unknown): Promise<boolean> {
  if (typeof jobId !== 'string') return false;
  const read = await client.call('GET', `/api/jobs/${jobId}`);
  return read.response.status === 200 && (read.response.body as { status?: unknown } | null)?.status === 'FAILED';
}

export const isolationChecks = [isolationJobs, isolationDuplicateUpload];
