// Large inputs (issue 15): each one through the simulator running as a real process with its durable store,
// from upload to job done, with the time to the 202, the time until the job ended, and the server
// process's peak resident set (VmHWM, /proc on Linux) against the 600 MB target. One fresh server per
// input, so each peak is that input's alone. Spec 8.3 caps an upload at 50 MB, so the large files are
// 49 MB. The inputs:
//   catalog     POST /api/catalog/upload, a 49 MB catalog CSV (rows into the catalog)
//   feed        POST /api/trade/feeds/upload, a 49 MB trade feed normalized to the end
//   shipments   POST /api/ship/upload, 100,000 packages audited (the carrier agreement uploaded first)
//   screening   POST /api/upload, a 100,000-row catalog: rows into the catalog, then every SKU screened
//   sima-batch  POST /api/sima/batch with `skus: null` (the whole catalog: spec 4.2) after a 100,000-row
//               catalog upload; the contract caps a `skus` list at 10,000 items, so 100,000 SKUs can only
//               be screened as "all catalog SKUs". Its peak covers the catalog upload before it too.
//
//   npm run bench:large [-- --only catalog,feed,shipments,screening,sima-batch] [--max-old-space MB] [--node-options "..."] [--journal]
//   (--journal: the servers run the journal store, SIM_STORE=journal, instead of the default on-disk store)
//
// A report, not an assertion (the exit code is 1 when an input fails or misses the target).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateShipmentFile } from '#fixtures/freight/generate-shipments.js';
import { writeLargeCatalogCsv, writeLargeFeedCsvOfSize } from '../../simulator/testing/large-catalog.js';
import { storeFilesBytes } from './store-growth-scenario.js';
import { memoryOf, RSS_TARGET_MB, startUploadServer, type UploadServer } from './upload-server.js';

export const LARGE_INPUTS = ['catalog', 'feed', 'shipments', 'screening', 'sima-batch'] as const;
export type LargeInputName = (typeof LARGE_INPUTS)[number];

