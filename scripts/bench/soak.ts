// npm run soak — mixed traffic at a steady rate against the simulator as a real process (loopback only),
// for a bounded time (issue 15 item 7):
//
//   npm run soak -- [--minutes 10] [--rate 200] [--warmup-seconds 60] [--seed 20261121] [--mix integration|write-heavy]
//
// Open loop: arrivals are scheduled by the clock (`rate` per second), not by answers, so a slow server
// meets the same load instead of a gentler one. The mix (soak-traffic.ts) covers token exchanges, SIMA
// batches with Idempotency-Key (and replays), job polls, job lists, SIMA results pages, landed-cost quotes,
// catalog and feed uploads with the direct-apply flow, ship uploads, finding moves and claim submissions,
// webhooks to a local receiver, and deliberately invalid requests that must get their 4xx envelope.
// Targets: zero errors (soak-client.ts says what counts), and RSS after warm-up vs at the end growing less
// than 10 %. Exit code 1 when a target fails, 2 when the run exceeds its time budget.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bannerField, startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import { REQUEST_TIMEOUT_MS, SoakClient } from './soak-client.js';
import { growthPercent, seededRandom, settledAt, Tally, type MemorySample } from './soak-stats.js';
import { MIXES, Traffic, type MixName } from './soak-traffic.js';
import { startWebhookReceiver } from './soak-webhooks.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    'warmup-seconds': { type: 'string', default: '60' },
    seed: { type: 'string', default: '20261121' },
    mix: { type: 'string', default: 'integration' },
  },
});
if (!(values.mix! in MIXES)) throw new Error(`--mix must be one of ${Object.keys(MIXES).join(', ')}`);
const MIX = MIXES[values.mix as MixName];
const MINUTES = Number(values.minutes);
const RATE = Number(values.rate);
const WARMUP_MS = Number(values['warmup-seconds']) * 1000;
const SEED = Number(values.seed);
const TRAFFIC_MS = MINUTES * 60_000;
if (!(TRAFFIC_MS > WARMUP_MS) || !(RATE > 0) || !Number.isInteger(SEED)) throw new Error('need --minutes longer than --warmup-seconds, --rate > 0 and an integer --seed');
const RSS_TARGET_PERCENT = 10;
/** Arrivals beyond this many requests in flight are dropped and counted as errors (the server fell behind). */
const MAX_IN_FLIGHT = Math.max(100, RATE * 5);
const DRAIN_MS = 60_000;
const WEBHOOK_GRACE_MS = 20_000;
const SETTLE_WINDOW_MS = 15_000;
const KEY = 'tfk_soak_key';
const ADMIN = 'soak-admin';

