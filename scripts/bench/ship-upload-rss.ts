// npx tsx scripts/bench/ship-upload-rss.ts [--rows 100000] [--max-old-space MB] — a generated shipment
// file (fixtures/freight/generate-shipments.ts; every 20th package raises a finding) audited by the
// simulator running as a real process: the carrier agreement uploaded first, then POST /api/ship/upload,
// the time to the 202, the time until the ship_upload job is COMPLETED, and the server process's peak
// resident set (VmHWM from /proc, Linux) against the 600 MB target (issue 12). A report, not an assertion.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateShipmentFile } from '../../fixtures/freight/generate-shipments.js';
import type { SimulatorProcess } from '../../simulator/testing/process.js';
import { memoryOf, RSS_TARGET_MB, startUploadServer } from './upload-server.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, 'max-old-space': { type: 'string' } } });
const JOB_TIMEOUT_MS = 30 * 60_000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ship-rss-'));
let server: SimulatorProcess | undefined;
process.on('exit', () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const rows = Number(values.rows);
const file = path.join(dir, `shipments-${rows}.csv`);
const generated = await generateShipmentFile(rows, file);
const benchServer = await startUploadServer(path.join(dir, 'store.json'), values['max-old-space']);
server = benchServer.server;
const { pid, upload, waitFor: waitForJob } = benchServer;
const waitFor = (jobId: string) => waitForJob(jobId, JOB_TIMEOUT_MS);
const agreement = await upload('/api/carrier/agreements/upload', path.resolve('fixtures/freight/agreement-fedex.csv'));
await waitFor(agreement.jobId);
const before = memoryOf(pid);
const started = performance.now();
const { jobId } = await upload('/api/ship/upload', file);
const acceptedMs = performance.now() - started;
const job = await waitFor(jobId);
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
      target: after.peak < RSS_TARGET_MB ? 'met' : 'missed',
    },
    null,
    2,
  ),
);
