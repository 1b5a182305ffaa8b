// The advanced trade path over HTTP (spec 4.6; sandbox-defined shapes): classify, batch, reviews and apply,
// every response checked against the contract by the test client.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS, until } from '../jobs/jobs.testing.js';
import { otherTenant, screen } from '../sima/sima-results.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const CONFIDENT = { description: "Men's crew-neck T-shirt, knitted jersey, 100% cotton", productName: 'Classic crew tee', sku: 'TS-CTN-0412-BLK', originCountry: 'CN', destinationCountry: 'US' };
const AMBIGUOUS = { description: 'Upholstered lounge chair', sku: 'UDS-LNG-3301-GRY', originCountry: 'VN', destinationCountry: 'CA' };

const classify = (s: TestSandbox, body: unknown, token?: string) => s.call('POST', '/api/trade/classify', { body, ...(token ? { token } : {}) });
const decide = (s: TestSandbox, reviewId: string, body: unknown) => s.call('POST', `/api/trade/classify/reviews/${reviewId}/decision`, { body });
const apply = (s: TestSandbox, body: unknown) => s.call('POST', '/api/trade/classify/apply', { body });

/** Moves the sandbox clock until the job is COMPLETED; answers GET /api/jobs/{id}. */
async function finish(s: TestSandbox, jobId: string) {
  const status = async () => (await s.sim.domains.jobs.get(s.identity.tenantId, jobId))?.status;
  await s.admin('POST', '/_sim/clock/advance', { seconds: SLOW_JOBS.jobStartDelayMs / 1000 });
  await until(async () => (await status()) !== 'PENDING', 'the job to start');
  await s.admin('POST', '/_sim/clock/advance', { seconds: SLOW_JOBS.jobProcessingMs / 1000 });
  await until(async () => (await status()) === 'COMPLETED', 'the job to complete');
  return s.call('GET', `/api/jobs/${jobId}`);
}

describe('POST /api/trade/classify', () => {
  it('answers a confident classification without a review', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const res = await classify(sandbox, CONFIDENT);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hsCode: '6109.10', requiresReview: false, reviewId: null });
    expect(res.body.confidence).toBeGreaterThanOrEqual(0.8);
    expect(res.body.candidates[0]).toMatchObject({ hsCode: '6109.10', confidence: res.body.confidence });
  });

  it('opens a PENDING review for a low-confidence classification, readable and listed', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const res = await classify(sandbox, AMBIGUOUS);
    expect(res.body).toMatchObject({ hsCode: '9401.61', requiresReview: true });
    const review = await sandbox.call('GET', `/api/trade/classify/reviews/${res.body.reviewId}`);
    expect(review.body).toMatchObject({ status: 'PENDING', classificationId: res.body.classificationId, sku: AMBIGUOUS.sku, suggestedHsCode: '9401.61', finalHsCode: null, decidedAt: null, candidates: res.body.candidates });
    const listed = await sandbox.call('GET', '/api/trade/classify/reviews?status=PENDING');
    expect(listed.body).toMatchObject({ total: 1, limit: 50, offset: 0, hasMore: false });
    expect(listed.body.reviews[0].reviewId).toBe(res.body.reviewId);
  });

  it('answers an empty hsCode, no candidates and a review for a description no rule knows', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const res = await classify(sandbox, { description: 'Ceramic flower vase' });
    expect(res.body).toMatchObject({ hsCode: '', confidence: 0, candidates: [], requiresReview: true });
    const approve = await decide(sandbox, res.body.reviewId, { decision: 'approve' });
    expect(approve.status).toBe(409);
    const override = await decide(sandbox, res.body.reviewId, { decision: 'override', hsCode: '6913.90' });
    expect(override.body).toMatchObject({ status: 'OVERRIDDEN', finalHsCode: '6913.90' });
  });

  it('refuses a body without a description with 400 naming it', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const res = await classify(sandbox, { productName: 'tee' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_REQUEST');
  });
});