// Everything is bounded: a hung server or request cannot keep the run (or the simulator) alive.
const dir = mkdtempSync(path.join(os.tmpdir(), 'soak-'));
let sim: SimulatorProcess | undefined;
process.on('exit', () => {
  if (sim && sim.child.exitCode === null && sim.child.signalCode === null) sim.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
const budgetMs = TRAFFIC_MS + 120_000 + DRAIN_MS + WEBHOOK_GRACE_MS;
setTimeout(() => {
  console.error(`soak exceeded its ${budgetMs / 1000} s budget`);
  process.exit(2);
}, budgetMs).unref();

const tally = new Tally();
const receiver = await startWebhookReceiver(tally);
const memoryFile = path.join(dir, 'memory.json');
sim = await startSimulatorProcess({
  SIM_DB: path.join(dir, 'store', 'store.mdb'),
  SIM_ADMIN_TOKEN: ADMIN,
  SIM_INTEGRATION_KEY: KEY,
  SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
  SIM_JOB_START_DELAY_MS: '50',
  SIM_JOB_PROCESSING_MS: '200',
  // --expose-gc: on SIGUSR2 the probe runs a full GC first, so the soak can read the live heap.
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc --import=${pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'soak-memory-probe.mjs')).href}`.trim(),
  SOAK_MEMORY_FILE: memoryFile,
});
const pid = sim.child.pid!;
let stopping = false;
const tenantId = bannerField(sim.output(), 'tenant');
if (!tenantId) throw new Error(`no tenant in the banner:\n${sim.output()}`);
sim.child.once('exit', (code, signal) => {
  if (!stopping) {
    console.error(`the simulator exited during the soak (${code ?? signal}):\n${sim!.output().slice(-3000)}`);
    process.exit(1);
  }
});

// The rate buckets and queue caps are lifted so 429s are not the traffic (sandbox control API).
const big = { limit: 100_000_000, windowMs: 60_000 };
const settings = await fetch(`${sim.url}/_sim/tenants/${tenantId}/settings`, {
  method: 'PUT',
  headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
  body: JSON.stringify({ rateLimits: { read: big, write: big, upload: big }, queueCaps: { total: 1_000_000, upload: 1_000_000, sima: 1_000_000, preview: 1_000_000 } }),
  signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
});
if (settings.status !== 200) throw new Error(`PUT settings answered ${settings.status}: ${await settings.text()}`);

const client = new SoakClient(sim.url, tally);
const traffic = new Traffic(client, seededRandom(SEED), KEY, receiver.url, MIX);
await traffic.exchangeToken();
await traffic.catalogUpload(); // the SKUs the SIMA batches screen
if (tally.errorCount) throw new Error(`set-up failed: ${JSON.stringify(Object.fromEntries(tally.errors))}`);

// Memory: VmRSS from /proc once a second, and the heap the probe wrote.
const samples: MemorySample[] = [];
const startedAt = performance.now();
const sampler = setInterval(() => {
  try {
    const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    let heapUsedMb: number | undefined;
    try {
      heapUsedMb = JSON.parse(readFileSync(memoryFile, 'utf8')).heapUsed / 2 ** 20;
    } catch {
      heapUsedMb = undefined;
    }
    samples.push({ at: performance.now() - startedAt, rssMb: rssKb / 1024, heapUsedMb });
  } catch {
    // the process is gone: its exit handler reports it
  }
}, 1000);

const storeBytes = () => {
  const walk = (d: string): number => readdirSync(d, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? walk(path.join(d, e.name)) : statSync(path.join(d, e.name)).size), 0);
  return walk(path.join(dir, 'store'));
};

// The open-loop schedule: every tick sends what the clock says is due.
console.log(`soak: ${MINUTES} min at ${RATE} req/s (warm-up ${WARMUP_MS / 1000} s), seed ${SEED}, simulator pid ${pid} at ${sim.url}`);
let sent = 0;
let inFlight = 0;
let dropped = 0;
let atWarmup: { requests: number; storeBytes: number } | undefined;
/** The heap left after a full GC (the probe's SIGUSR2 handler), MB: what the process holds. */
const liveHeapMb = async (): Promise<number | undefined> => {
  const liveFile = `${memoryFile}.live`;
  const before = (() => {
    try {
      return statSync(liveFile).mtimeMs;
    } catch {
      return 0;
    }
  })();
  sim!.child.kill('SIGUSR2');
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    try {
      if (statSync(liveFile).mtimeMs > before) return JSON.parse(readFileSync(liveFile, 'utf8')).heapUsed / 2 ** 20;
    } catch {
      // not written yet
    }
  }
  return undefined;
};
let liveAtWarmup: Promise<number | undefined> | undefined;
const inFlightDone = new Set<Promise<void>>();
await new Promise<void>((resolve) => {
  const ticker = setInterval(() => {
    const elapsed = performance.now() - startedAt;
    if (!atWarmup && elapsed >= WARMUP_MS) {
      atWarmup = { requests: tally.requestCount, storeBytes: storeBytes() };
      liveAtWarmup = liveHeapMb();
    }
    if (elapsed >= TRAFFIC_MS) {
      clearInterval(ticker);
      return resolve();
    }
    for (const due = Math.floor((elapsed * RATE) / 1000); sent < due; sent++) {
      if (inFlight >= MAX_IN_FLIGHT) {
        dropped++;
        continue;
      }
      inFlight++;
      const p: Promise<void> = traffic
        .next()
        .catch((error) => tally.error('soak script threw', String((error as Error).stack ?? error)))
        .finally(() => (inFlight--, inFlightDone.delete(p)));
      inFlightDone.add(p);
    }
  }, 5);
});
const trafficEnd = performance.now() - startedAt;
if (dropped) tally.error('arrivals dropped: too many requests in flight', `${dropped} arrivals while ${MAX_IN_FLIGHT} requests were in flight`);
await Promise.all(inFlightDone); // each request is bounded by REQUEST_TIMEOUT_MS
const [liveWarm, liveEnd] = [await liveAtWarmup, await liveHeapMb()];
const storeBytesAtTrafficEnd = storeBytes();

// Drain: every job enqueued must end, and COMPLETE (spec 3.1); then the webhooks must arrive (spec 6).
const drainDeadline = Date.now() + DRAIN_MS;
while (traffic.pending.size && Date.now() < drainDeadline) {
  await Promise.all(Array.from({ length: Math.min(20, traffic.pending.size) }, () => traffic.pollJob()));
  await new Promise((r) => setTimeout(r, 100));
}
for (const [id, job] of traffic.pending) tally.error(`job not ended ${DRAIN_MS / 1000} s after the traffic (${job.origin})`, id);
const missingHooks = () => [...traffic.webhookJobs].filter((id) => !receiver.received.has(id));
for (const deadline = Date.now() + WEBHOOK_GRACE_MS; missingHooks().length && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 250));
for (const id of missingHooks()) tally.error(`webhook not delivered ${WEBHOOK_GRACE_MS / 1000} s after the drain`, id);
clearInterval(sampler);
const endStoreBytes = storeBytes();

// Server-side errors: pino level 50 (error) and 60 (fatal) lines, e.g. an exception behind a 500.
const serverErrors = sim.output().split('\n').filter((line) => /"level":(50|60)/.test(line));
if (serverErrors.length) tally.error(`simulator logged ${serverErrors.length} error line(s)`, serverErrors[0]);

stopping = true;
await Promise.race([sim.kill('SIGTERM'), new Promise((r) => setTimeout(r, 10_000))]);
await receiver.close();

// Report.
const warm = settledAt(samples, WARMUP_MS, SETTLE_WINDOW_MS, 'rssMb');
const end = settledAt(samples, trafficEnd, SETTLE_WINDOW_MS, 'rssMb');
const growth = growthPercent(warm, end);
const heapWarm = settledAt(samples, WARMUP_MS, SETTLE_WINDOW_MS, 'heapUsedMb');
const heapEnd = settledAt(samples, trafficEnd, SETTLE_WINDOW_MS, 'heapUsedMb');
const peak = Math.max(...samples.map((s) => s.rssMb));
const measured = tally.requestCount - (atWarmup?.requests ?? 0);
const mb = (n: number) => `${n.toFixed(1)} MB`;
console.log(`\n## Soak: ${MINUTES} min at ${RATE} req/s, warm-up ${WARMUP_MS / 1000} s, seed ${SEED}`);
console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; mix ${values.mix} (weights) ${JSON.stringify(MIX)}\n`);
console.log(tally.table());
console.log(`\nrequests: ${tally.requestCount} (${(tally.requestCount / (trafficEnd / 1000)).toFixed(1)} req/s achieved; ${measured} after warm-up; scheduled ${sent}, dropped ${dropped})`);
console.log(`jobs: ${[...traffic.jobsByStatus.entries()].sort().map(([k, n]) => `${k}: ${n}`).join(', ')}`);
console.log(`webhooks: ${traffic.webhookJobs.size} jobs with a webhook completed, ${traffic.webhookJobs.size - missingHooks().length} heard (${receiver.deliveries} deliveries)`);
console.log(`ship: ${traffic.ship.findings.size} findings in the pool, ${traffic.ship.submissions.size} submissions active at the end`);
console.log(`RSS (median of the ${SETTLE_WINDOW_MS / 1000} s before): after warm-up ${mb(warm)}, at the end ${mb(end)}, growth ${growth.toFixed(1)} % (target < ${RSS_TARGET_PERCENT} %); peak ${mb(peak)}`);
console.log(`heap used (same windows): ${Number.isNaN(heapWarm) ? 'not available' : `${mb(heapWarm)} -> ${mb(heapEnd)} (${growthPercent(heapWarm, heapEnd).toFixed(1)} %)`}`);
// What the heap holds after a full GC against what the store wrote to disk in the same span: growth that
// tracks the stored data is data (every record lives in memory), growth without it would be a leak.
console.log(
  `live heap after a full GC: ${liveWarm === undefined || liveEnd === undefined ? 'not available' : `${mb(liveWarm)} -> ${mb(liveEnd)} (+${mb(liveEnd - liveWarm)})`}; store on disk in the same span +${mb((storeBytesAtTrafficEnd - (atWarmup?.storeBytes ?? 0)) / 2 ** 20)}`,
);
const timeline = samples.filter((s, i) => i % 30 === 29).map((s) => `${Math.round(s.at / 1000)}s ${s.rssMb.toFixed(0)}/${s.heapUsedMb?.toFixed(0) ?? '?'}`);
console.log(`RSS/heap MB every 30 s: ${timeline.join(', ')}`);
console.log(`store on disk (journal, snapshot, artifacts): ${mb((atWarmup?.storeBytes ?? 0) / 2 ** 20)} after warm-up -> ${mb(endStoreBytes / 2 ** 20)} at the end`);
console.log(`errors: ${tally.errorCount}`);
for (const [what, e] of tally.errors) console.log(`  ${e.count} x ${what}\n      e.g. ${e.example}`);
const failed = tally.errorCount > 0 || !(growth < RSS_TARGET_PERCENT);
console.log(`\n${failed ? 'FAIL' : 'PASS'}: errors ${tally.errorCount} (target 0), RSS growth ${growth.toFixed(1)} % (target < ${RSS_TARGET_PERCENT} %)`);
process.exit(failed ? 1 : 0);
