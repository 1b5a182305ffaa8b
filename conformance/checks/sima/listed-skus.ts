// sima.listed-skus-screened (spec 4.2): "`skus` (array of string or null; null means all catalog SKUs)": a
// batch with a list screens those SKUs. After a whole-catalog screening, a few of the screened SKUs (chosen
// with the run's seed, at most half of them) are screened again with `POST /api/sima/batch { skus }` and no
// runPolicy (spec 4.2: `always` is the default, so every listed SKU is screened anew). Then:
//   listed-sku-screened     every listed SKU has a result made by that screening (sima/screenings.ts);
//   unlisted-sku-screened   in a fresh tenant (nothing else screens there), no other SKU does: the batch
//                           screened those SKUs, not the catalog. In a shared tenant another client may
//                           screen meanwhile, so only the first half is judged.
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { simaTenant } from './support.js';
import { bySku, screen } from './screenings.js';

/** How many SKUs the batch lists (fewer when the catalog is small: at most half of the screened SKUs). */
const LISTED = 3;

export const simaListedSkusScreened = defineCheck({
  id: 'sima.listed-skus-screened',
  title: 'A SIMA batch with a list of SKUs screens those SKUs (and, in a fresh tenant, no other)',
  area: 'sima',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA listed SKUs');
    if (!tenant) return;
    const before = bySku(tenant.results.items);
    const skus = [...before.keys()].sort();
    const count = Math.min(LISTED, Math.floor(skus.length / 2));
    if (count < 1) ctx.skip(`the tenant has ${skus.length} screened SKU(s): a list that leaves some out cannot be made`);
    const [listed] = fc.sample(fc.shuffledSubarray(skus, { minLength: count, maxLength: count }), { seed: ctx.seed, numRuns: 1 });
    const screening = await screen(ctx, tenant.client, { skus: listed }, before);
    if (!screening) return;
    const page = screening.list.pages[0];
    for (const sku of listed) {
      const item = screening.after.get(sku);
      if (!item) ctx.fail('listed-sku-screened', `SKU ${sku}, listed in batch ${screening.jobId}, has no result after it (spec 4.2: skus screens those SKUs)`, page);
      else if (!screening.made.has(sku)) ctx.fail('listed-sku-screened', `SKU ${sku}, listed in batch ${screening.jobId} (runPolicy omitted: spec 4.2 default always), still lists result ${String(item.id)} of analysisDate ${JSON.stringify(item.analysisDate)}: it was not screened`, page);
    }
    if (!tenant.fresh) return;
    const others = [...screening.made].filter((sku) => !listed.includes(sku));
    if (others.length) {
      ctx.fail('unlisted-sku-screened', `batch ${screening.jobId} listed ${JSON.stringify(listed)} but ${others.length} other SKU(s) were screened by it too, e.g. ${JSON.stringify(others.slice(0, 5))} (spec 4.2: skus screens those SKUs; only null means all catalog SKUs)`, page);
    }
  },
});
