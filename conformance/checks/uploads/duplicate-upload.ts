// uploads.duplicate-upload (spec 4.3, 7): the same file twice.
import { defineCheck } from '../../harness/check.js';
import { expectError } from '../../harness/expect-error.js';
import { isRateLimited, receiptJobId } from '../jobs-support.js';
import { uniqueFile } from './files.js';
import { forEachUploadTarget } from './for-each-target.js';
import { answered, drawn, runTag, untestable } from './send.js';
import { operationsOrSkip } from './targets.js';

const DUPLICATE_ID = 'uploads.duplicate-upload';
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// Spec 4.3, 7: ship, order and carrier-agreement uploads answer the same file again with 409
// DUPLICATE_UPLOAD, `details.existingJobId` (uuid) and `details.uploadedAt` (date-time). The operations are
// the ones whose documented 409 allows the code.
export const duplicateUpload = defineCheck({
  id: DUPLICATE_ID,
  title: 'The same file uploaded twice is refused with 409 DUPLICATE_UPLOAD naming the first job',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx).filter((t) => t.conflictCodes.includes('DUPLICATE_UPLOAD'));
    if (!targets.length) ctx.skip(`no upload operation of contract ${ctx.contract.version} documents 409 DUPLICATE_UPLOAD`);
    await forEachUploadTarget(ctx, targets, 'Conformance uploads: duplicates', async ({ target, index, tenant, upload }) => {
      const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, 'dup', index));
      const extra = drawn(ctx, DUPLICATE_ID, { operation: target.operationId, fileName: file.name });
      const first = await upload(file);
      const reason = untestable(tenant, target, first);
      if (reason) return reason;
      const firstJobId = receiptJobId(first);
      if (!firstJobId) {
        ctx.fail('upload-accepted', `${target.operationId}: the first upload of a new file answered ${answered(first)}, not 202 with a jobId (spec 4.3)`, first, extra);
        return;
      }
      const second = await upload(file);
      const envelope = expectError(ctx, second, 409, 'DUPLICATE_UPLOAD', `${target.operationId}: the same file (${file.name}, ${file.size} bytes) uploaded again`, extra);
      if (!envelope) return;
      const details = (envelope.details ?? {}) as { existingJobId?: unknown; uploadedAt?: unknown };
      if (details.existingJobId !== firstJobId) {
        ctx.fail('duplicate-upload-details', `${target.operationId}: details.existingJobId is ${JSON.stringify(details.existingJobId)}, not the first upload's job ${firstJobId} (spec 7)`, second, extra);
      }
      const uploadedAt = details.uploadedAt;
      if (typeof uploadedAt !== 'string' || !ISO_DATE_TIME.test(uploadedAt) || Number.isNaN(Date.parse(uploadedAt))) {
        ctx.fail('duplicate-upload-details', `${target.operationId}: details.uploadedAt is ${JSON.stringify(uploadedAt)}, not a date-time (spec 7)`, second, extra);
      }
    });
  },
});
