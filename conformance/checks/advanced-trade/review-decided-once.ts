// advanced-trade.review-decided-once (spec 3 "a transition requested from a non-source state returns 409
// ACTION_NOT_ALLOWED"; contract: ClassificationReviewStatus terminal states, responses/trade.yaml
// ClassificationReviewDecided): a PENDING review is decided once; every further decision is 409
// ACTION_NOT_ALLOWED and leaves the review as decided.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, classificationWithReview, codeOf, decide, reviewPath, reviewsAreSandboxDefined, tradeTenant } from './support.js';

const FIRST = [{ decision: 'approve' }, { decision: 'reject' }, { decision: 'override', hsCode: '6109.90' }] as const;
const STATE = { approve: 'APPROVED', reject: 'REJECTED', override: 'OVERRIDDEN' } as const;

export const reviewDecidedOnce = defineCheck({
  id: 'advanced-trade.review-decided-once',
  title: 'A classification review is decided once: a second decision is 409 ACTION_NOT_ALLOWED and changes nothing',
  area: 'advanced-trade',
  needs: ['writes'],
  async run(ctx) {
    reviewsAreSandboxDefined(ctx);
    const tenant = await tradeTenant(ctx, 'Conformance advanced trade: review decisions');
    for (const first of FIRST) {
      const review = await classificationWithReview(ctx, tenant.client);
      if (!review) return;
      const decided = await decide(tenant.client, review.reviewId, first);
      const expected = STATE[first.decision];
      if (!ctx.expect(decided.response.status === 200 && bodyOf(decided).status === expected, 'pending-review-decided', `deciding ${first.decision} on PENDING review ${review.reviewId} answered ${decided.response.status} with status ${JSON.stringify(bodyOf(decided).status)}, not 200 ${expected}`, decided)) continue;
      for (const again of FIRST) {
        const second = await decide(tenant.client, review.reviewId, again);
        ctx.expect(
          second.response.status === 409 && codeOf(second) === 'ACTION_NOT_ALLOWED',
          'decided-review-refused',
          `a second decision (${again.decision}) on review ${review.reviewId}, already ${expected}, answered ${second.response.status} ${JSON.stringify(codeOf(second) ?? bodyOf(second).status)}, not 409 ACTION_NOT_ALLOWED (spec 3, 7; ClassificationReviewDecided)`,
          second,
        );
      }
      const read = await tenant.client.call('GET', reviewPath(review.reviewId));
      ctx.expect(bodyOf(read).status === expected, 'decided-review-unchanged', `review ${review.reviewId}, decided ${expected}, reads ${JSON.stringify(bodyOf(read).status)} after refused decisions`, read);
    }
  },
});
