// POST /api/compliance/check (spec 2.10, 4.6): the request arrives validated by the contract (hsCode a
// non-empty string, country codes two capitals); what they mean is judged by compliance.ts, with the SKU's
// PENDING classification reviews read here.
import type { KernelDeps } from '../../kernel/deps.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { ClassificationReviewStore } from './classification-review.store.js';
import { CLASSIFICATION_HOOKS } from './classification.hooks.js';
import { checkCompliance } from './compliance.js';

export function complianceRoutes(deps: KernelDeps, reviews: ClassificationReviewStore) {
  return {
    async checkCompliance({ principal, body }) {
      const pendingReviews = body.sku ? await reviews.countForSku(principal.tenantId, body.sku, deps.defects.at(CLASSIFICATION_HOOKS.quoteBlockingReviewStatus, 'PENDING')) : 0;
      const result = checkCompliance(body, {
        pendingReviews,
        originGateEnforced: deps.defects.at(CLASSIFICATION_HOOKS.originGateEnforced, true),
        atRiskBlocksQuote: deps.defects.at(CLASSIFICATION_HOOKS.atRiskBlocksQuote, true),
      });
      return { status: 200, body: result };
    },
  } satisfies HandlerTable;
}
