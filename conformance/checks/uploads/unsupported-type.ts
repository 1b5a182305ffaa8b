// uploads.unsupported-type (spec 4.3, 7; decision 7): file types an operation does not accept.
import fc from 'fast-check';
import { defineCheck } from '../../harness/check.js';
import { expectError } from '../../harness/expect-error.js';
import { seeded } from '../jobs-support.js';
import { FOREIGN_EXTENSIONS, mimeOf } from './files.js';
import { forEachUploadTarget } from './for-each-target.js';
import { drawn, runTag, untestable } from './send.js';
import { operationsOrSkip } from './targets.js';

const UNSUPPORTED_TYPE_ID = 'uploads.unsupported-type';

// Spec 4.3, 7: an unsupported type or extension is 415 INVALID_FILE_FORMAT; decision 7 lists what each
// operation accepts (`x-accepted-file-types`).
export const unsupportedType = defineCheck({
  id: UNSUPPORTED_TYPE_ID,
  title: 'Every upload operation refuses a file type it does not accept with 415 INVALID_FILE_FORMAT',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx);
    await forEachUploadTarget(ctx, targets, 'Conformance uploads: file types', async ({ target, index, tenant, upload }) => {
      const foreign = FOREIGN_EXTENSIONS.filter((extension) => !target.accepted.includes(extension));
      const extension = seeded(fc.constantFrom(...foreign), ctx.seed, index);
      const tag = runTag(ctx, 'type', index);
      const name = `conformance-${tag}${extension}`;
      const file = new File([`sku,productName,hsCode\n${tag},Conformance sample,6109.10\n`], name, { type: mimeOf(extension) });
      const exchange = await upload(file);
      const reason = untestable(tenant, target, exchange);
      if (reason) return reason;
      const extra = drawn(ctx, UNSUPPORTED_TYPE_ID, { operation: target.operationId, fileName: name, accepted: target.accepted });
      expectError(ctx, exchange, 415, 'INVALID_FILE_FORMAT', `${target.operationId} with ${name} (accepts ${target.accepted.join(', ')}; spec 4.3, 7)`, extra);
    });
  },
});
