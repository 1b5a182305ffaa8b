// The sandbox's test values (simulator/TEST-VALUES.md): each listed by GET /_sim/test-values and shown to
// have the effect it documents.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { SLOW_JOBS } from '../domains/jobs/jobs.testing.js';
import { DATA, quoteOn, request } from '../domains/landed-cost/landed-cost.testing.js';
import { UNSUPPORTED_DUTY_CODES } from '../domains/landed-cost/landed-cost.trigger-values.js';
import { allFindings, auditSamples } from '../domains/ship/ship.testing.js';
import { screenItem } from '../domains/sima/screening.js';
import { FAILING_SKU_PREFIX } from '../domains/sima/sima.trigger-values.js';
import { countryRule, duplicateRule, headerIssues, hsRule, productNameRule, skuRule } from '../domains/trade/feed-normalize.rules.js';
import { FEED_ISSUE_VALUES } from '../domains/trade/trade.trigger-values.js';
import { completedJob, enqueue, storedStatus, waitFor } from './defects.testing.js';
import { TEST_VALUES } from './test-values.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('the test values', () => {
  it('are listed by GET /_sim/test-values and in TEST-VALUES.md, each with a test that exists', async () => {
    sandbox = await startTestSandbox();
    const listed = (await sandbox.admin('GET', '/_sim/test-values')).body.items as Array<{ id: string }>;
    expect(listed.map((v) => v.id)).toEqual(TEST_VALUES.map((v) => v.id));
    expect(new Set(listed.map((v) => v.id)).size).toBe(listed.length);
    const doc = readFileSync('simulator/TEST-VALUES.md', 'utf8');
    for (const value of TEST_VALUES) {
      expect(existsSync(value.test), value.test).toBe(true);
      expect(doc, `TEST-VALUES.md lists ${value.id}`).toContain(`\`${value.id}\``);
    }
  });

  it(`sima: a screening job asked for a SKU starting ${FAILING_SKU_PREFIX} ends FAILED naming it; others complete`, async () => {
    sandbox = await startTestSandbox();
    const jobId = (await enqueue(sandbox, { skus: ['UDS-CHAIR-01', `${FAILING_SKU_PREFIX}001`] })).body.jobId as string;
    await waitFor(async () => (await storedStatus(sandbox!, jobId)) === 'FAILED', 'the job FAILED');
    expect((await sandbox.call('GET', `/api/jobs/${jobId}`)).body.error).toContain(`${FAILING_SKU_PREFIX}001`);
    await completedJob(sandbox);
  });

  it('sima: a blank HS code, or an in-scope HS code without origin, always needs review', () => {
    const item = { sku: 'ANY', hsCode: null, countryOfOrigin: 'CN', materialType: 'steel', annualImportValue: 1000, currency: 'CAD' };
    for (const origin of ['CN', 'VN', 'US', null]) expect(screenItem({ ...item, countryOfOrigin: origin }, 'CA').outcome).toBe('NEEDS_REVIEW');
    expect(screenItem({ ...item, hsCode: '7214.20.00', countryOfOrigin: null }, 'CA')).toMatchObject({ outcome: 'NEEDS_REVIEW', missingAttributes: ['countryOfOrigin'] });
  });

  it('ship: carrier SIMTEST-MANUAL is manual_import_only (409 carrier_blocked) unless the tenant sets its own policy', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await auditSamples(sandbox);
    const [finding] = await allFindings(sandbox);
    const claim = () => sandbox!.call('POST', '/api/ship/claims/submissions', { unchecked: true, body: { carrier: 'SIMTEST-MANUAL', findingIds: [finding.id] } });
    const blocked = await claim();
    expect([blocked.status, blocked.body.details?.subcode, blocked.body.details?.policy]).toEqual([409, 'carrier_blocked', 'manual_import_only']);
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { carrierPolicies: { 'SIMTEST-MANUAL': { policy: 'api' } } });
    expect((await claim()).body.details?.subcode).not.toBe('carrier_blocked');
  });

  it('trade: each listed feed cell raises its issue type, blocking as documented', () => {
    const defaults = { originCountry: 'CN', defaultDestinationCountry: 'US', hasDestinationColumn: true, countries: new Set(['CN', 'US', 'DE']) };
    const raised = (issueType: string) => {
      const value = FEED_ISSUE_VALUES.find((v) => v.issueType === issueType)!;
      const cell = value.cell;
      if (issueType === 'duplicate_row') return [duplicateRule('SKU-1', 3, { line: 2, fingerprint: 'f' }, 'f')];
      if (issueType === 'duplicate_sku') return [duplicateRule('SKU-1', 3, { line: 2, fingerprint: 'f' }, 'g')];
      if (issueType === 'unnamed_column') return headerIssues(['sku', ''], ['sku', '']);
      if (issueType === 'duplicate_column') return headerIssues(['sku', 'sku'], ['sku', 'SKU']);
      if (value.column === 'sku') return skuRule(cell, 2).issues;
      if (value.column === 'productName') return productNameRule(cell, 2).issues;
      if (value.column === 'hsCode') return hsRule(cell, 2).issues;
      return countryRule(value.column as 'originCountry' | 'destinationCountry', cell, 2, defaults).issues;
    };
    for (const value of FEED_ISSUE_VALUES) {
      expect(raised(value.issueType).map((i) => [i.issueType, i.isBlocking]), value.issueType).toEqual([[value.issueType, value.blocking]]);
    }
  });

  it('landed cost: the listed HS codes answer rate_not_available with unsupportedExpression true', () => {
    for (const code of UNSUPPORTED_DUTY_CODES) {
      const result = quoteOn('2026-11-20', request({ productValue: 1000, hsCode: code.hsCode, originCountry: 'US', destinationCountry: code.destination }), { data: DATA });
      expect(result, `${code.hsCode} to ${code.destination}`).toMatchObject({ status: 'rate_not_available', metadata: { unsupportedExpression: true } });
    }
  });
});
