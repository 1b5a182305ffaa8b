// Store growth (issue 15 items 1-2): persisted POST /api/sima/batch against an empty store and against a
// store of N records left by a crash (fill-store.ts --crash: every record still in the journal, a
// compaction possibly cut short), in alternating rounds; the first start on the large store is the
// "start-up after a crash" figure.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { median, type Round } from './load.js';
import { ROOT, startSimulator } from './processes.js';
import { prepareSimulatorState, runScenarioRounds, SIMULATOR_ENV, simulatorTarget } from './scenarios.js';

export interface StoreGrowthResult {
  records: number;
  fillSeconds: number;
  afterCrashStartupMs: number;
  emptyStartupMs: number;
  empty: Round[];
  large: Round[];
  /** Median large/empty throughput. */
  ratio: number;
}

/** What fill-store wrote: its summary line. */
export interface FilledStore {
  tenantId: string;
  records: number;
  /** The id of the last job written (a record a start must be able to read). */
  lastJobId: string;
}

/**
 * fill-store.ts as its own process: `records` completed jobs written into the store `storeArgs` names
 * (`--file F` or `--store-url URL`), then the writer SIGKILLed (the records still in the journal). Its heap
 * is raised: a gigabyte of records stays in its memory while it writes.
 */
/** Bytes of the files in `dir` whose name starts with `prefix` (a store's files; its artifacts directory
 *  and anything else that is not a file are left out). */
export function storeFilesBytes(dir: string, prefix = ''): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isFile() && entry.name.startsWith(prefix)) bytes += statSync(path.join(dir, entry.name)).size;
  return bytes;
}

/** Persisted SIMA batches of the default tenant, one after another, until the simulator at `url` dies (a
 *  SIGKILL under writes): answers how many were answered. */
export async function writeUntilDead(url: string): Promise<number> {
  let written = 0;
  try {
    const res = await fetch(`${url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': SIMULATOR_ENV.SIM_INTEGRATION_KEY } });
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

export function fillStore(storeArgs: string[], records: number): Promise<FilledStore> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', 'scripts/bench/fill-store.ts', ...storeArgs, '--records', String(records), '--crash', '--key', SIMULATOR_ENV.SIM_INTEGRATION_KEY, '--admin', SIMULATOR_ENV.SIM_ADMIN_TOKEN], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
    // It kills itself once every record is acknowledged: SIGKILL after the summary line is success.
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const summary = /^\{.*"records".*\}$/m.exec(out)?.[0];
      if (signal === 'SIGKILL' && summary) resolve(JSON.parse(summary) as FilledStore);
      else reject(new Error(`fill-store ended with ${code ?? signal}:\n${out}`));
    });
  });
}

export async function measureStoreGrowth(options: { seconds: number; rounds: number; warmup: number; connections: number; records: number; tmp: (name: string) => string }): Promise<StoreGrowthResult> {
  const largeFile = path.join(options.tmp('store-large'), 'store.mdb');
  const t0 = performance.now();
  await fillStore(['--file', largeFile], options.records);
  const fillSeconds = (performance.now() - t0) / 1000;
  console.log(`store growth: ${options.records.toLocaleString('en')} records written and the writer killed in ${fillSeconds.toFixed(1)} s`);
  const large = await startSimulator({ SIM_DB: largeFile, SIM_CONTRACT: 'all', ...SIMULATOR_ENV }, 'simulator (large store)');
  const empty = await startSimulator({ SIM_DB: path.join(options.tmp('store-empty'), 'store.mdb'), SIM_CONTRACT: 'all', ...SIMULATOR_ENV }, 'simulator (empty store)');
  try {
    const emptyTarget = { ...simulatorTarget(empty, await prepareSimulatorState(empty)), name: 'empty' };
    const largeTarget = { ...simulatorTarget(large, await prepareSimulatorState(large)), name: 'large' };
    const rounds = await runScenarioRounds('sima-batch', [emptyTarget, largeTarget], options);
    const [emptyRounds, largeRounds] = [rounds.empty, rounds.large];
    return {
      records: options.records,
      fillSeconds,
      afterCrashStartupMs: large.startupMs,
      emptyStartupMs: empty.startupMs,
      empty: emptyRounds,
      large: largeRounds,
      ratio: median(largeRounds.map((r) => r.perSecond)) / median(emptyRounds.map((r) => r.perSecond)),
    };
  } finally {
    await Promise.all([large.stop(), empty.stop()]);
  }
}
