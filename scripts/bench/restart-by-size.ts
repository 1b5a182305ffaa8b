// Restart time against the store's size (issue 30 item 4): a store filled to each size (fill-store.ts:
// completed jobs written through the real store, the writer SIGKILLed), then the simulator started on it, SIGKILLed at a random point of its run under writes, and
// started again, `--kills` times. Each start is timed from spawn to its first real answer: an authenticated
// read of a job the fill wrote last (the store loaded and serving its records), not only a probe. The first
// list of the tenant's jobs is timed beside it: its `count` counts every job of the tenant, a cost of the
// list at that size (PostgreSQL: count(*) over the index) whether or not the process just started.
//
//   npm run bench:restart -- [--sizes 350,1024] (MB) [--kills 3] [--seed 1] [--journal | --postgres | --local]
//
// By default the on-disk store of `npm start` (SIM_DB, simulator/kernel/store/lmdb-store.ts); the size is its
// file's. --journal: the journal store (SIM_STORE=journal), whose start reads every record (its snapshot
// and journal files' size).
//
// --postgres: the same on the PostgreSQL store (SIM_STORE), a throwaway server from the machine's packages
// (simulator/testing/postgres-server.ts); the size is the database's (pg_database_size).
// --local: SIM_STORE=local, the server the sandbox runs itself (simulator/site/local-postgres.ts). A SIGKILL
// of the sandbox leaves that server running, so the last kill also SIGKILLs the server (power loss): that
// start runs pg_ctl start and the server's crash recovery before its first answer.
import { chmodSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchTempDir, machineDescription } from './cli.js';
import { rssMb, startSimulator, type BenchProcess } from './processes.js';
import { LIFTED_RATE_LIMITS, putTenantSettings, SIMULATOR_ENV } from './scenarios.js';
import { fillStore, storeFilesBytes, writeUntilDead } from './store-growth-scenario.js';
import postgres from 'postgres';
import { postmasterOf } from '../../simulator/kernel/store/postgres-binaries.js';
import { startLocalPostgres } from '../../simulator/site/local-postgres.js';
import { startPostgres } from '../../simulator/testing/postgres-server.js';

const { values } = parseArgs({ options: { postgres: { type: 'boolean', default: false }, local: { type: 'boolean', default: false }, journal: { type: 'boolean', default: false }, sizes: { type: 'string', default: '350,1024' }, kills: { type: 'string', default: '3' }, seed: { type: 'string', default: '1' } } });
const KEY = SIMULATOR_ENV.SIM_INTEGRATION_KEY;
/** Bytes a completed job takes in the store (measured: fill-store's records): the journal store's snapshot
 *  and journal, PostgreSQL's table with its nine indexes (1,708 MB for 611,669 jobs), the on-disk store's
 *  records and index entries (322 MB for 87,381 jobs). */
const BYTES_PER_JOB = values.postgres || values.local ? 2_900 : values.journal ? 600 : 3_900;
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

/** Where a store lives: the on-disk store's file, the journal store's, a PostgreSQL database, or the sandbox's
 *  own server (its directory, and the URL it answers at while the fill writes). */
type StorePlace = { file: string } | { journal: string } | { url: string } | { localDir: string; url: string };
const storeArgs = (place: StorePlace) => ('file' in place ? ['--file', place.file] : 'journal' in place ? ['--journal', place.journal] : ['--store-url', place.url]);
const storeEnv = (place: StorePlace): Record<string, string> =>
  'file' in place ? { SIM_DB: place.file } : 'journal' in place ? { SIM_STORE: `journal:${place.journal}` } : 'localDir' in place ? { SIM_STORE: `local:${place.localDir}` } : { SIM_STORE: place.url };

/** Spawn to the first answer of an authenticated read of `jobId` (the store loaded and serving), then the
 *  time of one list of the tenant's jobs. */
