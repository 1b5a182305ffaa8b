// npm run bench:get-job — authenticated GET /api/jobs/{id} per second (and p50/p99) of the simulator as a
// real process, optionally against a baseline source tree in the same run:
//
//   npm run bench:get-job -- --baseline ../old-checkout [--current DIR] [--connections 10] [--seconds 5]
//                            [--rounds 3] [--warmup 2] [--log-level silent]
//
// A baseline is a checkout of an older commit with its own node_modules (or a symlink to ours). Each tree's
// simulator runs from that tree (`node --import tsx <tree>/simulator/main.ts`, cwd = tree, so it also loads
// that tree's tsx and dependencies). Rounds alternate between the trees so drift on the machine (other
// processes, thermal) hits both; the result is a ratio from one run, never a timed assertion.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    current: { type: 'string', default: ROOT },
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    // silent by default (pino's methods become no-ops); `--log-level info` shows what the request log line costs.
    'log-level': { type: 'string', default: 'silent' },
  },
});
const CONNECTIONS = Number(values.connections);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const KEY = 'tfk_bench_key';
const ADMIN = 'bench-admin';
const REQUEST_TIMEOUT_MS = 10_000;

// Everything is bounded: start-up, set-up, every request, and the whole run (a hung server or client cannot
// keep the process, or its children, alive).
const trees = [{ label: 'current', dir: path.resolve(values.current!) }, ...(values.baseline ? [{ label: 'baseline', dir: path.resolve(values.baseline) }] : [])];
for (const t of trees) if (!existsSync(path.join(t.dir, 'simulator', 'main.ts'))) throw new Error(`${t.label}: no simulator/main.ts in ${t.dir}`);
const budgetMs = trees.length * (90_000 + (WARMUP + ROUNDS * SECONDS) * 1000 + 30_000);
const children = new Set<ChildProcess>();
const tempDirs: string[] = [];
const killAll = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
};
process.on('exit', killAll); // also runs after an uncaught error; SIGKILL because nothing awaits here
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
setTimeout(() => {
  console.error(`bench exceeded its ${budgetMs / 1000} s budget`);
  process.exit(2);
}, budgetMs).unref();

interface Server {
  label: string;
  dir: string;
  url: string;
  token: string;
  jobPath: string;
  child: ChildProcess;
}

// Inlined rather than imported so the bench depends on nothing of the tree it measures.
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** Like simulator/testing/process.ts, but for any tree: cwd and entry point are that tree's. */
async function launch(dir: string): Promise<{ url: string; tenantId: string; child: ChildProcess }> {
  const port = await freePort();
  const data = mkdtempSync(path.join(os.tmpdir(), 'bench-get-job-'));
  tempDirs.push(data);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'simulator', 'main.ts')], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SIM_DB: path.join(data, 'store.mdb'),
      SIM_ADMIN_TOKEN: ADMIN,
      SIM_INTEGRATION_KEY: KEY,
      // The job completes within a few ms and is then read in its final state (a stable body every round).
      SIM_JOB_START_DELAY_MS: '10',
      SIM_JOB_PROCESSING_MS: '20',
      LOG_LEVEL: values['log-level'],
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let log = '';
  // Keep draining both pipes for the whole run: a full pipe would block the server's writes.
  child.stdout!.on('data', (d: Buffer) => (log.length < 100_000 ? (log += d.toString()) : undefined));
  child.stderr!.on('data', (d: Buffer) => (log.length < 100_000 ? (log += d.toString()) : undefined));
  const tenantId = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`simulator in ${dir} did not start within 60 s:\n${log}`)), 60_000);
    const poll = setInterval(() => {
      const m = /^\s*tenant\s+(\S+)/m.exec(log); // the banner is written in one go, after listen
      if (m) done(null, m[1]);
    }, 25);
    const onExit = (code: number | null) => done(new Error(`simulator in ${dir} exited with ${code}:\n${log}`));
    child.once('exit', onExit);
    child.once('error', (e) => done(e)); // e.g. node cannot be spawned
    function done(err: Error | null, id?: string) {
      clearInterval(poll);
      clearTimeout(timer);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(id!);
    }
  });
  return { url: `http://127.0.0.1:${port}`, tenantId, child };
}

async function call(url: string, init: RequestInit & { expect: number }): Promise<unknown> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await res.text();
  if (res.status !== init.expect) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

