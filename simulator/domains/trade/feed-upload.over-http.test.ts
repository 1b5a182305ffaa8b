// POST /api/trade/feeds/upload and the session reads over HTTP (spec 4.4, 7, 8): what is refused at the
// door (400 naming the field, 415), idempotent replays, a file normalization cannot read (FAILED with its
// reason), tenant isolation (404), pages, apply's row checks and the classify-preview in-flight limit.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { otherTenant } from '../sima/sima-results.testing.js';
import { csv } from '../sima/upload.testing.js';
import { DEFAULTS, finishJob, issuesOf, normalizedFeed, sampleFeed, sessionOf, skusOf, uploadFeed } from './trade.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('POST /api/trade/feeds/upload', () => {
  it('creates the session and its normalization job before answering 202', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { file, fileName } = sampleFeed('feed-clean');
    const accepted = await uploadFeed(sandbox, file, fileName);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ sessionId: expect.any(String), jobId: expect.any(String), status: 'UPLOADED', fileName: 'feed-clean.csv', replayed: false });
    expect(await sessionOf(sandbox, accepted.body.sessionId)).toMatchObject({ status: 'UPLOADED', jobId: accepted.body.jobId, originCountry: 'CN', defaultDestinationCountry: 'CA', normalizationProgress: 0 });
    expect((await sandbox.call('GET', `/api/jobs/${accepted.body.jobId}`)).body).toMatchObject({ type: 'catalog_upload', status: 'PENDING', fileName: 'feed-clean.csv' });
  });

  it('refuses a country code that is not ISO 3166-1 alpha-2, or a missing default, with 400 naming the field', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { file, fileName } = sampleFeed('feed-clean');
    const unknown = await uploadFeed(sandbox, file, fileName, { originCountry: 'XX', defaultDestinationCountry: 'CA' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'originCountry' } });
    const reserved = await uploadFeed(sandbox, file, fileName, { originCountry: 'CN', defaultDestinationCountry: 'EU' });
    expect(reserved.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'defaultDestinationCountry' } });
    const missing = await uploadFeed(sandbox, file, fileName, { originCountry: 'CN' });
    expect(missing.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'defaultDestinationCountry' } });
    const noFile = await uploadFeed(sandbox, null, fileName);
    expect(noFile.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'file' } });
  });

  it('refuses a file type it does not read with 415', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const refused = await uploadFeed(sandbox, Buffer.from('sku\nA\n'), 'feed.txt');
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ code: 'INVALID_FILE_FORMAT', details: { field: 'file' } });
  });

  it('replays the same session for the same Idempotency-Key and payload, and refuses another payload with 409', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { file, fileName } = sampleFeed('feed-clean');
    const key = { 'Idempotency-Key': 'feed-2026-11-24-apparel' };
    const first = await uploadFeed(sandbox, file, fileName, DEFAULTS, key);
    const replay = await uploadFeed(sandbox, file, fileName, DEFAULTS, key);
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ sessionId: first.body.sessionId, jobId: first.body.jobId, replayed: true });
    const other = await uploadFeed(sandbox, file, fileName, { ...DEFAULTS, defaultDestinationCountry: 'US' }, key);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('ACTION_NOT_ALLOWED');
    const fresh = await uploadFeed(sandbox, file, fileName);
    expect(fresh.body.sessionId).not.toBe(first.body.sessionId);
  });
});

