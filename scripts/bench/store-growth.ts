// npm run bench:store — acknowledged job-creating writes over HTTP (POST /api/sima/batch, 202 after the
// journal fsync) per second and their p99, against an empty store and a store holding 100,000 jobs, in one
// run. Target: the large store keeps at least 0.8x the throughput of the empty one.
//
// Both servers run as real processes; rounds alternate between them so drift on the machine hits both.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createSimulator } from '../../simulator/app.js';
import { testConfig } from '../../simulator/config.js';
import { createClock } from '../../simulator/kernel/clock.js';
import { clockDeps } from '../../simulator/testing/kernel.js';
import { createDefects } from '../../simulator/kernel/defects.js';
import { randomIds } from '../../simulator/kernel/ids.js';
import { openStore } from '../../simulator/kernel/store/store.js';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '1500' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
  },
});
const STORED_JOBS = Number(values.jobs);
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const KEY = 'tfk_bench_key';
const ADMIN = 'bench-admin';

/** Builds a store file holding `count` completed jobs of the default tenant, through the real domains. */
async function prepareStore(file: string, count: number): Promise<string> {
  const config = testConfig({ dbPath: file, integrationKey: KEY, adminToken: ADMIN, jobStartDelayMs: 3_600_000 });
  const log = pino({ level: 'silent' });
  const deps = { config, store: await openStore({ file }), ...clockDeps(createClock(), log), ids: randomIds, log, defects: createDefects([], []) };
  const sim = await createSimulator(deps);
  const identity = await sim.start();
  if (count > 0) {
    const template = await sim.domains.jobs.enqueue({ tenantId: identity.tenantId, keyId: null, type: 'sima_validation', family: 'sima' });
    // Opened without a schema: the jobs domain already declared the collection's fields and indexes.
    const jobs = deps.store.collection<typeof template>(sim.domains.jobs.collectionName);
    const start = deps.clock.now() - count * 1000;
    for (let i = 0; i < count; i++) {
      const at = new Date(start + i * 1000).toISOString();
      await jobs.put({ ...template, id: randomIds.uuid(), status: 'COMPLETED', progress: 100, seq: i + 2, createdAt: at, updatedAt: at, startedAt: at, finishedAt: at });
    }
    await jobs.delete(template.id);
  }
  await sim.stop(); // flushes and compacts into the snapshot
  return identity.tenantId;
}

interface RoundResult {
  perSecond: number;
  p50: number;
  p99: number;
}

async function runRound(url: string, token: string, requests: number): Promise<RoundResult> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests) {
      next++;
      const t0 = performance.now();
      const res = await fetch(`${url}/api/sima/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ skus: ['UDS-CHAIR-01'], runPolicy: 'always' }),
      });
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`enqueue answered ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { perSecond: requests / elapsed, p50: pct(50), p99: pct(99) };
}

async function prepareServer(label: string, file: string, tenantId: string): Promise<{ label: string; server: SimulatorProcess; token: string }> {
  const server = await startSimulatorProcess({
    SIM_DB: file,
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_INTEGRATION_KEY: KEY,
    SIM_JOB_START_DELAY_MS: '3600000', // jobs stay PENDING: the bench measures the write path, not the worker
    LOG_LEVEL: 'silent',
  });
  // Lift what would otherwise stop a benchmark: the write rate bucket and the queue-admission caps.
  const settings = await fetch(`${server.url}/_sim/tenants/${tenantId}/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimits: { write: { limit: 1_000_000, windowMs: 60_000 } }, queueCaps: { total: 1_000_000, sima: 1_000_000 } }),
  });
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}`);
  const exchange = await fetch(`${server.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } });
  const token = ((await exchange.json()) as { access_token: string }).access_token;
  return { label, server, token };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
const emptyFile = path.join(dir, 'empty', 'store.json');
const largeFile = path.join(dir, 'large', 'store.json');
console.log(`preparing stores in ${dir} (${STORED_JOBS.toLocaleString()} jobs in the large one) ...`);
let t = performance.now();
const emptyTenant = await prepareStore(emptyFile, 0);
const largeTenant = await prepareStore(largeFile, STORED_JOBS);
console.log(`  prepared in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const servers = [await prepareServer('empty store', emptyFile, emptyTenant), await prepareServer(`${STORED_JOBS.toLocaleString()} jobs`, largeFile, largeTenant)];
try {
  for (const s of servers) {
    await runRound(s.server.url, s.token, Math.min(300, REQUESTS)); // warm-up: JIT, connections
  }
  const results = new Map<string, RoundResult[]>(servers.map((s) => [s.label, []]));
  t = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 === 0 ? servers : [...servers].reverse()) results.get(s.label)!.push(await runRound(s.server.url, s.token, REQUESTS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const summary = servers.map((s) => {
    const rounds = results.get(s.label)!;
    return { store: s.label, perSecond: median(rounds.map((r) => r.perSecond)), p50Ms: median(rounds.map((r) => r.p50)), p99Ms: median(rounds.map((r) => r.p99)) };
  });
  const ratio = summary[1].perSecond / summary[0].perSecond;
  console.log(`\n${ROUNDS} alternating rounds of ${REQUESTS} POST /api/sima/batch, concurrency ${CONCURRENCY}, ${os.cpus().length} cores, node ${process.version}`);
  console.table(summary.map((s) => ({ store: s.store, 'writes/s': s.perSecond.toFixed(0), 'p50 ms': s.p50Ms.toFixed(2), 'p99 ms': s.p99Ms.toFixed(2) })));
  console.log(`large/empty throughput ratio: ${ratio.toFixed(2)} (target >= 0.80) -> ${ratio >= 0.8 ? 'PASS' : 'FAIL'}`);
  const out = path.resolve('build', 'bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'store-growth.json'), JSON.stringify({ date: new Date().toISOString(), storedJobs: STORED_JOBS, requests: REQUESTS, rounds: ROUNDS, concurrency: CONCURRENCY, summary, ratio }, null, 2));
  process.exitCode = ratio >= 0.8 ? 0 : 1;
} finally {
  await Promise.all(servers.map((s) => s.server.kill('SIGTERM')));
  console.log(`measured in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