async function startTimed(place: StorePlace, jobId: string): Promise<{ ms: number; listMs: number; sim: BenchProcess }> {
  const t0 = performance.now();
  const sim = await startSimulator({ ...storeEnv(place), ...SIMULATOR_ENV, SIM_JOB_START_DELAY_MS: '0' }, 'simulator');
  for (;;) {
    const res = await fetch(`${sim.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } }).catch(() => null);
    if (res?.ok) {
      const { access_token } = (await res.json()) as { access_token: string };
      const bearer = { authorization: `Bearer ${access_token}` };
      const job = await fetch(`${sim.url}/api/jobs/${jobId}`, { headers: bearer });
      await job.arrayBuffer();
      if (job.status === 404) throw new Error(`the job the fill wrote last (${jobId}) is not in the store after a restart`);
      if (job.ok) {
        const ms = performance.now() - t0;
        const list = await fetch(`${sim.url}/api/jobs?limit=1`, { headers: bearer });
        await list.arrayBuffer();
        return { ms, listMs: performance.now() - t0 - ms, sim };
      }
    } else await res?.arrayBuffer();
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rows: string[] = [];
const server = values.postgres ? await startPostgres({ database: 'restart_bench' }) : undefined;
for (const mb of values.sizes!.split(',').map(Number)) {
  const dir = benchTempDir(`restart-${mb}`);
  // Run as root, the local server runs as the postgres user, which must pass through the directory.
  if (values.local) chmodSync(dir, 0o755);
  // The fill writes into the local server started here; the sandbox then takes it over, as after a crash.
  const local = values.local ? await startLocalPostgres({ dir }) : undefined;
  const place: StorePlace = server ? { url: server.url } : local ? { localDir: dir, url: local.url } : values.journal ? { journal: path.join(dir, 'store.json') } : { file: path.join(dir, 'store.mdb') };
  const size = async () => (server ? await databaseBytes(server.url) : local ? await databaseBytes(local.url) : storeFilesBytes(dir)) / 2 ** 20;
  if (server) await emptyDatabase(server.url);
  const t0 = performance.now();
  const { lastJobId } = await fillStore(storeArgs(place), Math.round((mb * 2 ** 20) / BYTES_PER_JOB));
  // The size the fill made (a last start's clean stop stops the local server, which then answers no query).
  const storedMb = await size();
  console.log(`${mb} MB asked: ${storedMb.toFixed(0)} MB of store written in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const times: number[] = [];
  const lists: number[] = [];
  let peakRss = 0;
  for (let kill = 0; kill <= Number(values.kills); kill++) {
    const started = await startTimed(place, lastJobId);
    times.push(started.ms);
    lists.push(started.listMs);
    // The tenant's rate limits lifted once (kept in the store, so every later start has them): on PostgreSQL the
    // rate windows outlive a process, and a start polled every 20 ms for its first token was answered 429 for
    // as long as the window lasted (24 s in one run), which timed the limiter, not the restart.
    if (kill === 0) await putTenantSettings(started.sim, { rateLimits: LIFTED_RATE_LIMITS });
    peakRss = Math.max(peakRss, rssMb(started.sim.child.pid!));
    if (kill === Number(values.kills)) {
      await started.sim.stop('SIGTERM');
      break;
    }
    // SIGKILL somewhere in the first 3 s of its run under writes (a compaction may be under way).
    const writes = writeUntilDead(started.sim.url);
    await new Promise((r) => setTimeout(r, 50 + random() * 3000));
    if (local && kill === Number(values.kills) - 1) process.kill(postmasterOf(local.dataDir)!.pid, 'SIGKILL');
    await started.sim.stop('SIGKILL');
    await writes;
  }
  const kills = times.slice(1).map((t) => t.toFixed(0));
  if (local) kills[kills.length - 1] += ' (the server killed too)';
  const line = `${server ? 'PostgreSQL' : local ? 'PostgreSQL run by the sandbox (SIM_STORE=local)' : values.journal ? 'journal store (SIM_STORE=journal)' : 'on-disk store (SIM_DB, the default)'}, ${mb} MB asked, ${storedMb.toFixed(0)} MB stored: first start ${times[0].toFixed(0)} ms; after each SIGKILL ${kills.join(', ')} ms; RSS once serving ${peakRss.toFixed(0)} MB; the first list of the tenant's jobs ${lists.map((t) => t.toFixed(0)).join(', ')} ms`;
  console.log(line);
  rows.push(line);
  rmSync(dir, { recursive: true, force: true });
}
await server?.stop();
console.log(`\n${rows.join('\n')}\n${machineDescription()}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
