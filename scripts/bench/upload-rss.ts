// npm run bench:upload-rss — a ~49 MB catalog CSV (spec 8.3 caps uploads at 50 MB) uploaded to the simulator
// running as a real process, the way an integrator's sandbox runs: the time to the 202, the time until the
// job is COMPLETED, and the server process's peak resident set (VmHWM from /proc, Linux) against the 600 MB
// target. One fresh server per endpoint, so each peak is that upload's alone:
//
//   npm run bench:upload-rss [-- --endpoint catalog|screening|feed|both] [--mb 49] [--feed-rows 200000] [--max-old-space MB]
//
// `catalog` is POST /api/catalog/upload (rows into the catalog); `screening` is POST /api/upload (rows into
// the catalog, then every SKU screened: a SIMA result per row); `feed` is POST /api/trade/feeds/upload with a
// feed of `--feed-rows` SKUs (default 200,000) normalized to the end. A report, not an assertion.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeLargeCatalogCsv, writeLargeFeedCsv } from '../../simulator/testing/large-catalog.js';
import type { SimulatorProcess } from '../../simulator/testing/process.js';
import { memoryOf, RSS_TARGET_MB, startUploadServer } from './upload-server.js';

const { values } = parseArgs({ options: { endpoint: { type: 'string', default: 'both' }, mb: { type: 'string', default: '49' }, 'feed-rows': { type: 'string', default: '200000' }, 'max-old-space': { type: 'string' } } });
const ENDPOINTS = { catalog: '/api/catalog/upload', screening: '/api/upload', feed: '/api/trade/feeds/upload' } as const;
const chosen = values.endpoint === 'both' ? (['catalog', 'screening'] as const) : [values.endpoint as keyof typeof ENDPOINTS];
for (const e of chosen) if (!(e in ENDPOINTS)) throw new Error(`--endpoint must be catalog, screening, feed or both, not ${e}`);
const JOB_TIMEOUT_MS = 20 * 60_000;
const FEED_DEFAULTS = { originCountry: 'CN', defaultDestinationCountry: 'CA' };

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-upload-rss-'));
const servers: SimulatorProcess[] = [];
process.on('exit', () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function measure(endpoint: keyof typeof ENDPOINTS, file: string, rows: number) {
  const { server, pid, upload, waitFor } = await startUploadServer(path.join(dir, `${endpoint}-store.json`), values['max-old-space']);
  servers.push(server);
  const before = memoryOf(pid);
  const started = performance.now();
  const { jobId } = await upload(ENDPOINTS[endpoint], file, endpoint === 'feed' ? FEED_DEFAULTS : {});
  const acceptedMs = performance.now() - started;
  const job = await waitFor(jobId, JOB_TIMEOUT_MS);
  const doneMs = performance.now() - started;
  const after = memoryOf(pid);
  await server.kill();
  return { endpoint, rows, status: job.status, reconciliation: job.reconciliation, acceptedS: +(acceptedMs / 1000).toFixed(1), completedS: +(doneMs / 1000).toFixed(1), rssBeforeMb: before.rss, rssAfterMb: after.rss, peakRssMb: after.peak, target: after.peak < RSS_TARGET_MB ? 'met' : 'missed' };
}

console.log(`Node ${process.version}${values['max-old-space'] ? `, server --max-old-space-size=${values['max-old-space']}` : ''}`);
const catalogFile = path.join(dir, 'large-catalog.csv');
const feedFile = path.join(dir, 'large-feed.csv');
for (const endpoint of chosen) {
  try {
    const file = endpoint === 'feed' ? feedFile : catalogFile;
    let rows: number;
    if (endpoint === 'feed') {
      rows = Number(values['feed-rows']);
      await writeLargeFeedCsv(file, rows);
    } else rows = await writeLargeCatalogCsv(file, Number(values.mb) * 1024 * 1024);
    console.log(`${endpoint}: file ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB, ${rows} rows`);
    console.log(JSON.stringify(await measure(endpoint, file, rows)));
  } catch (error) {
    const server = servers.at(-1);
    console.error(`${endpoint}: ${(error as Error).message} ${String((error as Error).cause ?? "")}${server ? `\nserver exit ${server.child.exitCode ?? server.child.signalCode}; its last output:\n${server.output().slice(-3000)}` : ''}`);
    process.exitCode = 1;
  }
}
process.exit();
