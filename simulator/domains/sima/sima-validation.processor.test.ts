import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contracts/lib/bundle.js';
import { createContractSchemas } from '../../../contracts/lib/schemas.js';
import { SAMPLE_CATALOG } from '#fixtures/catalog/sample-catalog.js';
import { SIMA_MEASURES_VERSION } from '#fixtures/catalog/sima-measures.js';
import { toSimaResultItem } from './sima-result.store.js';
import { simaSetup } from './sima.testing.js';

const schemas = createContractSchemas(loadContract('v1.3.0'));

describe('the sima_validation job', () => {
  it('screens the whole sample catalog under CA and reports outcomes and reconciliation that add up', async () => {
    const { runBatch, jobs } = await simaSetup();
    const job = await runBatch({ skus: null });
    expect(job.status).toBe('COMPLETED');
    expect(job.outcomes).toEqual({ atRisk: 9, needsReview: 3, cleared: 13, falsePositive: 0 });
    expect(job.reconciliation).toEqual({ rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: 25, skusScreened: 25, skusNotApplicable: 0 });
    expect(job.result).toMatchObject({ screeningAuthority: 'CA', runPolicy: 'always', simaConfigVersion: SIMA_MEASURES_VERSION, skusScreened: 25 });
    expect(job.warnings).toBeNull();
    expect(schemas.component('Job')(jobs.toResponse(job))).toBe(true);
  });

  it('screens chosen SKUs under US: AT_RISK nails, NEEDS_REVIEW nails without origin, CLEARED seating', async () => {
    const { runBatch, results, tenantId } = await simaSetup();
    const job = await runBatch({ skus: ['NAIL-CL-16D-50LB', 'NAIL-RF-11GA-COIL', 'UDS-SOFABED-GRY-3S'], screeningAuthority: ' us ' });
    expect(job.outcomes).toEqual({ atRisk: 1, needsReview: 1, cleared: 1, falsePositive: 0 });
    expect(await results.current(tenantId, 'NAIL-CL-16D-50LB')).toMatchObject({ outcome: 'AT_RISK', caseNumber: 'A-570-909', exposureAnnual: 14755, screeningAuthority: 'US' });
    expect(await results.current(tenantId, 'NAIL-RF-11GA-COIL')).toMatchObject({ outcome: 'NEEDS_REVIEW', missingAttributes: ['countryOfOrigin'], workflowStatus: 'OPEN' });
    expect(await results.current(tenantId, 'UDS-SOFABED-GRY-3S')).toMatchObject({ outcome: 'CLEARED', workflowStatus: null });
  });

  it('stores result items shaped as the contract\'s SimaResult, with cuid ids', async () => {
    const { runBatch, results, tenantId } = await simaSetup();
    await runBatch({ skus: ['UDS-ACCENT-CHR-TEAL', 'UDS-ARMCHAIR-BGE', 'TEE-CTN-BLK-M'] });
    const validate = schemas.component('SimaResult');
    const current = await results.currentForTenant(tenantId);
    expect(current).toHaveLength(3);
    for (const record of current) {
      const item = toSimaResultItem(record);
      expect(validate(item), JSON.stringify(validate.errors)).toBe(true);
      expect(item.id).toMatch(/^c[a-z0-9]{24}$/);
      expect(Object.keys(item)).not.toContain('tenantId');
    }
    expect(new Set(current.map((r) => r.id)).size).toBe(3);
    const chair = (await results.current(tenantId, 'UDS-ACCENT-CHR-TEAL'))!;
    expect(chair).toMatchObject({ outcome: 'AT_RISK', status: 'AT_RISK', workflowStatus: 'OPEN', measureCode: 'UDS', caseNumber: 'UDS 2020 IN', exposureAnnual: 33840, isStale: false });
    const armchair = (await results.current(tenantId, 'UDS-ARMCHAIR-BGE'))!;
    expect(armchair.needsReviewSince).toBe(armchair.analysisDate);
  });

  it('counts unknown SKUs as not applicable and names them in the result', async () => {
    const { runBatch } = await simaSetup();
    const job = await runBatch({ skus: ['UDS-SOFABED-GRY-3S', 'NO-SUCH-SKU', 'UDS-SOFABED-GRY-3S'] });
    expect(job.reconciliation).toMatchObject({ skusFound: 1, skusScreened: 1, skusNotApplicable: 1 });
    expect(job.result).toMatchObject({ skusRequested: 2, unknownSkus: ['NO-SUCH-SKU'] });
    expect(job.warnings).toEqual({ unknownSkus: 1 });
    expect(job.outcomes.atRisk).toBe(1);
  });

  it('skips SKUs already screened with identical inputs under skip_exact_duplicates, and counts them', async () => {
    const { runBatch, results, tenantId } = await simaSetup();
    await runBatch({ skus: ['UDS-SOFABED-GRY-3S', 'TEE-CTN-BLK-M'] });
    const first = (await results.current(tenantId, 'UDS-SOFABED-GRY-3S'))!;
    const job = await runBatch({ skus: ['UDS-SOFABED-GRY-3S', 'TEE-CTN-BLK-M', 'RBR-15M-12M-BDL'], runPolicy: 'skip_exact_duplicates' });
    expect(job.reconciliation).toMatchObject({ rowsDeduplicated: 2, skusFound: 3, skusScreened: 1 });
    expect(job.outcomes).toEqual({ atRisk: 0, needsReview: 1, cleared: 0, falsePositive: 0 });
    expect((await results.current(tenantId, 'UDS-SOFABED-GRY-3S'))!.id).toBe(first.id);
    // Another authority is another input: screened again, not skipped.
    const us = await runBatch({ skus: ['UDS-SOFABED-GRY-3S'], runPolicy: 'skip_exact_duplicates', screeningAuthority: 'US' });
    expect(us.reconciliation).toMatchObject({ rowsDeduplicated: 0, skusScreened: 1 });
  });

  it('re-screens under always and keeps the earlier result as history', async () => {
    const { runBatch, results, tenantId } = await simaSetup();
    await runBatch({ skus: ['UDS-ARMCHAIR-BGE'] });
    const first = (await results.current(tenantId, 'UDS-ARMCHAIR-BGE'))!;
    const job = await runBatch({ skus: ['UDS-ARMCHAIR-BGE'], runPolicy: 'always' });
    expect(job.reconciliation.skusScreened).toBe(1);
    const second = (await results.current(tenantId, 'UDS-ARMCHAIR-BGE'))!;
    expect(second.id).not.toBe(first.id);
    expect(second.needsReviewSince).toBe(first.needsReviewSince); // still waiting for review since the first time
    expect((await results.history(tenantId, 'UDS-ARMCHAIR-BGE')).map((r) => [r.id, r.supersededAt === null])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
  });

  it('seeds every tenant with the same sample catalog, separately', async () => {
    const { runBatch, tenants, results } = await simaSetup();
    const a = (await tenants.create()).id;
    const b = (await tenants.create()).id;
    const jobA = await runBatch({ skus: null }, a);
    const jobB = await runBatch({ skus: ['LAPTOP-14-AL'] }, b);
    expect(jobA.reconciliation.skusFound).toBe(SAMPLE_CATALOG.length);
    expect(jobB.reconciliation.skusFound).toBe(1);
    expect(await results.currentForTenant(a)).toHaveLength(SAMPLE_CATALOG.length);
    expect((await results.currentForTenant(b)).map((r) => r.sku)).toEqual(['LAPTOP-14-AL']);
  });
});
