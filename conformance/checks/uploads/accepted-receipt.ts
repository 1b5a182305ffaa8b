// uploads.accepted-receipt (spec 4.3, 2.3, 3.1; decision 6): a valid upload and the job it creates.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { receiptJobId } from '../jobs-support.js';
import { formWith, uniqueFile, validExtension } from './files.js';
import { forEachUploadTarget } from './for-each-target.js';
import { answered, drawn, runTag, untestable, type UploadTenant } from './send.js';
import { operationsOrSkip, type UploadOperation } from './targets.js';

const ACCEPTED_ID = 'uploads.accepted-receipt';

// Spec 4.3, 2.3, 3.1: a valid upload answers 202 with its receipt (checked against the contract by the
// client) and creates a job, readable through GET /api/jobs/{id}, of the operation's type (decision 6). What
// the receipt says is held too (judgeReceipt).
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
      const job = (read.response.body ?? {}) as { id?: unknown; type?: unknown; status?: unknown };
      if (target.jobType !== undefined && job.type !== target.jobType) {
        ctx.fail('upload-job-type', `${target.operationId}: the job it created reads type ${JSON.stringify(job.type)}, not ${target.jobType} (x-job-type; spec 2.2, decision 6)`, read, extra);
      }
      judgeReceipt(ctx, target.operationId, file.name, exchange, job, read, extra);
      await judgeOmittedDefaults(ctx, tenant, target, exchange, extra);
      await judgeIngestModeEcho(ctx, tenant, target, index, exchange, extra);
    });
  },
});

/**
 * Spec 4.3, 2.3: a form field left out means its default (`sourceAdapter` "catalog-excel default"), and the
 * catalog receipt names the adapter used: a receipt naming such a field names the default. The upload sent
 * only the file and the required fields; defaults the spec does not give (`x-sandbox-defined-default`) are
 * not in `target.defaults`. Spec 2.1 gives a key a `default_adapter` ("e.g. a catalog adapter name"): a
 * server may read an omitted adapter as the key's, so the key's default_adapter is accepted too.
 */
async function judgeOmittedDefaults(ctx: CheckContext, tenant: UploadTenant, target: UploadOperation, exchange: Exchange, extra: Record<string, unknown>) {
  const receipt = (exchange.response.body ?? {}) as Record<string, unknown>;
  for (const [field, value] of Object.entries(target.defaults)) {
    if (field in target.fields || receipt[field] === undefined || receipt[field] === value) continue;
    if (receipt[field] === (await keyDefaultAdapter(tenant))) continue;
    ctx.fail('receipt-default', `${target.operationId}: the upload left ${field} out, so it is ${JSON.stringify(value)} (spec 4.3: the default), but the receipt names ${field} ${JSON.stringify(receipt[field])}, which is not the key's default_adapter either (spec 2.3, 2.1)`, exchange, extra);
  }
}

/** Spec 2.3's two ingest modes of an order upload ("ingestMode (PATCH or SNAPSHOT)"). */
const INGEST_MODES = ['PATCH', 'SNAPSHOT'] as const;

/**
 * Spec 2.3, 4.3: the order upload receipt is the ship receipt plus the `ingestMode` of the upload. The first
 * upload left the field out, so its receipt may name the default; a receipt naming `ingestMode` is judged
 * again on an upload that sends the other mode: it names the mode sent, not a constant.
 */
async function judgeIngestModeEcho(ctx: CheckContext, tenant: UploadTenant, target: UploadOperation, index: number, first: Exchange, extra: Record<string, unknown>) {
  const named = ((first.response.body ?? {}) as { ingestMode?: unknown }).ingestMode;
  if (named === undefined) return;
  const sent = named === 'SNAPSHOT' ? INGEST_MODES[0] : INGEST_MODES[1];
  const file = uniqueFile(ctx.contract.doc, target, runTag(ctx, `ingest-${sent.toLowerCase()}`, index));
  const form = formWith(target, file);
  form.set('ingestMode', sent);
  const exchange = await tenant.client.call('POST', target.path, { form });
  if (!receiptJobId(exchange)) {
    ctx.fail('upload-accepted', `${target.operationId}: a valid file with ingestMode ${sent} answered ${answered(exchange)}, not 202 with a jobId (spec 4.3: ingestMode is PATCH or SNAPSHOT)`, exchange, extra);
    return;
  }
  const echoed = ((exchange.response.body ?? {}) as { ingestMode?: unknown }).ingestMode;
  ctx.expect(echoed === sent, 'receipt-ingest-mode', `${target.operationId}: an upload sending ingestMode ${sent} answered a receipt naming ingestMode ${JSON.stringify(echoed)} (spec 2.3: the order receipt is the ship receipt plus the upload's ingestMode)`, exchange, extra);
}

/** The `default_adapter` of the tenant's key, from a token exchange (spec 2.1). */
async function keyDefaultAdapter(tenant: UploadTenant): Promise<unknown> {
  const exchange = await tenant.client.call('POST', '/api/auth/token/integration', { auth: { apiKey: tenant.client.apiKey } });
  return (exchange.response.body as { default_adapter?: unknown } | null)?.default_adapter;
}

/** Spec 3.1: the order a job's status moves in (COMPLETED and FAILED both end it). */
const STATUS_RANK: Record<string, number> = { PENDING: 0, PROCESSING: 1, COMPLETED: 2, FAILED: 2 };

// Spec 2.3: every upload receipt names the upload's `fileName` (the file sent: the check's names are plain
// ASCII, nothing a server would need to clean), and `replayed` is "true when an existing job was returned for
// the same idempotency key": this upload sends no Idempotency-Key, so a receipt carrying `replayed` says
// false. Spec 3.1: the receipt's `status` is the job's at acceptance and a job only moves forward, so the job
// read after it is not in an earlier state than the receipt named.
function judgeReceipt(ctx: CheckContext, operationId: string, fileName: string, receiptExchange: Exchange, job: { id?: unknown; status?: unknown }, read: Exchange, extra: Record<string, unknown>) {
  const receipt = (receiptExchange.response.body ?? {}) as { jobId?: unknown; fileName?: unknown; replayed?: unknown; status?: unknown };
  ctx.expect(job.id === receipt.jobId, 'receipt-job-id', `${operationId}: GET /api/jobs/${String(receipt.jobId)} reads a job of id ${JSON.stringify(job.id)}`, read, extra);
  ctx.expect(receipt.fileName === undefined || receipt.fileName === fileName, 'receipt-file-name', `${operationId}: the receipt names fileName ${JSON.stringify(receipt.fileName)}, not the uploaded file ${JSON.stringify(fileName)} (spec 2.3)`, receiptExchange, extra);
  ctx.expect(receipt.replayed === undefined || receipt.replayed === false, 'receipt-not-replayed', `${operationId}: an upload without an Idempotency-Key answered replayed ${JSON.stringify(receipt.replayed)} (spec 2.3: true only when an existing job was returned for the same idempotency key)`, receiptExchange, extra);
  const said = STATUS_RANK[String(receipt.status)];
  const now = STATUS_RANK[String(job.status)];
  if (said !== undefined && now !== undefined) ctx.expect(now >= said, 'receipt-status-order', `${operationId}: the receipt said ${String(receipt.status)}, but the job read after it is ${String(job.status)} (spec 3.1: a job only moves forward)`, read, extra);
}