describe('the classification reviews', () => {
  it('approve, reject and override a PENDING review; a decided one is 409 ACTION_NOT_ALLOWED naming its state', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await classify(sandbox, AMBIGUOUS)).body.reviewId as string);
    const approved = await decide(sandbox, ids[0], { decision: 'approve', note: 'frame is beech' });
    expect(approved.body).toMatchObject({ status: 'APPROVED', finalHsCode: '9401.61', note: 'frame is beech' });
    expect(approved.body.decidedAt).toEqual(expect.any(String));
    expect((await decide(sandbox, ids[1], { decision: 'reject' })).body).toMatchObject({ status: 'REJECTED', finalHsCode: null });
    expect((await decide(sandbox, ids[2], { decision: 'override', hsCode: '9401.71.10' })).body).toMatchObject({ status: 'OVERRIDDEN', finalHsCode: '9401.71.10' });
    for (const id of ids) {
      const again = await decide(sandbox, id, { decision: 'reject' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { action: 'decision' } });
    }
    expect((await sandbox.call('GET', `/api/trade/classify/reviews/${ids[0]}`)).body.status).toBe('APPROVED');
  });

  it('refuses an override without hsCode with 400, and answers 404 for an unknown or another tenant review', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { reviewId } = (await classify(sandbox, AMBIGUOUS)).body;
    expect((await decide(sandbox, reviewId, { decision: 'override' })).status).toBe(400);
    const other = await otherTenant(sandbox);
    expect((await sandbox.call('GET', `/api/trade/classify/reviews/${reviewId}`, { token: other.token })).status).toBe(404);
    expect((await sandbox.call('GET', '/api/trade/classify/reviews/5d8e1f2a-3b4c-4d5e-9f6a-7b8c9d0e1f2a')).status).toBe(404);
    expect((await sandbox.call('GET', '/api/trade/classify/reviews', { token: other.token })).body.total).toBe(0);
  });

  it('lists newest first, filters by status and pages with limit and offset', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await classify(sandbox, { ...AMBIGUOUS, sku: `SEAT-${i}` })).body.reviewId as string);
    await decide(sandbox, ids[1], { decision: 'approve' });
    const all = await sandbox.call('GET', '/api/trade/classify/reviews?limit=2');
    expect(all.body).toMatchObject({ total: 3, limit: 2, offset: 0, hasMore: true });
    expect(all.body.reviews.map((r: { reviewId: string }) => r.reviewId)).toEqual([ids[2], ids[1]]);
    const rest = await sandbox.call('GET', '/api/trade/classify/reviews?limit=2&offset=2');
    expect(rest.body.reviews.map((r: { reviewId: string }) => r.reviewId)).toEqual([ids[0]]);
    const pending = await sandbox.call('GET', '/api/trade/classify/reviews?status=PENDING');
    expect(pending.body.reviews.map((r: { reviewId: string }) => r.reviewId)).toEqual([ids[2], ids[0]]);
  });
});

