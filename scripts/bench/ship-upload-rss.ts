// npx tsx scripts/bench/ship-upload-rss.ts [--rows 100000] [--max-old-space MB] — a generated shipment
// file (fixtures/freight/generate-shipments.ts; every 20th package raises a finding) audited by the
// simulator running as a real process: the carrier agreement uploaded first, then POST /api/ship/upload,
// the time to the 202, the time until the ship_upload job is COMPLETED, and the server process's peak
// resident set (VmHWM from /proc, Linux) against the 600 MB target (issue 12). A report, not an assertion.
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateShipmentFile } from '../../fixtures/freight/generate-shipments.js';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, 'max-old-space': { type: 'string' } } });
const KEY = 'tfk_bench_ship_upload';
const ADMIN = 'bench-admin';
const TARGET_MB = 600;
const JOB_TIMEOUT_MS = 30 * 60_000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ship-rss-'));
let server: SimulatorProcess | undefined;
process.on('exit', () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function json(res: Response, expected: number) {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${res.url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function upload(token: string, endpoint: string, file: string) {
  const form = new FormData();
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
  return json(await fetch(`${server!.url}${endpoint}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }), 202);
}

async function waitFor(token: string, jobId: string) {
  for (const deadline = Date.now() + JOB_TIMEOUT_MS; ; await new Promise((r) => setTimeout(r, 500))) {
    const job = await json(await fetch(`${server!.url}/api/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` } }), 200);
    if (job.status === 'COMPLETED' || job.status === 'FAILED') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${JOB_TIMEOUT_MS / 1000} s`);
  }
}

const rows = Number(values.rows);
const file = path.join(dir, `shipments-${rows}.csv`);
const generated = await generateShipmentFile(rows, file);
server = await startSimulatorProcess({
  SIM_DB: path.join(dir, 'store.json'),
  SIM_ADMIN_TOKEN: ADMIN,
  SIM_INTEGRATION_KEY: KEY,
  SIM_JOB_START_DELAY_MS: '10',
  SIM_JOB_PROCESSING_MS: '20',
  ...(values['max-old-space'] ? { NODE_OPTIONS: `--max-old-space-size=${values['max-old-space']}` } : {}),
});
const pid = server.child.pid!;
const { access_token: token } = await json(await fetch(`${server.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } }), 200);
const agreement = await upload(token, '/api/carrier/agreements/upload', path.resolve('fixtures/freight/agreement-fedex.csv'));
await waitFor(token, agreement.jobId);
const before = memoryOf(pid);
const started = performance.now();
const { jobId } = await upload(token, '/api/ship/upload', file);
const acceptedMs = performance.now() - started;
const job = await waitFor(token, jobId);
const doneMs = performance.now() - started;
const after = memoryOf(pid);
await server.kill();
console.log(
  JSON.stringify(
    {
      rows,
      fileMb: +(statSync(file).size / 1024 / 1024).toFixed(1),
      expectedFlagged: generated.flagged,
      status: job.status,
      error: job.error,
      reconciliation: job.reconciliation,
      outcomes: job.outcomes,
      findingsCreated: job.result?.findingsCreated,
      acceptedS: +(acceptedMs / 1000).toFixed(1),
      completedS: +(doneMs / 1000).toFixed(1),
      rssBeforeMb: before.rss,
      rssAfterMb: after.rss,
      peakRssMb: after.peak,
      target: after.peak < TARGET_MB ? 'met' : 'missed',
    },
    null,
    2,
  ),
);
