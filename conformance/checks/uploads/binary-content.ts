// uploads.binary-named-csv (simulator profile): binary content sent under the accepted name `.csv`.
// Spec 7 answers an unsupported "type or extension" with 415 and spec 8.3 says uploads "validate file size and
// type", but neither says the type is read from the content rather than the name or the part's media type, so
// a server that fails such a file's job later is not wrong by the spec. The sandbox documents that it sniffs
// the content ("a name that lies about the content is 415 INVALID_FILE_FORMAT naming file", simulator/README.md,
// catalog uploads), so only the simulator profile asserts it.
import fc from 'fast-check';
import { defineCheck, type Check } from '../../harness/check.js';
import { expectError } from '../../harness/expect-error.js';
import { seeded } from '../jobs-support.js';
import { forEachUploadTarget } from './for-each-target.js';
import { drawn, runTag, untestable } from './send.js';
import { operationsOrSkip } from './targets.js';

const BINARY_CSV_ID = 'uploads.binary-named-csv';

/**
 * Bytes that are no text: drawn with the seed, with a NUL at a drawn place in the first 4 KiB, and a first
 * byte that starts neither a zip (`PK`, an .xlsx) nor an OLE2 workbook (0xD0), so no reader takes them for
 * a spreadsheet either.
 */
export const binaryBytes = (seed: number, index: number): Uint8Array<ArrayBuffer> => {
  const [body, at] = seeded(fc.tuple(fc.uint8Array({ minLength: 16, maxLength: 512 }), fc.nat()), seed, index);
  const bytes = new Uint8Array(new ArrayBuffer(body.length));
  bytes.set(body);
  bytes[at % bytes.length] = 0;
  if (bytes[0] === 0x50 || bytes[0] === 0xd0) bytes[0] = 0x01;
  return bytes;
};

const binaryNamedCsv = defineCheck({
  id: BINARY_CSV_ID,
  title: 'Every upload operation accepting .csv refuses binary content named .csv with 415 INVALID_FILE_FORMAT (sandbox rule)',
  area: 'uploads',
  needs: ['writes', 'admin'],
  async run(ctx) {
    const targets = operationsOrSkip(ctx).filter((t) => t.accepted.includes('.csv'));
    if (!targets.length) ctx.skip(`no upload operation of contract ${ctx.contract.version} accepts .csv`);
    await forEachUploadTarget(ctx, targets, 'Conformance uploads: binary named .csv', async ({ target, index, tenant, upload }) => {
      const name = `conformance-${runTag(ctx, 'binary', index)}.csv`;
      const bytes = binaryBytes(ctx.seed, index);
      const exchange = await upload(new File([bytes], name, { type: 'text/csv' }));
      const reason = untestable(tenant, target, exchange);
      if (reason) return reason;
      const extra = drawn(ctx, BINARY_CSV_ID, { operation: target.operationId, fileName: name, bytes: Buffer.from(bytes.subarray(0, 32)).toString('hex') });
      expectError(ctx, exchange, 415, 'INVALID_FILE_FORMAT', `${target.operationId} with ${name}, ${bytes.length} bytes of binary content (simulator/README.md: the content is sniffed; spec 7)`, extra);
    });
  },
});

/** Upload checks asserting sandbox-documented rules: the simulator profile only. */
export const sandboxUploadChecks: Check[] = [binaryNamedCsv];