describe('POST /api/trade/classify/apply', () => {
  it('writes a confident classification to the SKU, and SIMA screening reads the new code', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { classificationId } = (await classify(sandbox, { description: 'Upholstered armchair, solid oak frame, linen cover' })).body;
    const applied = await apply(sandbox, { classificationId, sku: 'UDS-ARMCHAIR-BGE' });
    expect(applied.body).toMatchObject({ sku: 'UDS-ARMCHAIR-BGE', hsCode: '9401.61' });
    const item = await sandbox.sim.domains.sima.catalog.get(sandbox.identity.tenantId, 'UDS-ARMCHAIR-BGE');
    expect(item).toMatchObject({ hsCode: '9401.61', productName: 'Metal-frame armchair, beige upholstery' });
    await screen(sandbox, { skus: ['UDS-ARMCHAIR-BGE'] });
    const results = await sandbox.call('GET', '/api/sima/results?limit=1000');
    expect(results.body.outcomes.find((r: { sku: string }) => r.sku === 'UDS-ARMCHAIR-BGE')).toMatchObject({ currentHs: '9401.61' });
  });

  it('creates a SKU new to the catalog with the product name and origin of the classification', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { classificationId } = (await classify(sandbox, CONFIDENT)).body;
    expect((await apply(sandbox, { classificationId, sku: 'TS-NEW-1' })).status).toBe(200);
    expect(await sandbox.sim.domains.sima.catalog.get(sandbox.identity.tenantId, 'TS-NEW-1')).toMatchObject({ hsCode: '6109.10', productName: 'Classic crew tee', countryOfOrigin: 'CN' });
  });

  it('refuses a classification that requires review, and a PENDING or REJECTED review, with 409; applies an approved or overridden one', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const first = (await classify(sandbox, AMBIGUOUS)).body;
    const pendingByClassification = await apply(sandbox, { classificationId: first.classificationId, sku: 'S-1' });
    expect([pendingByClassification.status, pendingByClassification.body.details?.currentState]).toEqual([409, 'PENDING']);
    const pendingByReview = await apply(sandbox, { reviewId: first.reviewId, sku: 'S-1' });
    expect(pendingByReview.status).toBe(409);
    await decide(sandbox, first.reviewId, { decision: 'override', hsCode: '9401.71.10' });
    expect((await apply(sandbox, { reviewId: first.reviewId, sku: 'S-1' })).body.hsCode).toBe('9401.71.10');
    expect((await apply(sandbox, { classificationId: first.classificationId, sku: 'S-1' })).body.hsCode).toBe('9401.71.10');
    const second = (await classify(sandbox, AMBIGUOUS)).body;
    await decide(sandbox, second.reviewId, { decision: 'reject' });
    const rejected = await apply(sandbox, { reviewId: second.reviewId, sku: 'S-2' });
    expect([rejected.status, rejected.body.details?.currentState]).toEqual([409, 'REJECTED']);
  });

  it('answers 404 for an unknown classification and 400 for both ids or neither', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    expect((await apply(sandbox, { classificationId: '0e4f6a8c-2b4d-4f6a-9c1e-3a5c7e9b1d3f', sku: 'X' })).status).toBe(404);
    expect((await apply(sandbox, { sku: 'X' })).status).toBe(400);
    expect((await apply(sandbox, { sku: 'X', classificationId: '0e4f6a8c-2b4d-4f6a-9c1e-3a5c7e9b1d3f', reviewId: '5d8e1f2a-3b4c-4d5e-9f6a-7b8c9d0e1f2a' })).status).toBe(400);
  });
});

describe('POST /api/trade/classify/batch', () => {
  it('runs a catalog_upload job whose result lists every item, counts its reviews and opens them', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const accepted = await sandbox.call('POST', '/api/trade/classify/batch', { body: { items: [CONFIDENT, AMBIGUOUS, { description: 'Ceramic flower vase', sku: 'VASE-1' }] } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'PENDING', message: 'classification batch accepted (3 items)', replayed: false });
    const job = await finish(sandbox, accepted.body.jobId);
    expect(job.body).toMatchObject({ type: 'catalog_upload', status: 'COMPLETED', progress: 100, reconciliation: { rowsUploaded: 3, skusFound: 3 } });
    const result = job.body.result;
    expect(result).toMatchObject({ kind: 'classification_batch', itemsClassified: 3, confident: 1, requiresReview: 2, reviewThreshold: 0.8 });
    expect(result.items.map((i: { hsCode: string; requiresReview: boolean }) => [i.hsCode, i.requiresReview])).toEqual([['6109.10', false], ['9401.61', true], ['', true]]);
    const reviews = await sandbox.call('GET', '/api/trade/classify/reviews?status=PENDING');
    expect(reviews.body.total).toBe(2);
    expect((await apply(sandbox, { classificationId: result.items[0].classificationId, sku: 'TS-CTN-0412-BLK' })).status).toBe(200);
  });

  it('refuses an empty batch and one over 100 items with 400', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    expect((await sandbox.call('POST', '/api/trade/classify/batch', { body: { items: [] } })).status).toBe(400);
    expect((await sandbox.call('POST', '/api/trade/classify/batch', { body: { items: Array.from({ length: 101 }, () => CONFIDENT) } })).status).toBe(400);
  });
});