async function prepare(label: string, dir: string): Promise<Server> {
  const { url, tenantId, child } = await launch(dir);
  const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  // The read bucket (240/min by default) would answer 429 within the first second of load.
  await call(`${url}/_sim/tenants/${tenantId}/settings`, { method: 'PUT', headers: admin, body: JSON.stringify({ rateLimits: { read: { limit: 100_000_000, windowMs: 60_000 } } }), expect: 200 });
  const { access_token: token } = (await call(`${url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY }, expect: 200 })) as { access_token: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const { jobId } = (await call(`${url}/api/sima/batch`, { method: 'POST', headers: auth, body: JSON.stringify({ skus: ['UDS-CHAIR-01'] }), expect: 202 })) as { jobId: string };
  const jobPath = `/api/jobs/${encodeURIComponent(jobId)}`;
  for (const deadline = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const job = (await call(url + jobPath, { headers: auth, expect: 200 })) as { status: string };
    if (job.status === 'COMPLETED') break;
    if (Date.now() > deadline) throw new Error(`${label}: job ${jobId} still ${job.status} after 15 s`);
  }
  return { label, dir, url, token, jobPath, child };
}

interface Round {
  perSecond: number;
  p50: number;
  p99: number;
  requests: number;
  sockets: number;
  cpuUsPerReq: number;
}

/** CONNECTIONS closed-loop clients on keep-alive sockets, each sending its next GET when the last answers. */
async function hammer(s: Server, seconds: number): Promise<Round> {
  // A fresh agent per round: the other tree's round outlasts the server's 5 s keep-alive timeout, and a
  // socket closed by the server while we reuse it would show up as a spurious error.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(s.url);
  const latencies: number[] = [];
  const bad = new Map<string, number>();
  let sockets = 0;
  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get({ agent, hostname, port, path: s.jobPath, headers: { authorization: `Bearer ${s.token}` }, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        res.resume(); // the body is read (and discarded) so the socket returns to the agent
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t0);
          else bad.set(String(res.statusCode), (bad.get(String(res.statusCode)) ?? 0) + 1);
          resolve();
        });
      });
      req.on('socket', () => (req.reusedSocket ? undefined : sockets++));
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => (bad.set(e.message, (bad.get(e.message) ?? 0) + 1), resolve()));
    });
  const cpu0 = cpuMs(s.child.pid);
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => { while (performance.now() < end) await once(); }));
  const elapsed = (performance.now() - started) / 1000; // includes the requests in flight at the deadline
  agent.destroy();
  if (bad.size) throw new Error(`${s.label}: non-200 answers or errors: ${JSON.stringify(Object.fromEntries(bad))}`);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  // The server's CPU time per request barely moves when other processes take cores away, unlike req/s.
  const cpuUsPerReq = ((cpuMs(s.child.pid) - cpu0) * 1000) / latencies.length;
  return { perSecond: latencies.length / elapsed, p50: pct(50), p99: pct(99), requests: latencies.length, sockets, cpuUsPerReq };
}

/** utime + stime of a process in ms (Linux /proc, 100 ticks/s; NaN elsewhere). */
const cpuMs = (pid: number | undefined) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
};

const git = (dir: string) =>
  new Promise<string>((resolve) => {
    const p = spawn('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', () => resolve(out.trim() || '?'));
    p.on('error', () => resolve('?'));
  });

const servers: Server[] = [];
for (const t of trees) servers.push(await prepare(t.label, t.dir)); // one at a time: start-up is CPU-bound
console.log(`${servers.map((s) => `${s.label}: ${s.dir} (${s.url})`).join('\n')}`);
for (const s of servers) await hammer(s, WARMUP); // JIT, caches, first-request paths
const results = new Map<string, Round[]>(servers.map((s) => [s.label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const s of round % 2 === 0 ? servers : [...servers].reverse()) {
    const r = await hammer(s, SECONDS);
    results.get(s.label)!.push(r);
    console.log(`round ${round + 1} ${s.label.padEnd(8)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  server CPU ${r.cpuUsPerReq.toFixed(0)} µs/req  (${r.requests} requests, ${r.sockets} sockets)`);
  }
}

const commits = await Promise.all(servers.map((s) => git(s.dir)));
console.log(`\nGET /api/jobs/{id}: ${ROUNDS} alternating rounds of ${SECONDS} s after ${WARMUP} s warm-up, ${CONNECTIONS} keep-alive connections, LOG_LEVEL=${values['log-level']}, ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
console.log('| tree | HEAD | req/s per round | median req/s | p50 ms (median) | p99 ms (median) | server CPU µs/req (median) |');
console.log('|---|---|---|--:|--:|--:|--:|');
servers.forEach((s, i) => {
  const rs = results.get(s.label)!;
  console.log(`| ${s.label} | ${commits[i]} | ${rs.map((r) => r.perSecond.toFixed(0)).join(', ')} | ${median(rs.map((r) => r.perSecond)).toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ${median(rs.map((r) => r.cpuUsPerReq)).toFixed(0)} |`);
});
if (servers.length === 2) {
  // Each round's two halves run back to back, so their ratio cancels slower drift (other load on the
  // machine) better than the ratio of medians; the per-round values say how far to trust either.
  const ratios = (key: 'perSecond' | 'cpuUsPerReq', invert: boolean) => {
    const [cur, base] = servers.map((s) => results.get(s.label)!.map((r) => r[key]));
    const paired = cur.map((c, i) => (invert ? base[i] / c : c / base[i]));
    return `${(invert ? median(base) / median(cur) : median(cur) / median(base)).toFixed(3)} (ratio of medians); per round ${paired.map((r) => r.toFixed(3)).join(', ')}, median ${median(paired).toFixed(3)}`;
  };
  console.log(`\ncurrent/baseline throughput ratio: ${ratios('perSecond', false)}`);
  console.log(`baseline/current server CPU per request (>1 = current cheaper): ${ratios('cpuUsPerReq', true)}`);
}
// Let the servers shut down cleanly (the exit hook SIGKILLs whatever is left).
await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.child.exitCode !== null ? resolve() : (s.child.once('exit', () => resolve()), s.child.kill('SIGTERM'), setTimeout(resolve, 5_000).unref())))));
process.exit(process.exitCode ?? 0);
