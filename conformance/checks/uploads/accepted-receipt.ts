// uploads.accepted-receipt (spec 4.3, 2.3, 3.1; decision 6): a valid upload and the job it creates.
import { defineCheck } from '../../harness/check.js';
import { receiptJobId } from '../jobs-support.js';
import { uniqueFile, validExtension } from './files.js';
import { forEachUploadTarget } from './for-each-target.js';
import { answered, drawn, runTag, untestable } from './send.js';
import { operationsOrSkip } from './targets.js';

const ACCEPTED_ID = 'uploads.accepted-receipt';

// Spec 4.3, 2.3, 3.1: a valid upload answers 202 with its receipt (checked against the contract by the
// client) and creates a job, readable through GET /api/jobs/{id}, of the operation's type (decision 6).
export const acceptedReceipt = defineCheck({
  id: ACCEPTED_ID,
  title: 'A valid small upload answers 202 with a receipt whose job reads back with the operation\'s job type',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx);
    await forEachUploadTarget(ctx, targets, 'Conformance uploads: receipts', async ({ target, index, tenant, upload }) => {
      const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, 'ok', index));
      const extra = drawn(ctx, ACCEPTED_ID, { operation: target.operationId, fileName: file.name });
      const exchange = await upload(file);
      const reason = untestable(tenant, target, exchange);
      if (reason) return reason;
      const jobId = receiptJobId(exchange);
      if (!jobId) {
        ctx.fail('upload-accepted', `${target.operationId}: a valid ${file.size}-byte ${validExtension(target)} file answered ${answered(exchange)}, not 202 with a jobId (spec 4.3, 2.3)`, exchange, extra);
        return;
      }
      const read = await tenant.client.call('GET', `/api/jobs/${encodeURIComponent(jobId)}`);
      if (read.response.status !== 200) {
        ctx.fail('upload-job-readable', `${target.operationId}: GET /api/jobs/${jobId} of the receipt's job answered ${read.response.status}, not 200 (spec 3.1, 4.1)`, read, extra);
        return;
      }
      const type = (read.response.body as { type?: unknown } | null)?.type;
      if (target.jobType !== undefined && type !== target.jobType) {
        ctx.fail('upload-job-type', `${target.operationId}: the job it created reads type ${JSON.stringify(type)}, not ${target.jobType} (x-job-type; spec 2.2, decision 6)`, read, extra);
      }
    });
  },
});
