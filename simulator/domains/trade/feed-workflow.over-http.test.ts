// Workflow B over HTTP (spec 3.2, 4.4): upload, normalize, then either the direct-apply shortcut or
// classify-preview -> review -> apply, with the applied rows screened by SIMA afterwards (workflow A).
// Every response is checked against the contract by the test client.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { acknowledge, directRows, finishJob, issuesOf, normalizedFeed, sessionOf, skusOf } from './trade.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const apply = (sessionId: string, body: unknown) => sandbox!.call('POST', `/api/trade/feeds/${sessionId}/apply`, { body });
const preview = (sessionId: string) => sandbox!.call('POST', `/api/trade/feeds/${sessionId}/classify-preview`, { body: {} });
const review = (jobId: string, body: unknown) => sandbox!.call('PUT', `/api/trade/classify/preview/${jobId}/review`, { body });

describe('workflow B: the direct-apply shortcut', () => {
  it('normalizes a feed whose SKUs all carry providedHs to PREVIEW_BLOCKED, applyable, with no issues; applies it and screens the applied SKUs', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId, session, job } = await normalizedFeed(sandbox, 'feed-direct-apply');
    expect(session).toMatchObject({ status: 'PREVIEW_BLOCKED', applyable: true, issueCount: 0, blockingIssueCount: 0, skuCount: 3, normalizationProgress: 100, failureReason: null });
    expect(job).toMatchObject({ type: 'catalog_upload', status: 'COMPLETED', reconciliation: { rowsUploaded: 3, rowsSkipped: 0, skusFound: 3 } });
    const skus = (await skusOf(sandbox, sessionId)).skus;
    expect(skus.map((s: { sku: string }) => s.sku)).toEqual(['TS-CTN-0413-WHT', 'UDS-SOFA-2201-BLU', 'SHO-RUN-0042-BLK']);

    const applied = await apply(sessionId, { rows: directRows(skus), originCountry: 'CN', screeningAuthority: 'CA' });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ sessionId, status: 'APPLIED', applyable: false });
    expect(applied.body.appliedAt).toEqual(expect.any(String));

    // The applied rows are the catalog SIMA screens: the sofa (9401.61.10, CN) is under UDS for Canada.
    const screening = await finishJob(sandbox, applied.body.screeningJobId);
    expect(screening).toMatchObject({ type: 'sima_validation', status: 'COMPLETED', reconciliation: { skusFound: 3, skusScreened: 3 } });
    const results = (await sandbox.call('GET', '/api/sima/results?limit=1000')).body.outcomes as Array<{ sku: string; outcome: string; currentHs: string; countryOfOrigin: string }>;
    expect(results.find((r) => r.sku === 'UDS-SOFA-2201-BLU')).toMatchObject({ outcome: 'AT_RISK', currentHs: '9401.61.10', countryOfOrigin: 'CN' });
    expect(results.find((r) => r.sku === 'SHO-RUN-0042-BLK')).toMatchObject({ currentHs: '6404.11' });

    const again = await apply(sessionId, { rows: directRows(skus), originCountry: 'CN', screeningAuthority: 'CA' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'APPLIED', action: 'apply' } });
  });

  it('reads an XLSX feed like its CSV', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId, session } = await normalizedFeed(sandbox, 'feed-clean', 'xlsx');
    expect(session).toMatchObject({ status: 'READY', applyable: true, issueCount: 0, skuCount: 5 });
    const skus = (await skusOf(sandbox, sessionId)).skus;
    expect(skus[0]).toMatchObject({ sku: 'TS-CTN-0412-BLK', providedHs: '6109.10.00', originCountry: 'CN', destinationCountry: 'CA', attributes: { material: 'cotton', construction: 'knitted' } });
  });
});

