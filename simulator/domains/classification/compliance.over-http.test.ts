// POST /api/compliance/check over HTTP (spec 2.10, 4.6), contract-checked: the gates of compliance.ts, and a
// SKU's PENDING classification review holding quoteability until it is decided.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const check = (s: TestSandbox, body: unknown) => s.call('POST', '/api/compliance/check', { body });

describe('POST /api/compliance/check', () => {
  it('is quoteable for a known product and corridor, and not with an unknown origin', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const quoteable = await check(sandbox, { hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US', productValue: 1200, currency: 'USD' });
    expect(quoteable.body).toMatchObject({ quoteReadiness: 'quoteable', blockers: [] });
    const unknown = await check(sandbox, { hsCode: '6109.10', originCountry: 'ZZ', destinationCountry: 'US' });
    expect(unknown.body.quoteReadiness).toBe('not_quoteable');
    expect(unknown.body.blockers).toEqual([expect.objectContaining({ code: 'origin_unknown' })]);
  });

  it('needs review for seating under the UDS measure, VN to CA (the contract example)', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const res = await check(sandbox, { sku: 'UDS-LNG-3301-GRY', hsCode: '9401.61.10', originCountry: 'VN', destinationCountry: 'CA', productValue: 4200, currency: 'CAD' });
    expect(res.body.quoteReadiness).toBe('needs_review');
    expect(res.body.blockers.map((b: { code: string }) => b.code)).toEqual(['trade_remedy_review']);
  });

  it('holds a SKU with a PENDING classification review at needs_review until the review is decided', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const classified = await sandbox.call('POST', '/api/trade/classify', { body: { description: 'Knitted T-shirt', sku: 'TS-AMB-1' } });
    expect(classified.body.requiresReview).toBe(true);
    const body = { sku: 'TS-AMB-1', hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US' };
    expect((await check(sandbox, body)).body.blockers.map((b: { code: string }) => b.code)).toEqual(['classification_review_pending']);
    await sandbox.call('POST', `/api/trade/classify/reviews/${classified.body.reviewId}/decision`, { body: { decision: 'approve' } });
    expect((await check(sandbox, body)).body.quoteReadiness).toBe('quoteable');
  });

  it('is not quoteable for a malformed code, and refuses a lower-case country with 400', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    expect((await check(sandbox, { hsCode: 'abc', originCountry: 'CN', destinationCountry: 'US' })).body.quoteReadiness).toBe('not_quoteable');
    expect((await check(sandbox, { hsCode: '6109.10', originCountry: 'cn', destinationCountry: 'US' })).status).toBe(400);
  });
});
