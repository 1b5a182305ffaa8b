// A crash loses no acknowledged write and resumes in-flight jobs: a real process, killed with SIGKILL, on the
// on-disk store (SIM_DB, the default) and on the journal store (SIM_STORE=journal).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bannerField, startSimulatorProcess, type SimulatorProcess } from './testing/process.js';

const running: SimulatorProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill('SIGKILL')));
});

const KEY = 'tfk_durability_key';
const ADMIN = 'durability-admin';
/** Rate limits and queue caps out of the way, so the writers write until the kill (kept in the store). */
const LIFTED = { limit: 1_000_000_000, windowMs: 60_000 };
const UNLIMITED = { rateLimits: { read: LIFTED, write: LIFTED, upload: LIFTED }, queueCaps: { total: 1e9, upload: 1e9, sima: 1e9, preview: 1e9 } };
const STORES: Array<[string, (dir: string) => Record<string, string>]> = [
  ['on-disk store', (dir) => ({ SIM_DB: path.join(dir, 'store.mdb') })],
  ['journal store', (dir) => ({ SIM_STORE: `journal:${path.join(dir, 'store.json')}` })],
];

async function json(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as any };
}

async function bearer(url: string) {
  const token = (await json(`${url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } })).body.access_token;
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

describe.each(STORES)('durability (%s)', (_, store) => {
  const env = (dir: string) => ({
    ...store(dir),
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_INTEGRATION_KEY: KEY,
    SIM_JOB_START_DELAY_MS: '100',
    SIM_JOB_PROCESSING_MS: '200',
  });

  it('keeps a job acknowledged just before SIGKILL and finishes it after the restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-durable-'));
    const first = await startSimulatorProcess(env(dir));
    running.push(first);
    const auth = await bearer(first.url);
    const accepted = await json(`${first.url}/api/sima/batch`, { method: 'POST', headers: auth, body: JSON.stringify({ skus: null }) });
    expect(accepted.status).toBe(202);
    await first.kill('SIGKILL'); // no graceful shutdown: only what was made durable survives

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

  it('keeps every write acknowledged under concurrent writes through three SIGKILLs at random points', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-durable-'));
    const acknowledged: string[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 3; round++) {
      const sim = await startSimulatorProcess(env(dir));
      running.push(sim);
      const auth = await bearer(sim.url);
      if (round === 0) {
        const tenantId = bannerField(sim.output(), 'tenant');
        const put = await fetch(`${sim.url}/_sim/tenants/${tenantId}/settings`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(UNLIMITED) });
        expect(put.status).toBe(200);
      }
      // Four writers, each a job per request, until the process dies under them.
      const writer = async () => {
        for (;;) {
          const res = await fetch(`${sim.url}/api/sima/batch`, { method: 'POST', headers: auth, body: '{"skus":null}' }).catch(() => null);
          if (!res) return;
          const body = (await res.json().catch(() => null)) as { jobId?: string } | null;
          if (res.status === 202 && body?.jobId) acknowledged.push(body.jobId);
        }
      };
      const writers = Promise.all([writer(), writer(), writer(), writer()]);
      // The kill lands while the writers write: after this round's first acknowledgements (a loaded machine
      // may take seconds to the first), then at a random point of the next 600 ms.
      const before = acknowledged.length;
      for (const deadline = Date.now() + 20_000; acknowledged.length < before + 5 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, random() * 600));
      await sim.kill('SIGKILL');
      await writers;
    }
    const last = await startSimulatorProcess(env(dir));
    running.push(last);
    const auth = await bearer(last.url);
    expect(acknowledged.length).toBeGreaterThan(10);
    const lost: string[] = [];
    for (const id of acknowledged) if ((await fetch(`${last.url}/api/jobs/${id}`, { headers: auth })).status !== 200) lost.push(id);
    expect(lost).toEqual([]);
    process.stdout.write(`durability: ${acknowledged.length} jobs acknowledged over 3 SIGKILLs under 4 writers, 0 lost\n`);
  });
});
