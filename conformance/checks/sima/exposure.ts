// sima.exposure-believable (spec 2.4): the exposure fields of each result hang together, as far as the spec
// names them: a CLEARED result carries no exposure (exposureAnnual null or 0); an AT_RISK result with a
// combinedRate has no negative exposure (null is allowed: the import value may be unknown); combinedRate is
// adRate + cvdRate when both are given (within 0.01). Nothing is assumed about the rates' unit. With a fresh
// tenant, the catalog is also screened under the other authority (spec 4.2 `screeningAuthority: US`): AD and
// CVD orders together are more common there, so the sum rule has something to judge.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { EXPOSURE_TOLERANCE, num, pageOf, simaTenant, type SimaItem } from './support.js';

const describeItem = (item: SimaItem) =>
  `SKU ${String(item.sku)} (${String(item.outcome)}, exposureAnnual ${JSON.stringify(item.exposureAnnual)}, adRate ${JSON.stringify(item.adRate)}, cvdRate ${JSON.stringify(item.cvdRate)}, combinedRate ${JSON.stringify(item.combinedRate)})`;

export const simaExposureBelievable = defineCheck({
  id: 'sima.exposure-believable',
  title: 'CLEARED results carry no exposure, AT_RISK exposure is not negative, and combinedRate is adRate + cvdRate',
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA exposure');
    if (!tenant) return;
    const lists = [tenant.results];
    if (tenant.fresh) {
      const us = await simaTenant(ctx, 'Conformance SIMA exposure (US)', { screeningAuthority: 'US' });
      if (!us) return;
      lists.push(us.results);
    }
    const rules: Array<{ rule: string; applies: (item: SimaItem) => boolean; breaks: (item: SimaItem) => boolean; says: string }> = [
      {
        rule: 'cleared-no-exposure',
        applies: (item) => item.outcome === 'CLEARED',
        breaks: (item) => item.exposureAnnual !== null && item.exposureAnnual !== 0,
        says: 'CLEARED result(s) carry an exposure (exposureAnnual neither null nor 0)',
      },
      {
        rule: 'exposure-non-negative',
        applies: (item) => item.outcome === 'AT_RISK' && num(item.combinedRate) !== undefined,
        breaks: (item) => (num(item.exposureAnnual) ?? 0) < 0,
        says: 'AT_RISK result(s) with a combinedRate carry a negative exposureAnnual',
      },
      {
        rule: 'combined-rate-sum',
        applies: (item) => num(item.adRate) !== undefined && num(item.cvdRate) !== undefined,
        breaks: (item) => Math.abs((num(item.combinedRate) ?? Number.NaN) - (num(item.adRate)! + num(item.cvdRate)!)) > EXPOSURE_TOLERANCE || num(item.combinedRate) === undefined,
        says: `result(s) with adRate and cvdRate have a combinedRate other than their sum (tolerance ${EXPOSURE_TOLERANCE})`,
      },
    ];
    let judged = 0;
    for (const { rule, applies, breaks, says } of rules) {
      const concerned = lists.flatMap((list) => list.items.filter(applies).map((item) => ({ list, item })));
      judged += concerned.length;
      const broken = concerned.filter(({ item }) => breaks(item));
      if (broken.length) ctx.fail(rule, `${broken.length} of ${concerned.length} ${says}; first: ${describeItem(broken[0].item)}`, pageOf(broken[0].list, broken[0].item));
    }
    const read = lists.reduce((n, list) => n + list.items.length, 0);
    if (judged === 0) ctx.skip(`none of the ${read} result(s) is CLEARED, AT_RISK with a combinedRate, or has both adRate and cvdRate: nothing to judge`);
  },
});
