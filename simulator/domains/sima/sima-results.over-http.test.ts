// GET /api/sima/results and /summary over HTTP (spec 2.4, 4.2, 8.6), every response checked against the
// contract: the tenant's latest result per SKU, each filter, offset and cursor paging, the summary as the
// sums over the list, and the exposure arithmetic of screening.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { SAMPLE_CATALOG } from '#fixtures/catalog/sample-catalog.js';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { simaResultStore } from './sima-result.store.js';
import { listAll, review, screen } from './sima-results.testing.js';
import type { SimaResultItem } from './sima.types.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const skus = (items: SimaResultItem[]) => items.map((i) => i.sku);
const ALL_SKUS = SAMPLE_CATALOG.map((i) => i.sku).sort();

/** The whole sample catalog screened (CA), with every workflow value present and one result marked stale. */
async function screenedWithEveryWorkflow(s: TestSandbox) {
  await screen(s, { skus: null });
  expect((await review(s, 'UDS-ACCENT-CHR-TEAL', 'accept')).body.workflowStatus).toBe('ACCEPTED');
  expect((await review(s, 'UDS-RECL-LTH-BRN', 'override', 'exporter has its own normal value')).body.workflowStatus).toBe('OVERRIDDEN');
  expect((await review(s, 'RBR-15M-12M-BDL', 'dismiss')).body.workflowStatus).toBe('DISMISSED');
  // No screening marks a result stale yet (the spec does not say when one is): set one in the store.
  const results = simaResultStore(s.sim.deps);
  const record = (await results.current(s.identity.tenantId, 'TEE-CTN-BLK-M'))!;
  expect(await results.update({ ...record, isStale: true })).not.toBeNull();
}

describe('GET /api/sima/results', () => {
  it('lists the latest result per SKU in SKU order with limit 50, offset 0 and cursor null on the only page', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['TEE-CTN-BLK-M', 'UDS-SOFABED-GRY-3S'] });
    await screen(sandbox, { skus: null });
    const listed = await sandbox.call('GET', '/api/sima/results');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: ALL_SKUS.length, limit: 50, offset: 0, cursor: null, hasMore: false });
    expect(skus(listed.body.outcomes)).toEqual(ALL_SKUS);
  });

  it('narrows the list by outcome, workflow, workflow_not, hs_in_scope and is_stale, each exactly', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screenedWithEveryWorkflow(sandbox);
    const all = await listAll(sandbox);
    const cases: Array<[string, (i: SimaResultItem) => boolean]> = [
      ...(['AT_RISK', 'NEEDS_REVIEW', 'CLEARED'] as const).map((o): [string, (i: SimaResultItem) => boolean] => [`outcome=${o}`, (i) => i.outcome === o]),
      ...(['OPEN', 'OVERRIDDEN', 'ACCEPTED', 'DISMISSED'] as const).flatMap((w): Array<[string, (i: SimaResultItem) => boolean]> => [
        [`workflow=${w}`, (i) => i.workflowStatus === w],
        // "not in this workflow state": a CLEARED result (no workflow) is not in it, so it is listed.
        [`workflow_not=${w}`, (i) => i.workflowStatus !== w],
      ]),
      ...[true, false].flatMap((b): Array<[string, (i: SimaResultItem) => boolean]> => [
        [`hs_in_scope=${b}`, (i) => i.hsInScope === b],
        [`is_stale=${b}`, (i) => i.isStale === b],
      ]),
      ['outcome=AT_RISK&workflow_not=DISMISSED&hs_in_scope=true', (i) => i.outcome === 'AT_RISK' && i.workflowStatus !== 'DISMISSED'],
      ['workflow=OPEN&workflow_not=OPEN', () => false],
    ];
    for (const [query, holds] of cases) {
      const expected = skus(all.filter(holds));
      const filtered = await sandbox.call('GET', `/api/sima/results?limit=1000&${query}`);
      expect(skus(filtered.body.outcomes), query).toEqual(expected);
      expect(filtered.body.total, query).toBe(expected.length);
    }
    // Every value occurs, so no filter above was vacuous.
    for (const w of ['OPEN', 'OVERRIDDEN', 'ACCEPTED', 'DISMISSED', null]) expect(all.some((i) => i.workflowStatus === w), String(w)).toBe(true);
    expect(all.filter((i) => i.isStale).map((i) => i.sku)).toEqual(['TEE-CTN-BLK-M']);
  });

  it('pages by offset and limit, with hasMore and the next cursor until the last page', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: null });
    const second = await sandbox.call('GET', '/api/sima/results?limit=10&offset=10');
    expect(second.body).toMatchObject({ total: ALL_SKUS.length, limit: 10, offset: 10, hasMore: true });
    expect(typeof second.body.cursor).toBe('string');
    expect(skus(second.body.outcomes)).toEqual(ALL_SKUS.slice(10, 20));
    const last = await sandbox.call('GET', '/api/sima/results?limit=10&offset=20');
    expect(last.body).toMatchObject({ offset: 20, cursor: null, hasMore: false });
    expect(skus(last.body.outcomes)).toEqual(ALL_SKUS.slice(20));
  });

  it('refuses an empty cursor or filter value as a value the contract does not allow, not as an absent one', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    // OpenAPI's allowEmptyValue is false: `?cursor=` is a cursor of length 0 (minLength 1), `?outcome=` no outcome.
    for (const [query, field] of [['cursor=', 'cursor'], ['outcome=', 'outcome'], ['limit=', 'limit']]) {
      const res = await sandbox.call('GET', `/api/sima/results?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'INVALID_REQUEST', details: { field } });
    }
  });

  it('walks every result once by cursor, stable when another batch screens new SKUs between pages', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const first = ALL_SKUS.filter((_, i) => i % 2 === 0);
    const later = ALL_SKUS.filter((_, i) => i % 2 === 1);
    await screen(sandbox, { skus: first });
    const seen: string[] = [];
    const ids = new Set<string>();
    let page = await sandbox.call('GET', '/api/sima/results?limit=3&offset=7');
    const boundary = page.body.outcomes.at(-1).sku as string;
    for (let n = 0; ; n++) {
      expect(page.status).toBe(200);
      expect(page.body.outcomes.length).toBeLessThanOrEqual(3);
      if (n > 0) expect(page.body).not.toHaveProperty('offset'); // a cursor page ignores offset
      for (const item of page.body.outcomes as SimaResultItem[]) {
        expect(ids.has(item.id), item.sku).toBe(false);
        ids.add(item.id);
        seen.push(item.sku);
      }
      if (n === 0) await screen(sandbox, { skus: later }); // new SKUs on both sides of the cursor
      if (!page.body.hasMore) break;
      page = await sandbox.call('GET', `/api/sima/results?limit=3&offset=7&cursor=${encodeURIComponent(page.body.cursor)}`);
    }
    expect(page.body.cursor).toBeNull();
    // After the boundary: every SKU once, in order, the new ones included; before it nothing comes back.
    expect(seen).toEqual([...first.slice(7, 10), ...ALL_SKUS.filter((s) => s > boundary)]);
  });

  it("refuses a cursor it did not issue with 400 INVALID_REQUEST naming cursor, and accepts the contract's example", async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['TEE-CTN-BLK-M', 'BED-WD-QUEEN-OAK'] });
    // The conformance suite sends the example as valid input: it names a page after UDS-SOFABED-GRY-3S.
    const example = (loadContract('v1.3.0').components.parameters as Record<string, { example: string }>).SimaCursor.example;
    const afterExample = await sandbox.call('GET', `/api/sima/results?cursor=${example}`);
    expect(afterExample.status).toBe(200);
    expect(skus(afterExample.body.outcomes)).toEqual([]);
    for (const cursor of ['not-a-cursor', Buffer.from('{"sku":"A"}').toString('base64url')]) {
      const refused = await sandbox.call('GET', `/api/sima/results?cursor=${cursor}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'cursor' } });
    }
  });
});

