// POST /api/catalog/upload and POST /api/upload (spec 4.3): the multipart form arrives validated by the
// contract (`file` required, sourceAdapter / runPolicy enums); the route checks the file (kernel/uploads/uploaded-file.ts),
// moves it out of the kernel's temp area for its job, enqueues the job in the upload family (spec 8.2
// caps), attaches the webhook configuration (spec 6) and answers the 202 receipt of spec 2.3. The
// idempotency middleware (spec 8.5) replays that receipt for the same form and file with `replayed: true`.
import { SIMA_HOOKS } from './sima.hooks.js';
import type { KernelDeps } from '../../kernel/deps.js';
import type { HandlerRequest, HandlerTable, Principal } from '../../kernel/http/types.js';
import type { JobsDomain, JobType } from '../jobs/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { CATALOG_ADAPTERS, type CatalogAdapter } from './catalog-columns.js';
import { normalizeScreeningAuthority } from './sima.routes.js';
import { acceptUploadedFile, removeUpload, storeUpload, type StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import type { CatalogUploadInput, SimaUploadInput } from './sima.types.js';

/**
 * spec 4.3 `sourceAdapter` (default catalog-excel); when the form names none, the key's default adapter
 * (spec 2.1 `default_adapter`, "e.g. a catalog adapter name") if it is a catalog adapter.
 */
export function chooseAdapter(field: CatalogAdapter | undefined, principal: Pick<Principal, 'defaultAdapter'>): CatalogAdapter {
  if (field) return field;
  const preferred = principal.defaultAdapter as CatalogAdapter | null;
  return preferred && CATALOG_ADAPTERS.includes(preferred) ? preferred : 'catalog-excel';
}

export function uploadRoutes(deps: Pick<KernelDeps, 'config' | 'defects'>, peers: { jobs: JobsDomain; webhooks: Pick<WebhooksDomain, 'parseConfig' | 'attach'> }) {
  /** Queues the job for a stored upload; the file goes again if the job is refused (429 at a queue cap). */
  const enqueue = async (principal: Principal, type: JobType, upload: StoredUpload, input: unknown) => {
    try {
      return await peers.jobs.enqueue({ tenantId: principal.tenantId, keyId: principal.keyId, type, family: 'upload', fileName: upload.fileName, input });
    } catch (error) {
      await removeUpload(upload);
      throw error;
    }
  };

  /**
   * Both uploads: refuse a bad webhook target before anything is stored or queued (contracts/README.md
   * decision 10), check and store the file, queue its job, attach the webhook, answer the 202 receipt.
   */
  const accept = async (
    request: HandlerRequest<'uploadCatalogFile' | 'uploadSimaScreeningFile'>,
    type: JobType,
    inputOf: (upload: StoredUpload) => CatalogUploadInput | SimaUploadInput,
    receipt: { message: string; sourceAdapter?: CatalogAdapter },
  ) => {
    const { principal } = request;
    const webhook = peers.webhooks.parseConfig(request.body);
    const { file, format } = await acceptUploadedFile(request);
    const upload = await storeUpload(deps, file, format);
    const job = await enqueue(principal, type, upload, inputOf(upload));
    if (webhook) await peers.webhooks.attach(job.id, principal.tenantId, webhook);
    return { status: 202, body: { jobId: job.id, status: job.status, message: receipt.message, replayed: false, fileName: upload.fileName, ...(receipt.sourceAdapter ? { sourceAdapter: receipt.sourceAdapter } : {}) } };
  };

  return {
    async uploadCatalogFile(request) {
      const sourceAdapter = deps.defects.at(SIMA_HOOKS.catalogAdapterAsRead, chooseAdapter(request.body.sourceAdapter, request.principal), { sent: request.body.sourceAdapter });
      const screeningAuthority = normalizeScreeningAuthority(request.body.screeningAuthority, deps.defects);
      return accept(request, 'catalog_upload', (file) => ({ file, sourceAdapter, screeningAuthority }), { message: 'Catalog upload accepted', sourceAdapter });
    },

    async uploadSimaScreeningFile(request) {
      const screeningAuthority = normalizeScreeningAuthority(request.body.screeningAuthority, deps.defects);
      const runPolicy = deps.defects.at(SIMA_HOOKS.uploadRunPolicy, request.body.runPolicy ?? 'always', { sent: request.body.runPolicy });
      // skus stays null until the job has read the file: it then screens exactly the file's SKUs.
      return accept(request, 'sima_validation', (file) => ({ skus: null, runPolicy, screeningAuthority, file }), { message: 'Upload accepted for SIMA screening' });
    },
  } satisfies HandlerTable;
}