export interface LargeInputOptions {
  /** Which inputs to run (default: all, in LARGE_INPUTS order). */
  only?: readonly LargeInputName[];
  /** Upload file size in MB (default 49: spec 8.3 caps uploads at 50 MB). */
  fileMb?: number;
  /** Rows of the shipment file and of the screened catalogs (default 100,000). */
  rows?: number;
  /** Caps the server's heap (--max-old-space-size), to find the live size. */
  maxOldSpaceMb?: string;
  /** More NODE_OPTIONS for the server (--heap-prof, --trace-gc). */
  nodeOptions?: string;
  /** Runs the servers on the journal store (SIM_STORE=journal) instead of the default on-disk store. */
  journal?: boolean;
  /** How long one job may take before the input is reported failed (default 20 minutes). */
  jobTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface LargeInputResult {
  name: LargeInputName;
  endpoint: string;
  sizeMb: number;
  rows: number;
  /** Seconds from sending the upload (or batch) to its 202. */
  acceptedS: number | null;
  /** Seconds from sending it to its job's end. */
  doneS: number | null;
  /** The job's final status, or the error that stopped the input. */
  status: string;
  peakRssMb: number | null;
  /** The store's files at the job's end (not its artifacts): what the rows cost on disk. */
  storeMb: number | null;
  pass: boolean;
}

const FEED_FORM = { originCountry: 'CN', defaultDestinationCountry: 'CA' };
const AGREEMENT = fileURLToPath(new URL('../../fixtures/freight/agreement-fedex.csv', import.meta.url));
const seconds = (ms: number) => +(ms / 1000).toFixed(1);

// What an interrupted run (Ctrl-C, a timeout's SIGTERM) would leave behind: removed on the way out.
const liveDirs = new Set<string>();
const liveServers = new Set<UploadServer>();
process.once('exit', () => {
  for (const s of liveServers) if (s.server.child.exitCode === null) s.server.child.kill('SIGKILL');
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
});

interface Prepared {
  endpoint: string;
  file: string;
  rows: number;
  /** What runs on the fresh server before the measured request (sima-batch: the catalog upload). */
  before?: (server: UploadServer, waitFor: (jobId: string) => Promise<Record<string, any>>) => Promise<void>;
  send: (server: UploadServer) => Promise<{ jobId: string }>;
}

async function prepare(name: LargeInputName, dir: string, fileMb: number, rows: number): Promise<Prepared> {
  const bytes = fileMb * 1024 * 1024;
  const file = path.join(dir, `${name}.csv`);
  switch (name) {
    case 'catalog': {
      const written = await writeLargeCatalogCsv(file, bytes);
      return { endpoint: '/api/catalog/upload', file, rows: written, send: (s) => s.upload('/api/catalog/upload', file) };
    }
    case 'feed': {
      const written = await writeLargeFeedCsvOfSize(file, bytes);
      return { endpoint: '/api/trade/feeds/upload', file, rows: written, send: (s) => s.upload('/api/trade/feeds/upload', file, FEED_FORM) };
    }
    case 'shipments': {
      await generateShipmentFile(rows, file);
      return {
        endpoint: '/api/ship/upload',
        file,
        rows,
        before: async (s, waitFor) => void (await waitFor((await s.upload('/api/carrier/agreements/upload', AGREEMENT)).jobId)),
        send: (s) => s.upload('/api/ship/upload', file),
      };
    }
    case 'screening': {
      const written = await writeLargeCatalogCsv(file, Number.POSITIVE_INFINITY, rows);
      return { endpoint: '/api/upload', file, rows: written, send: (s) => s.upload('/api/upload', file) };
    }
    case 'sima-batch': {
      const written = await writeLargeCatalogCsv(file, Number.POSITIVE_INFINITY, rows);
      return {
        endpoint: '/api/sima/batch',
        file,
        rows: written,
        before: async (s, waitFor) => void (await waitFor((await s.upload('/api/catalog/upload', file)).jobId)),
        send: (s) => s.enqueue('/api/sima/batch', { skus: null, runPolicy: 'always', screeningAuthority: 'CA' }),
      };
    }
  }
}

async function runOne(name: LargeInputName, dir: string, options: LargeInputOptions): Promise<LargeInputResult> {
  const log = options.log ?? (() => {});
  const jobTimeoutMs = options.jobTimeoutMs ?? 20 * 60_000;
  const prepared = await prepare(name, dir, options.fileMb ?? 49, options.rows ?? 100_000);
  const sizeMb = +(statSync(prepared.file).size / 1024 / 1024).toFixed(1);
  const result: LargeInputResult = { name, endpoint: prepared.endpoint, sizeMb, rows: prepared.rows, acceptedS: null, doneS: null, status: 'NOT STARTED', peakRssMb: null, storeMb: null, pass: false };
  log(`${name}: ${sizeMb} MB, ${prepared.rows} rows -> ${prepared.endpoint}`);
  let server: UploadServer | undefined;
  try {
    const storeFile = path.join(dir, `${name}-store.${options.journal ? 'json' : 'mdb'}`);
    server = await startUploadServer(storeFile, options.maxOldSpaceMb, options.nodeOptions, options.journal);
    liveServers.add(server);
    const waitFor = (jobId: string) => server!.waitFor(jobId, jobTimeoutMs);
    await prepared.before?.(server, waitFor);
    const started = performance.now();
    const { jobId } = await prepared.send(server);
    result.acceptedS = seconds(performance.now() - started);
    const job = await waitFor(jobId);
    result.doneS = seconds(performance.now() - started);
    result.status = job.status === 'FAILED' ? `FAILED: ${JSON.stringify(job.error).slice(0, 200)}` : job.status;
    result.peakRssMb = memoryOf(server.pid).peak;
    // The store's files (a journal store's snapshot and journals, or the on-disk store's file), not its artifacts.
    result.storeMb = Math.round(storeFilesBytes(dir, path.basename(storeFile)) / 2 ** 20);
  } catch (error) {
    result.status = `ERROR: ${(error as Error).message}`;
    if (server) {
      if (server.server.child.exitCode === null) result.peakRssMb = memoryOf(server.pid).peak;
      log(`${name}: server exit ${server.server.child.exitCode ?? server.server.child.signalCode ?? '(running)'}; its last output:\n${server.server.output().slice(-2000)}`);
    }
  } finally {
    await server?.server.kill();
    if (server) liveServers.delete(server);
    rmSync(prepared.file, { force: true });
  }
  result.pass = result.status === 'COMPLETED' && result.peakRssMb !== null && result.peakRssMb < RSS_TARGET_MB;
  return result;
}

/** Runs each input through its own fresh server, in a temp directory removed at the end. */
export async function runLargeInputs(options: LargeInputOptions = {}): Promise<LargeInputResult[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-large-'));
  liveDirs.add(dir);
  try {
    const results: LargeInputResult[] = [];
    for (const name of options.only ?? LARGE_INPUTS) results.push(await runOne(name, dir, options));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    liveDirs.delete(dir);
  }
}

/** The results as a fixed-width table. */
export function formatLargeInputs(results: readonly LargeInputResult[]): string {
  const header = ['input', 'endpoint', 'MB', 'rows', 's to 202', 's to done', 'peak RSS MB', `< ${RSS_TARGET_MB} MB`, 'store MB', 'status'];
  const rows = results.map((r) => [r.name, r.endpoint, r.sizeMb.toFixed(1), String(r.rows), String(r.acceptedS ?? '-'), String(r.doneS ?? '-'), String(r.peakRssMb ?? '-'), r.pass ? 'yes' : 'NO', String(r.storeMb ?? '-'), r.status]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130)); // runs the exit clean-up
  const { values } = parseArgs({ options: { only: { type: 'string' }, 'max-old-space': { type: 'string' }, 'node-options': { type: 'string' }, mb: { type: 'string' }, rows: { type: 'string' }, journal: { type: 'boolean' } } });
  const only = values.only?.split(',').map((s) => s.trim()) as LargeInputName[] | undefined;
  for (const name of only ?? []) if (!LARGE_INPUTS.includes(name)) throw new Error(`--only takes ${LARGE_INPUTS.join(', ')}, not ${name}`);
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs${values['max-old-space'] ? `, server --max-old-space-size=${values['max-old-space']}` : ''}${values.journal ? ', journal store' : ''}`);
  const results = await runLargeInputs({
    only,
    fileMb: values.mb ? Number(values.mb) : undefined,
    rows: values.rows ? Number(values.rows) : undefined,
    maxOldSpaceMb: values['max-old-space'],
    nodeOptions: values['node-options'],
    journal: values.journal,
    log: (line) => console.log(line),
  });
  console.log(formatLargeInputs(results));
  process.exitCode = results.every((r) => r.pass) ? 0 : 1;
}
