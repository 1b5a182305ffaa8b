// POST /api/compliance/check (spec 2.10, 4.6): the request arrives validated by the contract (hsCode a
// non-empty string, country codes two capitals); what they mean is judged by compliance.ts, with the SKU's
// PENDING classification reviews read here.
import type { KernelDeps } from '../../kernel/deps.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { ClassificationReviewStore } from './classification-review.store.js';
import { checkCompliance } from './compliance.js';

export function complianceRoutes(deps: KernelDeps, reviews: ClassificationReviewStore) {
  return {
    async checkCompliance({ principal, body }) {
      const pendingReviews = body.sku ? await reviews.countForSku(principal.tenantId, body.sku, 'PENDING') : 0;
      const result = checkCompliance(body, {
        pendingReviews,
        skipOriginGate: deps.defects.has('classify.quoteable-unknown-origin'),
        ignoreAtRisk: deps.defects.has('classify.quoteable-at-risk'),
      });
      return { status: 200, body: result };
    },
  } satisfies HandlerTable;
}
