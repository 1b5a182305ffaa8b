// sima.exposure-believable (spec 2.4): the exposure fields of each result hang together, as far as the spec
// names them: a CLEARED result carries no exposure (exposureAnnual null or 0); an AT_RISK result with a
// combinedRate has no negative exposure (null is allowed: the import value may be unknown); combinedRate is
// adRate + cvdRate when both are given, and the one given when only one is (within 0.01). Nothing is assumed about the rates' unit. With a fresh
// tenant, the catalog is also screened under the other authority (spec 4.2 `screeningAuthority: US`): AD and
// CVD orders together are more common there, so the sum rule has something to judge.
//
// Spec 2.4 names exposureAnnual without its formula, so only the simulator profile judges its amount: the
// sandbox's evidence `exposure` object (a free-form object in spec 2.4) names the inputs and the formula,
// `exposureAnnual = annualImportValue x combinedRate / 100, rounded to cents`; the listed exposureAnnual of the
// first AT_RISK results with an exposure must follow it from those inputs.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { evidencePath, EXPOSURE_TOLERANCE, num, pageOf, read, simaTenant, type SimaItem, type SimaTenant } from './support.js';

/** How many AT_RISK results with an exposure per results list the simulator profile compares with their evidence. */
const FORMULA_SAMPLE = 5;
const round2 = (n: number) => Math.round(n * 100) / 100;

const describeItem = (item: SimaItem) =>
  `SKU ${String(item.sku)} (${String(item.outcome)}, exposureAnnual ${JSON.stringify(item.exposureAnnual)}, adRate ${JSON.stringify(item.adRate)}, cvdRate ${JSON.stringify(item.cvdRate)}, combinedRate ${JSON.stringify(item.combinedRate)})`;

export const simaExposureBelievable = defineCheck({
  id: 'sima.exposure-believable',
  title: 'CLEARED results carry no exposure, AT_RISK exposure is not negative, and combinedRate is adRate + cvdRate (the one stated when the other is absent)',
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA exposure');
    if (!tenant) return;
    const tenants = [tenant];
    if (tenant.fresh) {
      const us = await simaTenant(ctx, 'Conformance SIMA exposure (US)', { screeningAuthority: 'US' });
      if (!us) return;
      tenants.push(us);
    }
    const lists = tenants.map((t) => t.results);
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
        // "Combined" is AD plus CVD: an order that does not apply adds no duty, so with one rate stated the
        // combined rate is that rate (a store adding with SQL's NULL + x = NULL leaves it null instead, and
        // every exposure built on it is lost). Nothing is judged when neither rate is stated.
        rule: 'combined-rate-one-absent',
        applies: (item) => (num(item.adRate) === undefined) !== (num(item.cvdRate) === undefined),
        breaks: (item) => Math.abs((num(item.combinedRate) ?? Number.NaN) - (num(item.adRate) ?? num(item.cvdRate))!) > EXPOSURE_TOLERANCE || num(item.combinedRate) === undefined,
        says: `result(s) with only one of adRate and cvdRate have a combinedRate other than that rate (tolerance ${EXPOSURE_TOLERANCE})`,
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
    if (ctx.options.profile === 'simulator') judged += await exposureFollowsFormula(ctx, tenants);
    const listed = lists.reduce((n, list) => n + list.items.length, 0);
    if (judged === 0) ctx.skip(`none of the ${listed} result(s) is CLEARED, AT_RISK with a combinedRate, or has both adRate and cvdRate: nothing to judge`);
  },
});

/**
 * Simulator profile: the listed exposureAnnual of the first AT_RISK results with an exposure is the evidence's
 * annualImportValue x combinedRate / 100, rounded to cents (the sandbox's formula). Returns how many it judged.
 */
async function exposureFollowsFormula(ctx: CheckContext, tenants: SimaTenant[]): Promise<number> {
  let judged = 0;
  for (const { client, results } of tenants) {
    const sample = results.items.filter((item) => item.outcome === 'AT_RISK' && num(item.exposureAnnual) !== undefined && typeof item.sku === 'string').slice(0, FORMULA_SAMPLE);
    for (const item of sample) {
      const exchange = await read(client, evidencePath(item.sku as string), ctx.admin);
      const body = exchange.response.body as { result?: { sku?: unknown }; exposure?: { annualImportValue?: unknown; combinedRate?: unknown } } | null;
      // Evidence about another SKU says nothing about this result's exposure (sima.evidence-served judges it).
      if (exchange.response.status === 200 && typeof body?.result?.sku === 'string' && body.result.sku !== item.sku) continue;
      judged += 1;
      const exposure = body?.exposure;
      const value = num(exposure?.annualImportValue);
      const rate = num(exposure?.combinedRate);
      if (exchange.response.status !== 200 || value === undefined || rate === undefined) {
        ctx.fail('exposure-formula', `the evidence of AT_RISK ${describeItem(item)} answered ${exchange.response.status} without the exposure inputs annualImportValue and combinedRate the sandbox's formula names`, exchange);
        continue;
      }
      const expected = round2((value * rate) / 100);
      if (Math.abs(expected - num(item.exposureAnnual)!) > EXPOSURE_TOLERANCE + 1e-9) {
        ctx.fail('exposure-formula', `${describeItem(item)}, as listed: exposureAnnual is not annualImportValue ${value} x combinedRate ${rate} / 100 = ${expected}, the formula of its evidence (sandbox-defined; spec 2.4 names exposureAnnual only)`, exchange);
      }
    }
  }
  return judged;
}
