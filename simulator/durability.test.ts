// A crash loses no acknowledged write and resumes in-flight jobs: a real process, killed with SIGKILL.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from './testing/process.js';

const running: SimulatorProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill('SIGKILL')));
});

const env = (dir: string) => ({
  SIM_DB: path.join(dir, 'store.json'),
  SIM_ADMIN_TOKEN: 'durability-admin',
  SIM_INTEGRATION_KEY: 'tfk_durability_key',
  SIM_JOB_START_DELAY_MS: '100',
  SIM_JOB_PROCESSING_MS: '200',
});

async function json(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as any };
}

describe('durability', () => {
  it('keeps a job acknowledged just before SIGKILL and finishes it after the restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-durable-'));
    const first = await startSimulatorProcess(env(dir));
    running.push(first);
    const token = (await json(`${first.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': 'tfk_durability_key' } })).body.access_token;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const accepted = await json(`${first.url}/api/sima/batch`, { method: 'POST', headers: auth, body: JSON.stringify({ skus: null }) });
    expect(accepted.status).toBe(202);
    await first.kill('SIGKILL'); // no graceful shutdown: only what was fsynced survives

    const second = await startSimulatorProcess(env(dir));
    running.push(second);
    // The token was signed with the persisted secret: it still works after the restart.
    const deadline = Date.now() + 20_000;
    let job: any;
    do {
      job = (await json(`${second.url}/api/jobs/${accepted.body.jobId}`, { headers: auth })).body;
      if (job.status === 'COMPLETED') break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    expect(job).toMatchObject({ id: accepted.body.jobId, status: 'COMPLETED' });
  });
});