describe('normalization', () => {
  it('fails a session whose file has no SKU column: FAILED, the reason on the session and as an issue, the job FAILED', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const accepted = await uploadFeed(sandbox, csv('item,description', 'A-1,Cotton tee'), 'no-sku.csv');
    const job = await finishJob(sandbox, accepted.body.jobId);
    expect(job).toMatchObject({ status: 'FAILED', error: expect.stringContaining('no SKU column') });
    const session = await sessionOf(sandbox, accepted.body.sessionId);
    expect(session).toMatchObject({ status: 'FAILED', applyable: false, failureReason: expect.stringContaining('no SKU column'), blockingIssueCount: 1 });
    expect((await issuesOf(sandbox, accepted.body.sessionId)).issues).toEqual([expect.objectContaining({ issueType: 'file_unreadable', isBlocking: true, issueKey: 'file_unreadable:file' })]);
  });

  it('fails an empty file and a header without rows, each saying so', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    for (const [content, reason] of [[csv(), 'no rows with content'], [csv('sku,productName'), 'no data rows']] as const) {
      const accepted = await uploadFeed(sandbox, content, 'feed.csv');
      await finishJob(sandbox, accepted.body.jobId);
      expect((await sessionOf(sandbox, accepted.body.sessionId)).failureReason).toContain(reason);
    }
  });

  it('pages SKUs and issues with limit and offset, totals unchanged across pages', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-clean');
    const first = await skusOf(sandbox, sessionId, 'limit=2&offset=0');
    const last = await skusOf(sandbox, sessionId, 'limit=2&offset=4');
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(last).toMatchObject({ total: 5, limit: 2, offset: 4, hasMore: false });
    expect([...first.skus, ...(await skusOf(sandbox, sessionId, 'limit=2&offset=2')).skus, ...last.skus].map((s: { sku: string }) => s.sku)).toEqual((await skusOf(sandbox, sessionId)).skus.map((s: { sku: string }) => s.sku));
    const blocked = await normalizedFeed(sandbox, 'feed-blocking');
    const page = await issuesOf(sandbox, blocked.sessionId, 'limit=2&offset=2');
    expect(page).toMatchObject({ total: 5, offset: 2, hasMore: true });
    expect(page.issues.map((i: { issueType: string }) => i.issueType)).toEqual(['duplicate_sku', 'invalid_hs_code']);
    expect((await sandbox.call('GET', `/api/trade/feeds/${sessionId}/skus?limit=501`)).status).toBe(400);
  });
});

describe('tenants and apply rows', () => {
  it("answers 404 for another tenant's session, its SKUs, issues, preview and apply", async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-clean');
    const other = await otherTenant(sandbox);
    for (const [method, path, body] of [
      ['GET', `/api/trade/feeds/${sessionId}`],
      ['GET', `/api/trade/feeds/${sessionId}/skus`],
      ['GET', `/api/trade/feeds/${sessionId}/issues`],
      ['POST', `/api/trade/feeds/${sessionId}/classify-preview`, {}],
      ['POST', `/api/trade/feeds/${sessionId}/apply`, { rows: [{ sku: 'TS-CTN-0412-BLK', name: 'Tee', hsCode: '6109.10' }], originCountry: 'CN', screeningAuthority: 'CA' }],
    ] as const) {
      const answer = await sandbox.call(method, path, { token: other.token, ...(body ? { body } : {}) });
      expect([path, answer.status, answer.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });

  it('refuses an apply row with a field other than the five of ApplyRow, or a SKU not in the session, with 400 naming it', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-clean');
    const extra = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/apply`, { body: { rows: [{ sku: 'TS-CTN-0412-BLK', name: 'Tee', hsCode: '6109.10', brand: 'Northwind' }], originCountry: 'CN', screeningAuthority: 'CA' } });
    expect(extra.status).toBe(400);
    expect(extra.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'rows[0].brand' } });
    const stranger = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/apply`, { body: { rows: [{ sku: 'NOT-IN-FEED', name: 'Tee', hsCode: '6109.10' }], originCountry: 'CN', screeningAuthority: 'CA' } });
    expect(stranger.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'rows[0].sku' } });
    expect((await sessionOf(sandbox, sessionId)).status).toBe('READY');
  });

  it('answers 429 preview_inflight past the per-tenant in-flight classify-preview limit, with retry details', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const sessions = [await normalizedFeed(sandbox, 'feed-clean'), await normalizedFeed(sandbox, 'feed-clean'), await normalizedFeed(sandbox, 'feed-clean')];
    const answers = [];
    for (const { sessionId } of sessions) answers.push(await sandbox.call('POST', `/api/trade/feeds/${sessionId}/classify-preview`, { body: {} }));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 429]);
    expect(answers[2].body).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'preview_inflight', limit: 2, windowMs: 0, retryAfterSeconds: expect.any(Number) } });
    expect(answers[2].headers['retry-after']).toEqual(expect.any(String));
  });
});
