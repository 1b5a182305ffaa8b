// The transition log over HTTP (GET /_sim/transitions): whole histories in order, refused moves leave no
// trace, tenants are isolated, paging and reset, and the log survives a restart (it is in the store).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { SLOW_JOBS } from '../domains/jobs/jobs.testing.js';
import { agreementCsv, allFindings, finishJob, sampleRows, shipmentCsv, uploadAndFinish } from '../domains/ship/ship.testing.js';
import { review, screen } from '../domains/sima/sima-results.testing.js';
import { signUp, V12 } from '../domains/signup/signup.testing.js';
import { normalizedFeed } from '../domains/trade/trade.testing.js';

type Entry = { seq: number; at: string; tenantId: string | null; machine: string; resourceId: string; from: string | null; to: string; requestId: string | null };

const transitions = async (sandbox: TestSandbox, query: Record<string, string | number>): Promise<Entry[]> => {
  const res = await sandbox.admin('GET', `/_sim/transitions?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
};
const moves = (entries: Entry[]) => entries.map((e) => [e.from, e.to]);

describe('the transition log', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
  });
  afterAll(async () => sandbox?.close());

  it("reads back a job's whole history in order: created by its request, moved by the worker", async () => {
    const accepted = await sandbox.call('POST', '/api/carrier/agreements/upload', { form: (req) => req.attach('file', agreementCsv(), 'agreement.csv') });
    expect(accepted.status, accepted.text).toBe(202);
    const { jobId } = accepted.body;
    expect((await finishJob(sandbox, jobId)).status).toBe('COMPLETED');
    const history = await transitions(sandbox, { resourceId: jobId });
    expect(moves(history)).toEqual([
      [null, 'PENDING'],
      ['PENDING', 'PROCESSING'],
      ['PROCESSING', 'COMPLETED'],
    ]);
    expect(history.map((e) => e.requestId)).toEqual([accepted.headers['x-request-id'], null, null]);
    expect(history.every((e) => e.machine === 'job' && e.tenantId === sandbox.identity.tenantId)).toBe(true);
    expect(history.map((e) => e.seq)).toEqual([...history.map((e) => e.seq)].sort((a, b) => a - b));
    // `at` is the tenant's virtual time: the worker's moves happen after the clock was advanced past the delays.
    expect(Date.parse(history[2].at) - Date.parse(history[0].at)).toBeGreaterThanOrEqual((SLOW_JOBS.jobStartDelayMs + SLOW_JOBS.jobProcessingMs) * 0.99);
  });

  it("reads back a claim submission's whole history in order, each move named by its request, and a refused move records nothing", async () => {
    // The agreement is the one the job test uploaded; the shipments give findings.
    await uploadAndFinish(sandbox, '/api/ship/upload', shipmentCsv(sampleRows(sandbox)), 'invoice.csv');
    const finding = (await allFindings(sandbox)).find((f) => f.workflowStatus === 'OPEN')!;
    const post = (p: string, body: unknown = {}) => sandbox.call('POST', p, { body });
    const disputed = await post(`/api/ship/findings/${finding.id}/dispute`);
    expect(disputed.status, disputed.text).toBe(200);
    const created = await post('/api/ship/claims/submissions', { carrier: 'FEDEX', findingIds: [finding.id] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.submission.id as string;
    // DRAFT cannot be submitted (spec 3.4): 409, and the log stays as it was.
    const refused = await post(`/api/ship/claims/submissions/${id}/submit`, { externalReference: 'FICT-1' });
    expect(refused.status).toBe(409);
    const requestIds = [created.headers['x-request-id']];
    for (const [step, body] of [['generate-packet', {}], ['submit', { externalReference: 'FICT-1' }], ['acknowledge', { externalReference: 'FICT-2' }]] as const) {
      const res = await post(`/api/ship/claims/submissions/${id}/${step}`, body);
      expect(res.status, res.text).toBe(200);
      requestIds.push(res.headers['x-request-id']);
    }
    const history = await transitions(sandbox, { resourceId: id, machine: 'claim-submission' });
    expect(moves(history)).toEqual([
      [null, 'DRAFT'],
      ['DRAFT', 'READY'],
      ['READY', 'SUBMITTED'],
      ['SUBMITTED', 'ACKNOWLEDGED'],
    ]);
    expect(history.map((e) => e.requestId)).toEqual(requestIds);
    expect(history.map((e) => e.requestId)).not.toContain(refused.headers['x-request-id']);
    // The finding's own workflow, created by the ship job's worker and disputed by the request.
    const findingHistory = await transitions(sandbox, { resourceId: finding.id });
    expect(moves(findingHistory)).toEqual([
      [null, 'OPEN'],
      ['OPEN', 'DISPUTED'],
    ]);
    expect(findingHistory.map((e) => [e.machine, e.requestId])).toEqual([
      ['finding', null],
      ['finding', disputed.headers['x-request-id']],
    ]);
  });

  it("isolates tenants: a tenant filter shows only that tenant's machines", async () => {
    const other = await sandbox.admin('POST', '/_sim/tenants', { name: 'Other tenant' });
    expect(other.status).toBe(201);
    const token = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': other.body.integrationKey } });
    const accepted = await sandbox.call('POST', '/api/carrier/agreements/upload', { token: token.body.access_token, form: (req) => req.attach('file', agreementCsv(), 'agreement.csv') });
    expect(accepted.status, accepted.text).toBe(202);
    const theirs = await transitions(sandbox, { tenantId: other.body.tenantId });
    expect(theirs.map((e) => [e.resourceId, e.to])).toEqual([[accepted.body.jobId, 'PENDING']]);
    const ours = await transitions(sandbox, { tenantId: sandbox.identity.tenantId, limit: 1000 });
    expect(ours.length).toBeGreaterThan(3);
    expect(ours.some((e) => e.resourceId === accepted.body.jobId || e.tenantId !== sandbox.identity.tenantId)).toBe(false);
    const jobsOnly = await transitions(sandbox, { tenantId: sandbox.identity.tenantId, machine: 'job', limit: 1000 });
    expect(jobsOnly.length).toBeGreaterThan(0);
    expect(jobsOnly).toEqual(ours.filter((e) => e.machine === 'job'));
  });

  it('pages oldest first with a cursor, and answers 400 for a cursor it did not issue', async () => {
    const all = await transitions(sandbox, { limit: 1000 });
    const paged: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res = await sandbox.admin('GET', `/_sim/transitions?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => a - b));
    const bad = await sandbox.admin('GET', '/_sim/transitions?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe('cursor');
  });

  it('is emptied by a sandbox reset like every other record', async () => {
    expect((await transitions(sandbox, {})).length).toBeGreaterThan(0);
    expect((await sandbox.admin('POST', '/_sim/reset')).status).toBe(200);
    expect(await transitions(sandbox, {})).toEqual([]);
  });
});

