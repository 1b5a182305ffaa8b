// The evidence of a SKU's result (spec 2.4, 4.2, 7).
//   sima.evidence-served     a listed SKU's evidence is 200 (its schema is checked by the client) and is about
//                            that SKU (and, in a tenant where nothing else screens, about its listed result);
//                            an unknown SKU is 404 NOT_FOUND in the error envelope.
//   sima.evidence-isolated   another tenant never sees the first tenant's results: not in its results list,
//                            not as its evidence (a result id of the first tenant), and, for a SKU the second
//                            tenant cannot have, not at all (404 NOT_FOUND). Both tenants may hold the same
//                            SKUs (the sandbox seeds every tenant with one sample catalog): a SKU counts as one
//                            the second tenant cannot have only when the second tenant's whole catalog was
//                            screened in this check and it has no result for it.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { expectError } from '../../harness/expect-error.js';
import { RUN_NONCE } from '../jobs-support.js';
import { allResults, evidencePath, idOf, isProblem, OUTCOMES, read, screenCatalog, simaTenant, type SimaItem } from './support.js';

/** One listed result per outcome (the first of each), then others, up to `count`. */
function sample(items: SimaItem[], count: number): SimaItem[] {
  const picked = OUTCOMES.map((outcome) => items.find((item) => item.outcome === outcome)).filter((item): item is SimaItem => item !== undefined);
  for (const item of items) if (picked.length < count && !picked.includes(item)) picked.push(item);
  return picked.filter((item) => typeof item.sku === 'string').slice(0, count);
}

const evidenceResult = (exchange: Exchange) => (exchange.response.body as { result?: { id?: unknown; sku?: unknown } } | null)?.result;

export const simaEvidenceServed = defineCheck({
  id: 'sima.evidence-served',
  title: "A listed SKU's evidence is served and about that SKU; an unknown SKU is 404 NOT_FOUND",
  area: 'sima',
  needs: [],
  async run(ctx: CheckContext) {
    const tenant = await simaTenant(ctx, 'Conformance SIMA evidence');
    if (!tenant) return;
    for (const item of sample(tenant.results.items, 4)) {
      const sku = item.sku as string;
      const exchange = await read(tenant.client, evidencePath(sku), ctx.admin);
      if (!ctx.expect(exchange.response.status === 200, 'evidence-served', `the evidence of SKU ${sku}, listed in the results, answered ${exchange.response.status}, not 200 (spec 4.2)`, exchange)) continue;
      const result = evidenceResult(exchange);
      if (typeof result?.sku === 'string') ctx.expect(result.sku === sku, 'evidence-of-sku', `the evidence asked for SKU ${sku} is about SKU ${result.sku}`, exchange);
      // spec 2.4, 4.2: the results hold the latest result per SKU, the evidence is the SKU's; with nothing
      // else screening in the tenant, both name the same result.
      if (tenant.fresh && typeof result?.id === 'string') {
        ctx.expect(result.id === item.id, 'evidence-latest-result', `the evidence of SKU ${sku} names result ${result.id}, but the results list its latest result as ${idOf(item)}`, exchange);
      }
    }
    const unknown = `CONF-NO-SUCH-SKU-${RUN_NONCE}`;
    const missing = await read(tenant.client, evidencePath(unknown), ctx.admin);
    expectError(ctx, missing, 404, 'NOT_FOUND', `the evidence of SKU ${unknown}, which the tenant does not have`);
  },
});

export const simaEvidenceIsolated = defineCheck({
  id: 'sima.evidence-isolated',
  title: "Another tenant sees none of the tenant's SIMA results: not listed, not as evidence",
  area: 'sima',
  needs: ['secondTenant'],
  async run(ctx: CheckContext) {
    const second = ctx.second!;
    const tenant = await simaTenant(ctx, 'Conformance SIMA evidence isolation');
    if (!tenant) return;
    const ours = new Map(tenant.results.items.map((item) => [idOf(item), item]));

    // The second tenant's whole catalog, screened here when the profile writes: afterwards every SKU it has
    // carries a result, so a SKU of ours it lists no result for is one it cannot have.
    let catalogKnown = false;
    if (ctx.options.profile !== 'readonly') {
      const screened = await screenCatalog(second, ctx.admin);
      if (isProblem(screened)) return ctx.fail(screened.rule, `the second tenant's ${screened.message}`, screened.exchange);
      catalogKnown = screened.settled && screened.status === 'COMPLETED';
    }
    const theirs = await allResults(second, {}, ctx.admin);
    if (isProblem(theirs)) return ctx.fail(theirs.rule, `the second tenant's ${theirs.message}`, theirs.exchange);
    catalogKnown &&= theirs.complete;

    const leaked = theirs.items.filter((item) => ours.has(idOf(item)));
    if (leaked.length) {
      ctx.fail('tenant-isolation', `the second tenant's results list ${leaked.length} result(s) of the first tenant (first: ${idOf(leaked[0])}, SKU ${String(leaked[0].sku)}) (spec 7: NOT_FOUND for what is not the tenant's)`, theirs.pages[0]);
    }

    const theirSkus = new Set(theirs.items.map((item) => String(item.sku)));
    const foreignOnly = tenant.results.items.filter((item) => typeof item.sku === 'string' && !theirSkus.has(item.sku));
    const probes = [...sample(tenant.results.items, 4), ...(catalogKnown ? foreignOnly.slice(0, 3) : [])];
    for (const item of new Set(probes)) {
      const sku = item.sku as string;
      const exchange = await read(second, evidencePath(sku), ctx.admin);
      const cannotHave = catalogKnown && !theirSkus.has(sku);
      if (exchange.response.status === 200) {
        const result = evidenceResult(exchange);
        if (result?.id === item.id) {
          ctx.fail('tenant-isolation', `the second tenant's evidence of SKU ${sku} is the first tenant's result ${idOf(item)} (spec 7)`, exchange);
          continue;
        }
        if (cannotHave) {
          ctx.fail('tenant-isolation', `the second tenant, whose whole catalog was screened without a result for SKU ${sku}, was served evidence for it (200); spec 7 requires 404 NOT_FOUND for what is not the tenant's`, exchange);
        }
        continue;
      }
      if (cannotHave) expectError(ctx, exchange, 404, 'NOT_FOUND', `the second tenant's evidence of SKU ${sku}, which only the first tenant has`);
    }
  },
});
