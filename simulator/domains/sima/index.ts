// What the SIMA domain offers (spec 2.4, 4.2, workflow A): the batch enqueue endpoint and the
// `sima_validation` job that screens a tenant's catalog against trade-remedy measures. Results are kept in
// `simaResults` for the read endpoints (results, summary, evidence, report).
import type { KernelDeps } from '../../kernel/deps.js';
import type { DomainModule } from '../domain.js';
import type { JobsDomain } from '../jobs/index.js';
import type { TenantStore } from '../tenants/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { catalogStore } from './catalog.store.js';
import { simaResultStore } from './sima-result.store.js';
import { simaValidationProcessor } from './sima-validation.processor.js';
import { simaRoutes } from './sima.routes.js';

export { normalizeScreeningAuthority } from './sima.routes.js';
export type * from './sima.types.js';

export function createSima(deps: KernelDeps, peers: { jobs: JobsDomain; webhooks: WebhooksDomain; tenants: TenantStore }): DomainModule {
  const catalog = catalogStore(deps);
  const results = simaResultStore(deps);
  // Registered at construction, before jobs.start() resumes in-flight jobs after a restart.
  peers.jobs.registerJobType('sima_validation', simaValidationProcessor(deps, catalog, results));
  return {
    name: 'sima',
    handlers: simaRoutes({ jobs: peers.jobs, webhooks: peers.webhooks }),
  };
}
