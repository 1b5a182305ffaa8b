// The normalization job over a feed with repeated SKUs, run once and then again as after a restart (the
// session found NORMALIZING, the first run's SKUs already stored). The duplicate rule reads a stored SKU's
// first row from its record instead of keeping every row's fingerprint in memory (issue 15), so a second
// run must find exactly the same duplicates and store exactly the same SKUs as the first.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDeps } from '../../testing/kernel.js';
import type { JobOutcome } from '../jobs/index.js';
import { feedNormalizeProcessor } from './feed-normalize.processor.js';
import { feedRowsStore } from './feed-rows.store.js';
import { feedSessionStore } from './feed-session.store.js';
import type { FeedSessionRecord } from './trade.types.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'feed-normalize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FEED = [
  'sku,productName,hsCode,originCountry,destinationCountry,material',
  'A-1,Cotton T-shirt,6109.10.00,CN,CA,cotton', // line 2: stored
  'B-1,Steel bolt,abc,CN,CA,steel', //             line 3: refused (HS not a number)
  'A-1,Cotton T-shirt,6109.10.00,CN,CA,cotton', // line 4: same data as line 2 -> duplicate_row
  'A-1,Wool T-shirt,6109.90.00,CN,CA,wool', //     line 5: other data than line 2 -> duplicate_sku
  'B-1,Steel bolt,abc,CN,CA,steel', //             line 6: same data as refused line 3 -> duplicate_row
  'C-1,Cardigan,,VN,US,cotton', //                 line 7: stored, to classify
].join('\n');

async function setUp() {
  const deps = await createTestDeps();
  const sessions = feedSessionStore(deps);
  const rows = feedRowsStore(deps);
  const file = path.join(dir, 'feed.csv');
  writeFileSync(file, FEED);
  const now = deps.clock.nowIso();
  const session: FeedSessionRecord = {
    id: 'session-1', tenantId: 't1', status: 'UPLOADED', fileName: 'feed.csv', jobId: null, originCountry: 'CN', defaultDestinationCountry: 'CA',
    normalizationProgress: 0, failureReason: null, skuCount: 0, issueCount: 0, blockingIssueCount: 0, openIssueCount: 0, unclassifiedCount: 0,
    currentPreviewJobId: null, previewInFlight: null, reviewedSnapshotId: null, applyInFlight: false, screeningJobId: null, createdAt: now, updatedAt: now, appliedAt: null,
  };
  await sessions.create(session);
  const job = { id: 'job-1', tenantId: 't1', input: { sessionId: session.id, file: { path: file, fileName: 'feed.csv', format: 'csv', size: statSync(file).size, sha256: '' } } };
  const run = () => feedNormalizeProcessor(deps, sessions, rows)(job as never, { progress: async () => {} } as never) as Promise<JobOutcome>;
  const stored = async () => ({
    skus: (await rows.skuPage(session.id, { limit: 50, offset: 0 })).items.map((s) => [s.sku, s.rowNumber, s.productName, s.attributes]),
    issues: (await rows.issuePage(session.id, { limit: 50, offset: 0 })).items.map((i) => [i.issueKey, i.issueType, i.rowNumber, i.isBlocking]).sort(),
  });
  return { deps, sessions, session, run, stored };
}

describe('feed normalization of repeated SKUs', () => {
  it('finds duplicates of stored and of refused rows, and finds the same again when run after a restart', async () => {
    const { sessions, session, run, stored } = await setUp();
    const first = await run();
    const afterFirst = await stored();
    expect(afterFirst.skus).toEqual([
      ['A-1', 2, 'Cotton T-shirt', { material: 'cotton' }],
      ['C-1', 7, 'Cardigan', { material: 'cotton' }],
    ]);
    const types = afterFirst.issues.map(([, type, row]) => `${type}@${row}`);
    expect(types).toEqual(expect.arrayContaining(['invalid_hs_code@3', 'duplicate_row@4', 'duplicate_sku@5', 'duplicate_row@6']));
    expect(types).toHaveLength(4);
    expect(first.reconciliation).toMatchObject({ rowsUploaded: 6, rowsSkipped: 1, rowsDeduplicated: 3, skusFound: 2 });

    // As after a restart: the session is NORMALIZING and the first run's records are in the store.
    await sessions.modify(session.id, (s) => ({ ...s, status: 'NORMALIZING' }));
    const second = await run();
    expect(await stored()).toEqual(afterFirst);
    expect(second.reconciliation).toEqual(first.reconciliation);
    expect(second.result).toEqual(first.result);
  });
});

describe('feed normalization run again after its session ended (issue 30 item 3)', () => {
  it('ends with the verdict stored in the session\'s final move instead of being refused by a READY session', async () => {
    const { sessions, session, run, stored } = await setUp();
    const first = await run();
    const ended = (await sessions.get('t1', session.id))!;
    expect(ended.status).toBe('PREVIEW_BLOCKED'); // issues to acknowledge
    expect(ended.settledBy).toEqual({ jobId: 'job-1', settlement: { ok: true, outcome: first } });
    const records = await stored();
    // The crash came after the session's final move, before the job ended: the job runs again.
    const again = await run();
    expect(again).toEqual(first);
    expect(await stored()).toEqual(records);
    expect((await sessions.get('t1', session.id))!.rev).toBe(ended.rev); // nothing written again
  });

  it('fails again with the reason it failed with, when the session it failed is FAILED', async () => {
    const { sessions, session, run } = await setUp();
    writeFileSync(path.join(dir, 'feed.csv'), 'name,price\nx,1\n');
    const reason = await run().then(() => 'completed', (error: Error) => error.message);
    expect(reason).toMatch(/no SKU column/);
    expect((await sessions.get('t1', session.id))!.status).toBe('FAILED');
    await expect(run()).rejects.toThrow(reason);
    writeFileSync(path.join(dir, 'feed.csv'), FEED);
  });

  it('is still refused for a session another job ended (the verdict is only its own job\'s)', async () => {
    const { sessions, session, run } = await setUp();
    await run();
    await sessions.modify(session.id, (s) => ({ ...s, settledBy: { ...s.settledBy!, jobId: 'job-other' } }));
    await expect(run()).rejects.toThrow(/normalize is not allowed when the trade feed session is PREVIEW_BLOCKED/);
  });
});
