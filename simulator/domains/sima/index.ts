// What the SIMA domain offers (spec 2.4, 4.2, workflow A): the batch enqueue endpoint and the
// `sima_validation` job that screens a tenant's catalog against trade-remedy measures. Results are kept in
// `simaResults` for the read endpoints (results, summary, evidence, report), whose review workflow (spec 3.5,
// sima-review.machine.ts) the control API drives through `review`.
import type { KernelDeps } from '../../kernel/deps.js';
import { defineDomain } from '../domain.js';
import type { JobsDomain } from '../jobs/index.js';
import type { TenantStore } from '../tenants/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { catalogApply } from './catalog-apply.js';
import { catalogStore } from './catalog.store.js';
import { catalogUploadProcessor } from './catalog-upload.processor.js';
import { measuresConfig } from './measures-config.js';
import { simaResultStore } from './sima-result.store.js';
import { simaResultRoutes } from './sima-results.routes.js';
import { simaReview } from './sima-review.js';
import { simaValidationProcessor } from './sima-validation.processor.js';
import { SIMA_DEFECTS, SIMA_RESPONSE_DEFECTS, SIMA_VARIANTS } from './sima.defects.js';
import { simaRoutes } from './sima.routes.js';
import { SIMA_TEST_VALUES } from './sima.trigger-values.js';
import type { SimaBatchInput, SimaDomain } from './sima.types.js';
import { uploadRoutes } from './upload.routes.js';
import { simaReviewMachine } from './sima-review.machine.js';

export { normalizeScreeningAuthority } from './sima.routes.js';
export { screenItem } from './screening.js';
export { MAX_SKU_LENGTH } from './sku.js';
export type * from './sima.types.js';

export function createSima(deps: KernelDeps, peers: { jobs: JobsDomain; webhooks: WebhooksDomain; tenants: TenantStore }): SimaDomain {
  const catalog = catalogStore(deps);
  const results = simaResultStore(deps);
  const config = measuresConfig(deps, results);
  // Registered at construction, before jobs.start() resumes in-flight jobs after a restart.
  peers.jobs.registerJobType('sima_validation', simaValidationProcessor(deps, catalog, results, config));
  // spec 4.3 catalog uploads: their job (the jobs domain removes the stored file once the job has ended).
  peers.jobs.registerJobType('catalog_upload', catalogUploadProcessor(deps, catalog));
  return {
    name: 'sima',
    handlers: { ...simaRoutes({ jobs: peers.jobs, webhooks: peers.webhooks }, deps.defects), ...uploadRoutes(deps, { jobs: peers.jobs, webhooks: peers.webhooks }), ...simaResultRoutes(deps, { results, catalog, config }) },
    review: simaReview(deps, results),
    publishMeasuresConfig: config.publish,
    catalog: catalogApply(catalog),
    // Another domain's screening of chosen SKUs (a trade feed's apply): the batch's job, without its route.
    enqueueScreening: (request) =>
      peers.jobs.enqueue({ tenantId: request.tenantId, keyId: request.keyId, type: 'sima_validation', family: 'sima', input: { skus: [...request.skus], runPolicy: request.runPolicy ?? 'always', screeningAuthority: request.screeningAuthority } satisfies SimaBatchInput }),
  };
}

export const simaDomain = defineDomain({
  name: 'sima',
  needs: ['jobs', 'webhooks', 'tenants'],
  create: createSima,
  defects: [...SIMA_DEFECTS, ...SIMA_VARIANTS],
  responseDefects: () => SIMA_RESPONSE_DEFECTS,
  testValues: SIMA_TEST_VALUES,
  lifecycles: { 'sima-workflow': simaReviewMachine },
  async purgeTenant(deps, tenantId) {
    const results = simaResultStore(deps);
    return (await catalogStore(deps).purgeTenant(tenantId)) + (await results.purgeTenant(tenantId)) + (await measuresConfig(deps, results).purgeTenant(tenantId));
  },
});
