// Restart time against the store's size (issue 30 item 4): a store filled to each size (fill-store.ts:
// completed jobs written through the real store, the writer SIGKILLed, so the last records are still in the
// journal), then the simulator started on it, SIGKILLed at a random point of its run under writes, and
// started again, `--kills` times. Each start is timed from spawn to its first real answer: an authenticated
// read of the tenant's jobs (the store loaded), not only a probe.
//
//   npm run bench:restart -- [--sizes 350,1024] (MB) [--kills 3] [--seed 1] [--postgres]
//
// --postgres: the same on the PostgreSQL store (SIM_STORE), a throwaway server from the machine's packages
// (simulator/testing/postgres-server.ts); the size is the database's (pg_database_size).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, rssMb, startSimulator } from './processes.js';
import { SIMULATOR_ENV } from './scenarios.js';
import postgres from 'postgres';
import { startPostgres } from '../../simulator/testing/postgres-server.js';

const { values } = parseArgs({ options: { postgres: { type: 'boolean', default: false }, sizes: { type: 'string', default: '350,1024' }, kills: { type: 'string', default: '3' }, seed: { type: 'string', default: '1' } } });
const KEY = SIMULATOR_ENV.SIM_INTEGRATION_KEY;
/** Bytes a completed job takes in the store's files (measured: fill-store's records, snapshot and journal). */
const BYTES_PER_JOB = 600;
let seed = Number(values.seed);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

async function databaseBytes(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql<{ bytes: string }[]>`select pg_database_size(current_database()) as bytes`;
  await sql.end();
  return Number(row.bytes);
}

/** Each size starts from an empty database: the tables the store made dropped. */
async function emptyDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql.unsafe('drop schema public cascade; create schema public');
  await sql.end();
}

const storeBytes = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);

/** Where a store lives: a file of the journal store, or a PostgreSQL database. */
type StorePlace = { file: string } | { url: string };
const storeArgs = (place: StorePlace) => ('file' in place ? ['--file', place.file] : ['--store-url', place.url]);
const storeEnv = (place: StorePlace): Record<string, string> => ('file' in place ? { SIM_DB: place.file } : { SIM_STORE: place.url });

function fill(place: StorePlace, records: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', 'scripts/bench/fill-store.ts', ...storeArgs(place), '--records', String(records), '--crash', '--key', KEY, '--admin', SIMULATOR_ENV.SIM_ADMIN_TOKEN], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' && out.includes('"records"') ? resolve() : reject(new Error(`fill-store ended with ${code ?? signal}: ${out}`))));
  });
}

/** Spawn to the first answer of an authenticated jobs read (the store loaded and serving). */
async function startTimed(place: StorePlace): Promise<{ ms: number; stop: (signal: NodeJS.Signals) => Promise<void>; url: string; pid: number; output: () => string }> {
  const t0 = performance.now();
  const sim = await startSimulator({ ...storeEnv(place), ...SIMULATOR_ENV, SIM_JOB_START_DELAY_MS: '0' }, 'simulator');
  for (;;) {
    const res = await fetch(`${sim.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } }).catch(() => null);
    if (res?.ok) {
      const { access_token } = (await res.json()) as { access_token: string };
      const jobs = await fetch(`${sim.url}/api/jobs?limit=1`, { headers: { authorization: `Bearer ${access_token}` } });
      await jobs.arrayBuffer();
      if (jobs.ok) break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { ms: performance.now() - t0, stop: (signal) => sim.stop(signal), url: sim.url, pid: sim.child.pid!, output: sim.output };
}

/**
 * The tenant's rate limits lifted, once (kept in the store, so every later start has them): on PostgreSQL the
 * rate windows outlive a process, and a start polled every 20 ms for its first token was answered 429 for as
 * long as the window lasted (24 s in one run), which timed the limiter, not the restart.
 */
async function liftLimits(url: string, output: string): Promise<void> {
  const tenantId = /^\s*tenant\s+(\S+)/m.exec(output)?.[1];
  const lifted = { limit: 1_000_000_000, windowMs: 60_000 };
  const res = await fetch(`${url}/_sim/tenants/${tenantId}/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${SIMULATOR_ENV.SIM_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimits: { read: lifted, write: lifted, upload: lifted } }),
  });
  if (!res.ok) throw new Error(`lifting the rate limits: ${res.status} ${await res.text()}`);
}

/** Writes while the process lives: persisted SIMA batches, one after another. */
async function writeUntilDead(url: string): Promise<number> {
  let written = 0;
  try {
    const res = await fetch(`${url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } });
    const { access_token } = (await res.json()) as { access_token: string };
    for (;;) {
      const r = await fetch(`${url}/api/sima/batch`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: '{"skus":null}' });
      await r.arrayBuffer();
      written++;
    }
  } catch {
    return written;
  }
}

const rows: string[] = [];
const server = values.postgres ? await startPostgres({ database: 'restart_bench' }) : undefined;
for (const mb of values.sizes!.split(',').map(Number)) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-restart-${mb}-`));
  const place: StorePlace = server ? { url: server.url } : { file: path.join(dir, 'store.json') };
  const size = async () => (server ? await databaseBytes(server.url) : storeBytes(dir)) / 2 ** 20;
  if (server) await emptyDatabase(server.url);
  const t0 = performance.now();
  await fill(place, Math.round((mb * 2 ** 20) / BYTES_PER_JOB));
  console.log(`${mb} MB asked: ${(await size()).toFixed(0)} MB of store written in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const times: number[] = [];
  let peakRss = 0;
  for (let kill = 0; kill <= Number(values.kills); kill++) {
    const started = await startTimed(place);
    times.push(started.ms);
    if (kill === 0) await liftLimits(started.url, started.output());
    peakRss = Math.max(peakRss, rssMb(started.pid));
    if (kill === Number(values.kills)) {
      await started.stop('SIGTERM');
      break;
    }
    // SIGKILL somewhere in the first 3 s of its run under writes (a compaction may be under way).
    const writes = writeUntilDead(started.url);
    await new Promise((r) => setTimeout(r, 50 + random() * 3000));
    await started.stop('SIGKILL');
    await writes;
  }
  const line = `${server ? 'PostgreSQL' : 'journal store'}, ${mb} MB asked, ${(await size()).toFixed(0)} MB stored: first start ${times[0].toFixed(0)} ms; after each SIGKILL ${times.slice(1).map((t) => t.toFixed(0)).join(', ')} ms; RSS once serving ${peakRss.toFixed(0)} MB`;
  console.log(line);
  rows.push(line);
  rmSync(dir, { recursive: true, force: true });
}
await server?.stop();
console.log(`\n${rows.join('\n')}\n${os.cpus().length} cores, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
