// The classification review routes (spec 4.6 `/api/trade/classify/reviews*`; sandbox-defined shapes): list
// newest first (optionally by status), read one, and decide a PENDING one: a move of the review machine
// through kernel/move.ts (load, the table in force, compare-and-set save, decided again on a lost race). A
// decided review is terminal: a new decision is 409 ACTION_NOT_ALLOWED naming its state
// (responses/trade.yaml ClassificationReviewDecided).
import type { KernelDeps } from '../../kernel/deps.js';
import { actionNotAllowed, ApiError } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import { canTransition } from '../../kernel/machine.js';
import { move } from '../../kernel/move.js';
import { classificationReviewMachine } from './classification-review.machine.js';
import type { ClassificationReviewRecord, ClassificationReviewStore } from './classification-review.store.js';
import { CLASSIFICATION_HOOKS } from './classification.hooks.js';
import { toClassificationReview } from './classification.response.js';

/** The contract's default page size for reviews (parameters/trade.yaml ClassificationReviewsLimit). */
const REVIEWS_DEFAULT_LIMIT = 50;

const notFoundReview = (reviewId: string) => new ApiError('NOT_FOUND', `classification review ${reviewId} not found`);

export function classificationReviewRoutes(deps: KernelDeps, reviews: ClassificationReviewStore) {
  const load = async (tenantId: string, reviewId: string) => {
    const review = await reviews.get(tenantId, reviewId);
    if (!review) throw notFoundReview(reviewId);
    return review;
  };

  return {
    async listClassificationReviews({ principal, query }) {
      const limit = query.limit ?? deps.defects.at(CLASSIFICATION_HOOKS.reviewsDefaultLimit, REVIEWS_DEFAULT_LIMIT);
      const offset = query.offset ?? 0;
      const status = deps.defects.at(CLASSIFICATION_HOOKS.reviewsStatusFilter, query.status);
      const page = await reviews.page(principal.tenantId, status, limit, offset, deps.defects.at(CLASSIFICATION_HOOKS.reviewsOrder, 'newest-first'));
      return { status: 200, body: { reviews: page.items.map(toClassificationReview), total: page.total, limit, offset, hasMore: offset + page.items.length < page.total } };
    },

    async getClassificationReview({ principal, params }) {
      return { status: 200, body: toClassificationReview(await load(principal.tenantId, params.reviewId)) };
    },

    async decideClassificationReview({ principal, params, body }) {
      const tenantId = principal.tenantId;
      const decision = body.decision;
      // Of two concurrent decisions one wins the compare-and-set; the other, decided again, sees the decided review (409).
      const { record } = await move({
        machine: classificationReviewMachine,
        action: decision,
        context: (review) => ({ suggestedHsCode: review.suggestedHsCode }),
        switches: deps.defects,
        details: { action: 'decision', decision },
        load: () => reviews.get(tenantId, params.reviewId),
        missing: () => notFoundReview(params.reviewId),
        state: (review) => review.status,
        precheck(review) {
          // The table in force decides which decisions a state takes (its terminal states take none); this
          // refusal only words its 409 as responses/trade.yaml ClassificationReviewDecided does.
          if (!canTransition(classificationReviewMachine, review.status, decision, deps.defects)) throw actionNotAllowed(`review ${review.id} is already ${review.status}`, { currentState: review.status, action: 'decision', decision });
        },
        apply: (review, status): ClassificationReviewRecord => ({
          ...review,
          status,
          finalHsCode: deps.defects.at(CLASSIFICATION_HOOKS.decidedFinalHsCode, status === 'APPROVED' ? review.suggestedHsCode : status === 'OVERRIDDEN' ? body.hsCode! : null, { status, suggestedHsCode: review.suggestedHsCode, reviewerHsCode: body.hsCode ?? null }),
          note: body.note ?? null,
          decidedAt: deps.clocks.of(tenantId).nowIso(),
        }),
        save: (next) => reviews.update(next),
      });
      return { status: 200, body: toClassificationReview(record) };
    },
  } satisfies HandlerTable;
}
