// What the trade domain offers (spec 2.5, 3.2, 4.4, workflow B): durable trade feed sessions. Upload opens
// a session and its normalization job; the session's SKUs and issues are read in pages; a READY session
// may be classify-previewed (with the advanced trade path's classifier), reviewed and applied to the
// tenant catalog through the SIMA domain, which then screens the applied SKUs. Acknowledging non-blocking
// issues is a dashboard action (`acknowledgeIssues`, for the control API and dashboard principals).
import type { KernelDeps } from '../../kernel/deps.js';
import type { ClassificationDomain } from '../classification/index.js';
import { defineDomain } from '../domain.js';
import type { JobsDomain } from '../jobs/index.js';
import type { SimaDomain } from '../sima/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { feedAcknowledge, feedAcknowledgeRoutes } from './feed-acknowledge.js';
import { feedApplyRoutes } from './feed-apply.routes.js';
import { feedNormalizeProcessor } from './feed-normalize.processor.js';
import { feedPreviewProcessor, PREVIEW_VARIANT } from './feed-preview.processor.js';
import { feedPreviewRoutes } from './feed-preview.routes.js';
import { feedPreviewStore } from './feed-preview.store.js';
import { feedRowsStore } from './feed-rows.store.js';
import { feedSessionRoutes } from './feed-session.routes.js';
import { feedSessionStore } from './feed-session.store.js';
import { feedUploadRoutes, NORMALIZE_VARIANT } from './feed-upload.routes.js';
import { TRADE_DEFECTS, TRADE_RESPONSE_DEFECTS, TRADE_VARIANTS } from './trade.defects.js';
import { TRADE_TEST_VALUES } from './trade.trigger-values.js';
import type { ProductClassifier, TradeDomain } from './trade.types.js';
import { feedSessionMachine } from './feed-session.machine.js';

export type * from './trade.types.js';

function createTrade(deps: KernelDeps, peers: { jobs: JobsDomain; webhooks: WebhooksDomain; sima: SimaDomain; classify: ProductClassifier }): TradeDomain {
  const sessions = feedSessionStore(deps);
  const rows = feedRowsStore(deps);
  const previews = feedPreviewStore(deps);
  // Registered at construction, before jobs.start() resumes in-flight jobs after a restart.
  peers.jobs.registerJobType('catalog_upload', feedNormalizeProcessor(deps, sessions, rows), NORMALIZE_VARIANT);
  peers.jobs.registerJobType('catalog_upload', feedPreviewProcessor(deps, sessions, rows, previews, peers.classify), PREVIEW_VARIANT);
  const stores = { sessions, rows, previews };
  const acknowledgeIssues = feedAcknowledge(deps, sessions, rows);
  return {
    name: 'trade',
    handlers: {
      ...feedUploadRoutes(deps, sessions, peers),
      ...feedSessionRoutes(deps, sessions, rows, previews),
      ...feedPreviewRoutes(deps, stores, peers),
      ...feedApplyRoutes(deps, stores, peers),
    },
    dashboardHandlers: feedAcknowledgeRoutes(acknowledgeIssues),
    acknowledgeIssues,
  };
}

export const tradeDomain = defineDomain({
  name: 'trade',
  needs: ['jobs', 'webhooks', 'sima', 'classification'],
  // The classify-preview runs the advanced trade path's classifier (spec 4.6).
  create: (deps, peers: { jobs: JobsDomain; webhooks: WebhooksDomain; sima: SimaDomain; classification: Pick<ClassificationDomain, 'classify'> }) =>
    createTrade(deps, { jobs: peers.jobs, webhooks: peers.webhooks, sima: peers.sima, classify: peers.classification.classify }),
  defects: [...TRADE_DEFECTS, ...TRADE_VARIANTS],
  responseDefects: () => TRADE_RESPONSE_DEFECTS,
  testValues: TRADE_TEST_VALUES,
  lifecycles: { 'feed-session': feedSessionMachine },
  // A session's rows, previews and reviewed snapshot first, found through the session while it can still be read.
  async purgeTenant(deps, tenantId) {
    const sessions = feedSessionStore(deps);
    const rows = feedRowsStore(deps);
    const previews = feedPreviewStore(deps);
    let removed = 0;
    for (const session of await sessions.ofTenant(tenantId)) removed += (await rows.purgeSession(session.id)) + (await previews.purgeSession(session.id, session.reviewedSnapshotId));
    return removed + (await sessions.purgeTenant(tenantId));
  },
});
