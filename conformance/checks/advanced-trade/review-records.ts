// advanced-trade.review-records (spec 2.10, 4.6; the records are sandbox-defined, contracts/components/
// schemas/advanced-trade.yaml, so the simulator profile only): what a classification review decision
// records and which reviews keep a SKU from quoteable.
//   - An override records the reviewer's code (contract ClassificationReview.finalHsCode: "the reviewer's
//     code once OVERRIDDEN"), its note and decidedAt, on the answer and on the review read back.
//   - The compliance check's classification_confident gate (simulator/README.md): a SKU with a classification
//     review still PENDING is not quoteable; another SKU's pending review does not block a SKU of its own; once
//     the review is decided (overridden) it no longer blocks. The product and corridor are the clean ones
//     advanced-trade.compliance-gates shows quoteable, so only the review can tell the answers apart.
import { defineCheck } from '../../harness/check.js';
import { RUN_NONCE } from '../jobs-support.js';
import { bodyOf, classificationWithReview, COMPLIANCE_PATH, decide, reviewPath, tradeTenant } from './support.js';

const CLEAN = { hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US', productValue: 1200, currency: 'USD' };
/** The code the reviewer settles on: cotton T-shirts (HS 2022 6109.10.00), or other textile materials when that was the suggestion. */
const reviewerCode = (suggested: unknown) => (suggested === '6109.10.00' ? '6109.90.00' : '6109.10.00');

export const reviewRecords = defineCheck({
  id: 'advanced-trade.review-records',
  title: "An override records the reviewer's code; only a SKU's own PENDING review keeps it from quoteable",
  area: 'advanced-trade',
  needs: ['writes'],
  async run(ctx) {
    if (ctx.options.profile !== 'simulator') ctx.skip('classification reviews and the compliance gates beyond quoteReadiness are sandbox-defined (spec 2.10: fields not shown): the simulator profile only');
    const tenant = await tradeTenant(ctx, 'Conformance advanced trade: review records');
    const sku = `CONF-${RUN_NONCE}-REVIEWED`;
    const review = await classificationWithReview(ctx, tenant.client, sku);
    if (!review) return;
    const quote = (forSku: string) => tenant.client.call('POST', COMPLIANCE_PATH, { json: { ...CLEAN, sku: forSku } });

    const pending = await quote(sku);
    ctx.expect(pending.response.status === 200 && bodyOf(pending).quoteReadiness !== 'quoteable', 'pending-review-blocks-quote', `SKU ${sku}, whose classification review ${review.reviewId} is PENDING, answered ${pending.response.status} quoteReadiness ${JSON.stringify(bodyOf(pending).quoteReadiness)}: a pending review keeps the SKU from quoteable (classification_confident)`, pending);
    const other = await quote(`CONF-${RUN_NONCE}-UNREVIEWED`);
    ctx.expect(other.response.status === 200 && bodyOf(other).quoteReadiness === 'quoteable', 'other-sku-review-ignored', `a SKU without any review answered ${other.response.status} quoteReadiness ${JSON.stringify(bodyOf(other).quoteReadiness)} while SKU ${sku} has a PENDING review: only the SKU's own reviews count`, other);

    const REVIEWER_CODE = reviewerCode(bodyOf(review.exchange).hsCode);
    const note = `conformance override ${RUN_NONCE}`;
    const decided = await decide(tenant.client, review.reviewId, { decision: 'override', hsCode: REVIEWER_CODE, note });
    const read = await tenant.client.call('GET', reviewPath(review.reviewId));
    for (const [where, exchange] of [['the decision answer', decided], ['the review read back', read]] as const) {
      const r = bodyOf(exchange);
      if (!ctx.expect(exchange.response.status === 200 && r.status === 'OVERRIDDEN', 'override-recorded', `${where} for review ${review.reviewId} overridden with ${REVIEWER_CODE}: ${exchange.response.status} status ${JSON.stringify(r.status)}, not 200 OVERRIDDEN`, exchange)) continue;
      ctx.expect(r.finalHsCode === REVIEWER_CODE, 'override-records-reviewer-code', `${where}: review ${review.reviewId} overridden with hsCode ${REVIEWER_CODE} records finalHsCode ${JSON.stringify(r.finalHsCode)} (suggested ${JSON.stringify(r.suggestedHsCode)}): an override records the reviewer's code (contract ClassificationReview.finalHsCode)`, exchange);
      ctx.expect(r.note === note, 'override-records-note', `${where}: review ${review.reviewId} records note ${JSON.stringify(r.note)}, not the ${JSON.stringify(note)} sent with the decision`, exchange);
      const at = typeof r.decidedAt === 'string' ? Date.parse(r.decidedAt) : NaN;
      ctx.expect(Number.isFinite(at) && at >= Date.parse(String(r.createdAt)), 'override-records-decided-at', `${where}: review ${review.reviewId} shows decidedAt ${JSON.stringify(r.decidedAt)} (createdAt ${JSON.stringify(r.createdAt)}): set when decided, not before the review existed`, exchange);
    }

    const after = await quote(sku);
    ctx.expect(after.response.status === 200 && bodyOf(after).quoteReadiness === 'quoteable', 'decided-review-unblocks-quote', `SKU ${sku}, its review ${review.reviewId} overridden, answered ${after.response.status} quoteReadiness ${JSON.stringify(bodyOf(after).quoteReadiness)}: only a PENDING review keeps a SKU from quoteable, and the clean corridor is otherwise quoteable`, after);
  },
});
