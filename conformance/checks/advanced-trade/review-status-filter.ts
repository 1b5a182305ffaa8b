// advanced-trade.review-status-filter (contract: listClassificationReviews `status`): every review listed under
// a status is in it, and a review known to be in a state is listed under it.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, classificationWithReview, decide, REVIEWS_PATH, reviewsAreSandboxDefined, tradeTenant } from './support.js';

export const reviewStatusFilter = defineCheck({
  id: 'advanced-trade.review-status-filter',
  title: 'Classification reviews listed under a status are all in that status, and include the ones known to be',
  area: 'advanced-trade',
  needs: ['writes'],
  async run(ctx) {
    reviewsAreSandboxDefined(ctx);
    const tenant = await tradeTenant(ctx, 'Conformance advanced trade: review list');
    const pending = await classificationWithReview(ctx, tenant.client);
    const approved = await classificationWithReview(ctx, tenant.client);
    if (!pending || !approved) return;
    const decided = await decide(tenant.client, approved.reviewId, { decision: 'approve' });
    if (!ctx.expect(decided.response.status === 200, 'pending-review-decided', `approving PENDING review ${approved.reviewId} answered ${decided.response.status}, not 200`, decided)) return;
    for (const [status, known] of [['PENDING', pending.reviewId], ['APPROVED', approved.reviewId]] as const) {
      const listed = await tenant.client.call('GET', `${REVIEWS_PATH}?status=${status}&limit=200`);
      const reviews = bodyOf(listed).reviews;
      if (!ctx.expect(listed.response.status === 200 && Array.isArray(reviews), 'reviews-listed', `GET ${REVIEWS_PATH}?status=${status} answered ${listed.response.status} without a reviews array`, listed)) continue;
      const items = reviews as Array<{ reviewId?: unknown; status?: unknown }>;
      const strays = items.filter((r) => r.status !== status);
      ctx.expect(!strays.length, 'status-filter-holds', `GET ${REVIEWS_PATH}?status=${status} lists ${strays.length} review(s) in another state (${strays.slice(0, 3).map((r) => `${r.reviewId}: ${r.status}`).join(', ')})`, listed);
      if (tenant.fresh) ctx.expect(items.some((r) => r.reviewId === known), 'status-filter-complete', `GET ${REVIEWS_PATH}?status=${status} leaves out review ${known}, which is ${status}`, listed);
    }
  },
});