describe('GET /api/sima/summary', () => {
  it('equals the counts and the exposure sum over the results list under the same filter', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screenedWithEveryWorkflow(sandbox);
    for (const query of ['', 'outcome=AT_RISK', 'workflow=OPEN', 'workflow_not=ACCEPTED', 'outcome=NEEDS_REVIEW&workflow_not=DISMISSED']) {
      const items = await listAll(sandbox, query);
      const summary = await sandbox.call('GET', `/api/sima/summary${query ? `?${query}` : ''}`);
      expect(summary.status).toBe(200);
      const exposure = items.reduce((sum, i) => sum + (i.exposureAnnual ?? 0), 0);
      expect(summary.body, query || 'no filter').toEqual({
        totalSkus: items.length,
        atRisk: items.filter((i) => i.outcome === 'AT_RISK').length,
        needsReview: items.filter((i) => i.outcome === 'NEEDS_REVIEW').length,
        totalExposure: Math.round(exposure * 100) / 100,
      });
    }
    expect((await sandbox.call('GET', '/api/sima/summary')).body.atRisk).toBeGreaterThan(0);
  });
});

describe('exposure', () => {
  it('is null for a CLEARED SKU and annual value x combined rate / 100 for an AT_RISK one', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: null });
    const all = await listAll(sandbox);
    const cleared = all.filter((i) => i.outcome === 'CLEARED');
    const atRisk = all.filter((i) => i.outcome === 'AT_RISK' && i.combinedRate !== null);
    expect(cleared.length).toBeGreaterThan(0);
    expect(atRisk.length).toBeGreaterThan(0);
    for (const item of cleared) expect(item.exposureAnnual, item.sku).toBeNull();
    for (const item of atRisk) {
      const value = SAMPLE_CATALOG.find((c) => c.sku === item.sku)!.annualImportValue!;
      expect(item.exposureAnnual, item.sku).toBe(Math.round(((value * item.combinedRate!) / 100) * 100) / 100);
    }
    expect(all.find((i) => i.sku === 'UDS-SOFABED-GRY-3S')).toMatchObject({ outcome: 'AT_RISK', combinedRate: 188, exposureAnnual: 84600 });
  });
});
