// uploads.file-too-large (spec 8.3, 7): the size cap.
import fc from 'fast-check';
import { defineCheck } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { expectError } from '../../harness/expect-error.js';
import { seeded } from '../jobs-support.js';
import { mimeOf, oversizedCsv, validExtension } from './files.js';
import { drawn, untestable, upload, uploadTenant } from './send.js';
import { operationsOrSkip } from './targets.js';

const FILE_TOO_LARGE_ID = 'uploads.file-too-large';

// Spec 8.3, 7: upload endpoints validate the file size; the cap is 50 MB, above it 413 FILE_TOO_LARGE. One
// operation per run, chosen with the seed (a 50 MB body per operation would slow every run).
export const fileTooLarge = defineCheck({
  id: FILE_TOO_LARGE_ID,
  title: 'An upload one byte over the size cap is refused with 413 FILE_TOO_LARGE',
  area: 'uploads',
  needs: ['writes'],
  async run(ctx) {
    const candidates = operationsOrSkip(ctx).filter((t) => !t.unvalued.length);
    if (!candidates.length) ctx.skip('no upload operation has contract values for its required form fields');
    const target = seeded(fc.constantFrom(...candidates), ctx.seed, 0);
    const tenant = await uploadTenant(ctx, 'Conformance uploads: size cap', [target]);
    const bytes = target.maxBytes + 1;
    const extension = validExtension(target);
    const input = { operation: target.operationId, fileBytes: bytes, maxFileBytes: target.maxBytes, fileName: `conformance-oversize${extension}` };
    const extra = drawn(ctx, FILE_TOO_LARGE_ID, input);
    const file = new File([oversizedCsv(bytes)], input.fileName, { type: mimeOf(extension) });
    let exchange: Exchange;
    try {
      exchange = await upload(tenant.client, target, file);
    } catch (error) {
      ctx.fail('file-too-large', `${target.operationId} (${target.path}) gave no answer to a file of ${bytes} bytes (${(error as Error).message}); spec 8.3, 7: 413 FILE_TOO_LARGE`, undefined, extra);
      return;
    }
    const reason = untestable(tenant, target, exchange);
    if (reason) ctx.skip(reason);
    expectError(ctx, exchange, 413, 'FILE_TOO_LARGE', `${target.operationId} with a file of ${bytes} bytes (x-max-file-bytes ${target.maxBytes} + 1; spec 8.3)`, extra);
  },
});
