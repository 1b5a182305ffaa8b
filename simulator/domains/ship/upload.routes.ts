// The three ship uploads (spec 4.3, 2.3, 5.4, 7): POST /api/ship/upload (`adapter_id` checked against the
// key's allowlist: 403 ADAPTER_NOT_ALLOWED), POST /api/orders/upload (`ingestMode` PATCH or SNAPSHOT) and
// POST /api/carrier/agreements/upload (scope ship:upload, enforced by authentication from the contract's
// security requirement: 403 SCOPE_DENIED). Each: webhook target checked, file checked (415) and stored,
// the same content already uploaded by the tenant to the same endpoint refused with 409 DUPLICATE_UPLOAD
// naming the first job (upload-registry.store.ts), the job queued in the upload family, receipt 202.
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { KernelDeps } from '../../kernel/deps.js';
import { ApiError } from '../../kernel/errors.js';
import type { HandlerRequest, HandlerTable, Principal } from '../../kernel/http/types.js';
import { acceptUploadedFile, removeUpload, storeUpload, type StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import { SHIP_ADAPTERS } from '#fixtures/freight/freight-rules.js';
import { assertAdapterAllowed } from '../auth/index.js';
import type { JobsDomain, JobType } from '../jobs/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { SHIP_HOOKS } from './ship.hooks.js';
import type { UploadRegistry } from './upload-registry.store.js';
import { storeSerial } from '../../kernel/serial.js';

type ShipUploadOperation = 'uploadShipFile' | 'uploadOrdersFile' | 'uploadCarrierAgreement';

/** The `file` part when it is named .pdf: a real PDF (`%PDF-`), else 415 INVALID_FILE_FORMAT. */
async function pdfPart(request: HandlerRequest<ShipUploadOperation>) {
  const file = request.files.find((f) => f.field === 'file');
  if (!file || path.extname(file.originalName).toLowerCase() !== '.pdf') return null;
  const handle = await open(file.path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    if (buffer.subarray(0, bytesRead).toString('latin1') !== '%PDF-') throw new ApiError('INVALID_FILE_FORMAT', `${file.originalName} is named .pdf but is not a PDF document`, { field: 'file' });
  } finally {
    await handle.close();
  }
  return { file, format: 'csv' as const };
}

export function shipUploadRoutes(deps: Pick<KernelDeps, 'config' | 'clocks' | 'defects' | 'store'>, peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'>; registry: UploadRegistry }) {
  const { jobs, webhooks, registry } = peers;
  const sameFile = storeSerial(deps.store, 'ship.upload');

  const accept = async (request: HandlerRequest<ShipUploadOperation>, type: JobType, input: (upload: StoredUpload, document: boolean) => Record<string, unknown>) => {
    const principal = request.principal as Principal;
    const operationId = request.operation.operationId;
    const webhook = webhooks.parseConfig(request.body);
    // A signed agreement as a PDF (the carrier-agreement upload accepts .pdf): kept as a document, its terms
    // are not read (no table to stream); anything else goes through the table-file checks (415).
    const pdf = operationId === 'uploadCarrierAgreement' ? await pdfPart(request) : null;
    const { file, format } = pdf ?? (await acceptUploadedFile(request, deps.defects));
    // From the duplicate check to the registry entry, one file's uploads take turns: two copies sent at once
    // would otherwise both pass the check and both be queued.
    return sameFile(`${principal.tenantId} ${operationId} ${file.sha256}`, async () => {
      const earlier = await registry.find(principal.tenantId, operationId, file.sha256);
      if (earlier && deps.defects.at(SHIP_HOOKS.duplicateUploadRefused, true)) {
        const job = await jobs.get(principal.tenantId, earlier.jobId);
        if (job && job.status !== 'FAILED') {
          throw new ApiError('DUPLICATE_UPLOAD', `${file.originalName} was already uploaded (job ${earlier.jobId}, ${earlier.uploadedAt})`, { existingJobId: earlier.jobId, uploadedAt: earlier.uploadedAt });
        }
      }
      const upload = await storeUpload(deps, file, format);
      let job;
      try {
        job = await jobs.enqueue({ tenantId: principal.tenantId, keyId: principal.keyId, type, family: 'upload', fileName: upload.fileName, input: input(upload, pdf !== null) });
      } catch (error) {
        await removeUpload(upload);
        throw error;
      }
      await registry.record({ tenantId: principal.tenantId, operationId, sha256: file.sha256, jobId: job.id, uploadedAt: deps.clocks.of(principal.tenantId).nowIso() });
      if (webhook) await webhooks.attach(job.id, principal.tenantId, webhook);
      return { jobId: job.id, fileName: upload.fileName, status: 'PENDING' as const };
    });
  };

  return {
    async uploadShipFile(request) {
      const adapterField = request.body.adapter_id;
      assertAdapterAllowed(request.principal, adapterField, deps.defects);
      // Without adapter_id: the key's default adapter when it is a ship adapter (spec 2.1 default_adapter).
      const fallback = request.principal.defaultAdapter && request.principal.defaultAdapter in SHIP_ADAPTERS ? request.principal.defaultAdapter : null;
      const adapterId = adapterField ?? fallback;
      return { status: 202, body: await accept(request, 'ship_upload', (file) => ({ file, adapterId })) };
    },
    async uploadOrdersFile(request) {
      const ingestMode = request.body.ingestMode ?? 'PATCH';
      return { status: 202, body: { ...(await accept(request, 'order_upload', (file) => ({ file, ingestMode }))), ingestMode } };
    },
    async uploadCarrierAgreement(request) {
      return { status: 202, body: await accept(request, 'carrier_agreement_upload', (file, document) => ({ file, document })) };
    },
  } satisfies HandlerTable;
}