describe('workflow B: classify-preview, review, apply', () => {
  it('previews the SKUs without providedHs, shows the proposals on the SKUs, persists a review and applies it', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId, session } = await normalizedFeed(sandbox, 'feed-clean');
    expect(session).toMatchObject({ status: 'READY', applyable: true, issueCount: 0, skuCount: 5 });

    const started = await preview(sessionId);
    expect(started.status, started.text).toBe(202);
    expect(started.body.previewJobId).toBe(started.body.jobId);
    const early = await review(started.body.previewJobId, { rows: [] });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'PENDING', action: 'review' } });
    const done = await finishJob(sandbox, started.body.jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', result: { skusProposed: 2 } });

    const skus = (await skusOf(sandbox, sessionId)).skus as Array<{ sku: string; productName: string; providedHs: string | null; proposal: { hsCode: string | null; confidence: number } | null }>;
    const proposed = skus.filter((s) => s.providedHs === null);
    expect(proposed.map((s) => s.sku)).toEqual(['UDS-LNG-3301-GRY', 'TBL-OAK-1800-NAT']);
    for (const s of proposed) expect(s.proposal).toMatchObject({ previewJobId: started.body.jobId, confidence: expect.any(Number) });
    expect(skus.filter((s) => s.providedHs !== null).every((s) => s.proposal === null)).toBe(true);

    const rows = skus.map((s) => ({ sku: s.sku, name: s.productName, hsCode: s.providedHs ?? s.proposal?.hsCode ?? '9403.60', accepted: true }));
    const reviewed = await review(started.body.previewJobId, { rows, toggles: { acceptHighConfidence: true } });
    expect(reviewed.status, reviewed.text).toBe(200);
    expect(reviewed.body).toMatchObject({ previewJobId: started.body.jobId, sessionId, rowCount: 5, toggles: { acceptHighConfidence: true } });
    expect((await sessionOf(sandbox, sessionId)).reviewedSnapshotId).toBe(reviewed.body.snapshotId);

    const applied = await apply(sessionId, { rows: rows.map(({ accepted: _a, ...r }) => r), originCountry: 'CN', screeningAuthority: 'US' });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.status).toBe('APPLIED');
  });

  it('refuses apply with 409 when the reviewed snapshot is stale (a newer preview ended), and applies after a new review', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-clean');
    const first = await preview(sessionId);
    await finishJob(sandbox, first.body.jobId);
    const rows = [{ sku: 'UDS-LNG-3301-GRY', name: 'Upholstered lounge chair', hsCode: '9401.61.10' }];
    const snapshot = (await review(first.body.jobId, { rows })).body.snapshotId;
    const second = await preview(sessionId);
    await finishJob(sandbox, second.body.jobId);

    const stale = await apply(sessionId, { rows, originCountry: 'VN', screeningAuthority: 'CA' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'READY', action: 'apply', reviewedSnapshotId: snapshot } });
    expect((await review(second.body.jobId, { rows })).status).toBe(200);
    expect((await apply(sessionId, { rows, originCountry: 'VN', screeningAuthority: 'CA' })).status).toBe(200);
  });

  it('refuses classify-preview unless READY (409 naming the state)', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-direct-apply');
    const refused = await preview(sessionId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'PREVIEW_BLOCKED', action: 'classify_preview' } });
  });
});

describe('workflow B: issues and their acknowledgement', () => {
  it('holds a feed with non-blocking issues PREVIEW_BLOCKED until the operator acknowledges the last one', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId, session } = await normalizedFeed(sandbox, 'feed-non-blocking');
    expect(session).toMatchObject({ status: 'PREVIEW_BLOCKED', applyable: false, issueCount: 4, blockingIssueCount: 0 });
    const issues = (await issuesOf(sandbox, sessionId)).issues as Array<{ issueType: string; isBlocking: boolean; issueKey: string; rowNumber: number }>;
    expect(issues.map((i) => [i.issueType, i.isBlocking, i.rowNumber])).toEqual([
      ['name_trimmed', false, 2],
      ['hs_code_normalized', false, 3],
      ['destination_defaulted', false, 4],
      ['hs_code_incomplete', false, 5],
    ]);
    const skus = (await skusOf(sandbox, sessionId)).skus;
    expect(skus.map((s: { providedHs: string | null }) => s.providedHs)).toEqual(['6109.10.00', '6110.11.00', '9401.61.10', null]);
    expect(skus[0].productName).toBe("Men's crew-neck T-shirt, grey");
    expect(skus[2].destinationCountry).toBe('CA');

    const refused = await apply(sessionId, { rows: directRows(skus), originCountry: 'CN', screeningAuthority: 'CA' });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatchObject({ currentState: 'PREVIEW_BLOCKED', action: 'apply' });

    const partly = await acknowledge(sandbox, sessionId, [issues[0].issueKey, issues[1].issueKey]);
    expect(partly.status).toBe(200);
    expect(partly.body).toMatchObject({ status: 'PREVIEW_BLOCKED', applyable: false });
    const all = await acknowledge(sandbox, sessionId);
    expect(all.body).toMatchObject({ status: 'READY', applyable: true, issueCount: 4 });
    expect(((await issuesOf(sandbox, sessionId)).issues as Array<{ acknowledged: boolean }>).every((i) => i.acknowledged)).toBe(true);
    expect((await apply(sessionId, { rows: directRows(skus), originCountry: 'CN', screeningAuthority: 'CA' })).status).toBe(200);
  });

  it('refuses to acknowledge a blocking issue (409), and a session with blocking issues stays PREVIEW_BLOCKED and not applyable', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId, session, job } = await normalizedFeed(sandbox, 'feed-blocking');
    expect(session).toMatchObject({ status: 'PREVIEW_BLOCKED', applyable: false, blockingIssueCount: 4, issueCount: 5, skuCount: 2 });
    expect(job).toMatchObject({ reconciliation: { rowsUploaded: 6, rowsSkipped: 3, rowsDeduplicated: 1 } });
    const issues = (await issuesOf(sandbox, sessionId)).issues as Array<{ issueType: string; isBlocking: boolean; issueKey: string }>;
    expect(issues.map((i) => [i.issueType, i.isBlocking])).toEqual([
      ['missing_sku', true],
      ['invalid_country', true],
      ['duplicate_sku', true],
      ['invalid_hs_code', true],
      ['destination_defaulted', false],
    ]);
    const blocking = await acknowledge(sandbox, sessionId, [issues[0].issueKey]);
    expect(blocking.status).toBe(409);
    expect(blocking.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { issueKey: issues[0].issueKey } });
    const rest = await acknowledge(sandbox, sessionId);
    expect(rest.body).toMatchObject({ status: 'PREVIEW_BLOCKED', applyable: false });
    expect((await acknowledge(sandbox, sessionId, ['no-such-issue'])).status).toBe(404);
  });
});