describe('the transition log of every machine', () => {
  it('records the moves of feed sessions, signup sessions, SIMA reviews and classification reviews', async () => {
    const sandbox = await startTestSandbox({ config: { ...SLOW_JOBS, contract: 'all' } });
    try {
      const { sessionId } = await normalizedFeed(sandbox, 'feed-direct-apply');
      const feed = await transitions(sandbox, { resourceId: sessionId });
      expect(feed[0]).toMatchObject({ machine: 'feed-session', from: null });
      expect(feed.at(-1)!.to).toBe('PREVIEW_BLOCKED');

      const { sessionId: signupId } = await signUp(sandbox, V12, 'transition-log-co');
      const signup = await transitions(sandbox, { resourceId: signupId });
      expect(signup[0]).toMatchObject({ machine: 'signup-session', from: null });
      expect(signup.length).toBeGreaterThanOrEqual(3);

      await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
      const accepted = await review(sandbox, 'UDS-SOFABED-GRY-3S', 'accept');
      expect(accepted.status, accepted.text).toBe(200);
      const sima = await transitions(sandbox, { tenantId: sandbox.identity.tenantId, machine: 'sima-workflow' });
      expect(sima.map((e) => [e.resourceId, e.from, e.to, e.requestId])).toEqual([[accepted.body.id, 'OPEN', 'ACCEPTED', accepted.headers['x-request-id']]]);

      const classified = await sandbox.call('POST', '/api/trade/classify', { body: { description: 'Upholstered lounge chair', sku: 'UDS-LNG-3301-GRY', originCountry: 'VN', destinationCountry: 'CA' } });
      expect(classified.body.requiresReview).toBe(true);
      const decided = await sandbox.call('POST', `/api/trade/classify/reviews/${classified.body.reviewId}/decision`, { body: { decision: 'approve' } });
      expect(decided.status, decided.text).toBe(200);
      const decision = await transitions(sandbox, { resourceId: classified.body.reviewId });
      expect(decision.map((e) => [e.machine, e.from, e.to])).toEqual([
        ['classification-review', null, 'PENDING'],
        ['classification-review', 'PENDING', 'APPROVED'],
      ]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the transition log on disk', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'transitions-'));
  const file = path.join(dir, 'store.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survives a restart, and the seq goes on from where it was', async () => {
    const first = await startTestSandbox({ config: SLOW_JOBS, file });
    let before: Entry[];
    try {
      const job = await uploadAndFinish(first, '/api/carrier/agreements/upload', agreementCsv(), 'agreement.csv');
      before = await transitions(first, { resourceId: job.jobId ?? job.id });
      expect(moves(before)).toEqual([
        [null, 'PENDING'],
        ['PENDING', 'PROCESSING'],
        ['PROCESSING', 'COMPLETED'],
      ]);
    } finally {
      await first.close();
    }
    const second = await startTestSandbox({ config: SLOW_JOBS, file });
    try {
      expect(await transitions(second, { resourceId: before[0].resourceId })).toEqual(before);
      const accepted = await second.call('POST', '/api/carrier/agreements/upload', { form: (req) => req.attach('file', agreementCsv('UPS'), 'agreement-ups.csv') });
      expect(accepted.status, accepted.text).toBe(202);
      const [created] = await transitions(second, { resourceId: accepted.body.jobId });
      expect(created.seq).toBeGreaterThan(Math.max(...before.map((e) => e.seq)));
    } finally {
      await second.close();
    }
  });
});
