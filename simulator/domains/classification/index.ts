// What the classification domain offers (spec 2.10, 4.6 advanced trade path; shapes sandbox-defined): classify
// one product or a batch (a `catalog_upload` job, variant `classification_batch`), apply a classification or a
// decided review to a catalog SKU (through the SIMA domain's catalog), the classification review routes, and
// the compliance check (quoteReadiness; SIMA's screenItem). `classifyProductText` is the pure classifier the
// trade feed's classify-preview calls.
import type { KernelDeps } from '../../kernel/deps.js';
import { defineDomain } from '../domain.js';
import type { JobsDomain } from '../jobs/index.js';
import type { SimaDomain } from '../sima/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { CLASSIFICATION_BATCH_VARIANT, classificationBatchProcessor } from './classification-batch.processor.js';
import { classificationReviewRoutes } from './classification-review.routes.js';
import { classificationReviewStore } from './classification-review.store.js';
import { CLASSIFICATION_DEFECTS, CLASSIFICATION_RESPONSE_DEFECTS, CLASSIFICATION_VARIANTS } from './classification.defects.js';
import { classificationRoutes } from './classification.routes.js';
import { classificationStore } from './classification.store.js';
import { classifyProductText } from './classifier.js';
import type { ClassificationDomain } from './classification.types.js';
import { complianceRoutes } from './compliance.routes.js';
import { recordClassification } from './record-classification.js';
import { classificationReviewMachine } from './classification-review.machine.js';

export type * from './classification.types.js';

function createClassification(deps: KernelDeps, peers: { jobs: JobsDomain; webhooks: WebhooksDomain; sima: SimaDomain }): ClassificationDomain {
  const classifications = classificationStore(deps);
  const reviews = classificationReviewStore(deps);
  const record = recordClassification(deps, { classifications, reviews });
  // Registered at construction, before jobs.start() resumes in-flight jobs after a restart. The contract's
  // x-job-type is catalog_upload (spec 2.2: public integrations use it for trade catalog jobs), which SIMA's
  // catalog upload also uses: the variant tells the worker which processor runs the job.
  peers.jobs.registerJobType('catalog_upload', classificationBatchProcessor(deps, record), CLASSIFICATION_BATCH_VARIANT);
  return {
    name: 'classification',
    handlers: {
      ...classificationRoutes(deps, { classifications, reviews, record }, { jobs: peers.jobs, webhooks: peers.webhooks, catalog: peers.sima.catalog }),
      ...classificationReviewRoutes(deps, reviews),
      ...complianceRoutes(deps, reviews),
    },
    classify: classifyProductText,
  };
}

export const classificationDomain = defineDomain({
  name: 'classification',
  needs: ['jobs', 'webhooks', 'sima'],
  create: createClassification,
  defects: [...CLASSIFICATION_DEFECTS, ...CLASSIFICATION_VARIANTS],
  responseDefects: () => CLASSIFICATION_RESPONSE_DEFECTS,
  testValues: [],
  lifecycles: { 'classification-review': classificationReviewMachine },
  purgeTenant: async (deps, tenantId) => (await classificationStore(deps).purgeTenant(tenantId)) + (await classificationReviewStore(deps).purgeTenant(tenantId)),
});
