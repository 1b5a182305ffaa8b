// advanced-trade.apply-needs-decision (contract: applyClassification "a classification that still requires
// review, or a PENDING or REJECTED review, returns 409"): nothing is applied from an undecided or rejected
// review; once the review is approved its code applies.
import { defineCheck } from '../../harness/check.js';
import { APPLY_PATH, bodyOf, classificationWithReview, codeOf, decide, reviewsAreSandboxDefined, tradeTenant } from './support.js';

export const applyNeedsDecision = defineCheck({
  id: 'advanced-trade.apply-needs-decision',
  title: 'A classification under review applies only once its review is approved or overridden (409 before, and when rejected)',
  area: 'advanced-trade',
  needs: ['writes'],
  async run(ctx) {
    reviewsAreSandboxDefined(ctx);
    const tenant = await tradeTenant(ctx, 'Conformance advanced trade: apply');
    const sku = `CONF-CLS-${ctx.seed}`;
    const review = await classificationWithReview(ctx, tenant.client, sku);
    if (!review) return;
    const refused = (label: string, body: Record<string, unknown>, state: string) =>
      tenant.client.call('POST', APPLY_PATH, { json: body }).then((exchange) =>
        ctx.expect(exchange.response.status === 409 && codeOf(exchange) === 'ACTION_NOT_ALLOWED', 'undecided-not-applied', `applying ${label} while the review is ${state} answered ${exchange.response.status} ${JSON.stringify(codeOf(exchange) ?? bodyOf(exchange).hsCode)}, not 409 ACTION_NOT_ALLOWED`, exchange),
      );
    await refused(`classification ${review.classificationId}`, { classificationId: review.classificationId, sku }, 'PENDING');
    await refused(`review ${review.reviewId}`, { reviewId: review.reviewId, sku }, 'PENDING');

    const approved = await decide(tenant.client, review.reviewId, { decision: 'approve' });
    if (!ctx.expect(approved.response.status === 200, 'pending-review-decided', `approving PENDING review ${review.reviewId} answered ${approved.response.status}, not 200`, approved)) return;
    const applied = await tenant.client.call('POST', APPLY_PATH, { json: { reviewId: review.reviewId, sku } });
    // Which code was applied is read from the review and apply records, whose fields are the sandbox's (spec
    // 2.10 "fields not shown"): compared in the simulator profile only; elsewhere the approved review applies.
    if (ctx.options.profile === 'simulator') {
      ctx.expect(
        applied.response.status === 200 && bodyOf(applied).hsCode === bodyOf(approved).finalHsCode,
        'approved-review-applied',
        `applying approved review ${review.reviewId} answered ${applied.response.status} with hsCode ${JSON.stringify(bodyOf(applied).hsCode)}, not 200 with the review's finalHsCode ${JSON.stringify(bodyOf(approved).finalHsCode)}`,
        applied,
      );
    } else {
      ctx.expect(applied.response.status === 200, 'approved-review-applied', `applying approved review ${review.reviewId} answered ${applied.response.status}, not 200`, applied);
    }

    const rejectedReview = await classificationWithReview(ctx, tenant.client, sku);
    if (!rejectedReview) return;
    await decide(tenant.client, rejectedReview.reviewId, { decision: 'reject' });
    await refused(`review ${rejectedReview.reviewId}`, { reviewId: rejectedReview.reviewId, sku }, 'REJECTED');
  },
});
