// The classification review routes (spec 4.6 `/api/trade/classify/reviews*`; sandbox-defined shapes): list
// newest first (optionally by status), read one, and decide a PENDING one through the review machine. A
// decided review is terminal: a new decision is 409 ACTION_NOT_ALLOWED naming its state
// (responses/trade.yaml ClassificationReviewDecided).
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, ApiError } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { canTransition, transition } from '../../kernel/machine.js';
import { classificationReviewMachine } from './classification-review.machine.js';
import type { ClassificationReviewRecord, ClassificationReviewStore } from './classification-review.store.js';
import { toClassificationReview } from './classification.response.js';

/** The contract's default page size for reviews (parameters/trade.yaml ClassificationReviewsLimit). */
export const REVIEWS_DEFAULT_LIMIT = 50;

export function classificationReviewRoutes(deps: KernelDeps, reviews: ClassificationReviewStore) {
  const load = async (tenantId: string, reviewId: string) => {
    const review = await reviews.get(tenantId, reviewId);
    if (!review) throw new ApiError('NOT_FOUND', `classification review ${reviewId} not found`);
    return review;
  };

  return {
    async listClassificationReviews({ principal, query }) {
      const limit = query.limit ?? REVIEWS_DEFAULT_LIMIT;
      const offset = query.offset ?? 0;
      // defect injection (SIM_DEFECTS): classify.review-status-filter-ignored lists every status.
      const status = deps.defects.has('classify.review-status-filter-ignored') ? undefined : query.status;
      const page = await reviews.page(principal.tenantId, status, limit, offset);
      return { status: 200, body: { reviews: page.items.map(toClassificationReview), total: page.total, limit, offset, hasMore: offset + page.items.length < page.total } };
    },

    async getClassificationReview({ principal, params }) {
      return { status: 200, body: toClassificationReview(await load(principal.tenantId, params.reviewId)) };
    },

    async decideClassificationReview({ principal, params, body }) {
      const tenantId = principal.tenantId;
      // Compare-and-set: of two concurrent decisions one wins, the other sees the decided review (409).
      for (;;) {
        const review = await load(tenantId, params.reviewId);
        // defect injection (SIM_DEFECTS): classify.review-redecided lets a decided review be decided again.
        const current = deps.defects.has('classify.review-redecided') ? 'PENDING' : review.status;
        // defect injection (SIM_DEFECTS): classify.review-overridden-after-approval lets an APPROVED review be overridden.
        const overrideApproved = current === 'APPROVED' && body.decision === 'override' && deps.defects.has('classify.review-overridden-after-approval');
        // The machine decides which decisions a state takes (its terminal states take none); this refusal only
        // words its 409 as responses/trade.yaml ClassificationReviewDecided does.
        if (!overrideApproved && !canTransition(classificationReviewMachine, current, body.decision)) throw actionNotAllowed(`review ${review.id} is already ${review.status}`, { currentState: review.status, action: 'decision', decision: body.decision });
        const status = overrideApproved ? 'OVERRIDDEN' : transition(classificationReviewMachine, current, body.decision, { suggestedHsCode: review.suggestedHsCode }, { action: 'decision', decision: body.decision });
        const decided: ClassificationReviewRecord = {
          ...review,
          status,
          finalHsCode: status === 'APPROVED' ? review.suggestedHsCode : status === 'OVERRIDDEN' ? body.hsCode! : null,
          note: body.note ?? null,
          decidedAt: deps.clocks.of(tenantId).nowIso(),
        };
        const saved = await reviews.update(decided);
        if (saved) return { status: 200, body: toClassificationReview(saved) };
      }
    },
  } satisfies HandlerTable;
}
