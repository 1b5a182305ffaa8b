// Resumed jobs tell the truth (issue 30 item 3), under real SIGKILLs: the case (five trade feeds
// uploaded, the process killed 600 ms later while their normalizations wait out their processing time,
// their sessions already READY) and SIMA batches beside them. After the restart every job is COMPLETED with
// its result, every feed session READY or PREVIEW_BLOCKED, and no `job.failed` webhook went out (spec 3.1,
// 3.2, 6: FAILED and job.failed mean the work failed). Embedded store, kills from outside at a fixed delay;
// every job type killed inside its run, on both stores, is job-resume.every-type.crash.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './domains/webhooks/webhook.testing.js';
import { bannerField, callProcess, startSimulatorProcess, type SimulatorProcess } from './testing/process.js';

const ADMIN = 'resume-admin';
const KEY = 'tfk_resume_test_key';
const ROUNDS = 3;
const FEEDS = 5;
const KILL_AFTER_MS = 600;

let sim: SimulatorProcess | undefined;
let receiver: Receiver | undefined;
let dir: string | undefined;
afterAll(async () => {
  await sim?.kill('SIGKILL');
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls of this test wait up to 15 s: five uploads land at once on a process just started. */
const call = (url: string, init: Parameters<typeof callProcess>[1] = {}) => callProcess(url, { timeoutMs: 15_000, ...init });

const CLEAN_FEED = readFileSync(path.resolve('fixtures/trade/feed-clean.csv'), 'utf8');

describe('jobs resumed after a SIGKILL (embedded store)', () => {
  it('end COMPLETED with their results, never FAILED for work that succeeded, and send no job.failed', { timeout: 300_000 }, async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sim-resume-'));
    receiver = await startReceiver();
    const env = { SIM_DB: path.join(dir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_INTEGRATION_KEY: KEY, SIM_WEBHOOK_ALLOW_TARGETS: receiver.target, SIM_JOB_START_DELAY_MS: '50' };
    sim = await startSimulatorProcess(env);
    const tenantId = bannerField(sim.output(), 'tenant')!;
    const token = async () => (await call(`${sim!.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } })).body.access_token as string;
    let bearer = await token();
    const lifted = await call(`${sim.url}/_sim/tenants/${tenantId}/settings`, { method: 'PUT', token: ADMIN, json: { queueCaps: { total: 1_000, sima: 1_000 } } });
    expect(lifted.status).toBe(200);

    const feedJobs = new Map<string, string>(); // jobId -> sessionId
    const simaJobs: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = Date.now();
      for (let i = 0; i < FEEDS; i++) {
        const form = new FormData();
        // One SKU renamed per upload: each file is new (no 409 DUPLICATE_UPLOAD).
        form.set('file', new Blob([CLEAN_FEED.replace('TS-CTN-0412-BLK', `TS-R${round}-F${i}`)], { type: 'text/csv' }), 'feed.csv');
        form.set('originCountry', 'CN');
        form.set('defaultDestinationCountry', 'CA');
        form.set('webhookUrl', `${receiver.url}/feeds`);
        const accepted = await call(`${sim.url}/api/trade/feeds/upload`, { method: 'POST', token: bearer, body: form });
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
        feedJobs.set(accepted.body.jobId, accepted.body.sessionId);
      }
      const batch = await call(`${sim.url}/api/sima/batch`, { method: 'POST', token: bearer, json: { skus: null, webhookUrl: `${receiver.url}/sima` } });
      expect(batch.status, JSON.stringify(batch.body)).toBe(202);
      simaJobs.push(batch.body.jobId);
      await sleep(Math.max(0, KILL_AFTER_MS - (Date.now() - started)));
      await sim.kill('SIGKILL');
      sim = await startSimulatorProcess(env);
      bearer = await token();
    }

    // The last process finishes everything.
    const all = [...feedJobs.keys(), ...simaJobs];
    const deadline = Date.now() + 60_000;
    let jobs: any[] = [];
    while (Date.now() < deadline) {
      jobs = await Promise.all(all.map(async (id) => (await call(`${sim!.url}/api/jobs/${id}`, { token: bearer })).body));
      if (jobs.every((job) => job.status === 'COMPLETED' || job.status === 'FAILED')) break;
      await sleep(250);
    }
    const failed = jobs.filter((job) => job.status !== 'COMPLETED').map((job) => `${job.id} ${job.status}: ${job.error}`);
    expect(failed).toEqual([]);
    for (const [jobId, sessionId] of feedJobs) {
      const session = (await call(`${sim.url}/api/trade/feeds/${sessionId}`, { token: bearer })).body;
      expect(['READY', 'PREVIEW_BLOCKED'], `session ${sessionId}`).toContain(session.status);
      const job = jobs.find((j) => j.id === jobId);
      expect(job.result).toMatchObject({ sessionId, sessionStatus: session.status });
    }
    await sleep(1_000); // deliveries of the last jobs
    const events = receiver.requests.map((r) => JSON.parse(r.rawBody).event as string);
    expect(events.filter((event) => event === 'job.failed')).toEqual([]);
    process.stdout.write(`resume crash test: ${ROUNDS} SIGKILLs ${KILL_AFTER_MS} ms after ${FEEDS} feed uploads and a SIMA batch each; ${all.length} jobs all COMPLETED, ${events.length} webhooks, 0 job.failed\n`);
  });
});
