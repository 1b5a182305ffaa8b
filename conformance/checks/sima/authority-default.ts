// sima.authority-defaults-to-ca (spec 4.2): "`screeningAuthority` (`CA` or `US`; omitted or blank defaults to CA
// in workers)". The whole catalog is screened four times in a row: under CA, under US, with the authority
// omitted and with it blank (""). Only SKUs whose CA and US results differ tell the authorities apart (their
// outcome, measureCode, caseNumber, hsInScope or rates: the fields a screening decides, spec 2.4); without
// one the check is skipped. On each of them the omitted and the blank screenings must give the CA result:
//   authority-default-ca   a result made by the omitted (or blank) screening that differs from CA's.
// Every comparison uses only results made by the screening named (sima/screenings.ts), so a SKU a screening
// did not reach is not judged.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { simaTenant, type SimaItem } from './support.js';
import { bySku, screen, type Screening } from './screenings.js';

/** What a screening decides for a SKU under an authority (spec 2.4). */
const decided = (item: SimaItem) => JSON.stringify([item.outcome, item.measureCode ?? null, (item as { caseNumber?: unknown }).caseNumber ?? null, item.hsInScope, item.adRate ?? null, item.cvdRate ?? null, item.combinedRate ?? null]);

export const simaAuthorityDefaultsToCa = defineCheck({
  id: 'sima.authority-defaults-to-ca',
  title: 'A SIMA batch with screeningAuthority omitted or blank screens as under CA',
  area: 'sima',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA authority default');
    if (!tenant) return;
    let previous = bySku(tenant.results.items);
    const run = async (body: Record<string, unknown>): Promise<Screening | undefined> => {
      const screening = await screen(ctx, tenant.client, { skus: null, ...body }, previous);
      if (screening) previous = screening.after;
      return screening;
    };
    const ca = await run({ screeningAuthority: 'CA' });
    if (!ca) return;
    const us = await run({ screeningAuthority: 'US' });
    if (!us) return;
    const telling = [...ca.made].filter((sku) => us.made.has(sku) && decided(ca.after.get(sku)!) !== decided(us.after.get(sku)!));
    if (!telling.length) ctx.skip(`no SKU of the catalog screens differently under CA and US (${ca.made.size} screened under CA, ${us.made.size} under US): nothing tells the default apart`);
    for (const [label, body] of [['omitted', {}], ['blank ("")', { screeningAuthority: '' }]] as const) {
      const screening = await run(body);
      if (!screening) return;
      const judged = telling.filter((sku) => screening.made.has(sku));
      if (!ctx.expect(judged.length > 0, 'authority-default-screened', `the whole-catalog screening ${screening.jobId} with screeningAuthority ${label} made no result for any of the ${telling.length} SKU(s) that tell CA from US (runPolicy default always: spec 4.2)`, screening.list.pages[0])) continue;
      const wrong = judged.filter((sku) => decided(screening.after.get(sku)!) !== decided(ca.after.get(sku)!));
      if (wrong.length) {
        const sku = wrong[0];
        const likeUs = wrong.filter((s) => decided(screening.after.get(s)!) === decided(us.after.get(s)!)).length;
        ctx.fail('authority-default-ca', `with screeningAuthority ${label}, ${wrong.length} of ${judged.length} SKU(s) that CA and US screen differently were not screened as under CA (${likeUs} as under US), e.g. ${sku}: ${decided(screening.after.get(sku)!)}, under CA ${decided(ca.after.get(sku)!)}, under US ${decided(us.after.get(sku)!)} (spec 4.2: omitted or blank defaults to CA)`, screening.list.pages[0]);
      }
    }
  },
});
