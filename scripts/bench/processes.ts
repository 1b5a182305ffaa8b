// The processes a bench compares, started the way their users start them, each timed from spawn to its
// first HTTP answer (any status: the server is up when it answers), with its resident set and CPU time read
// from /proc (Linux). Everything is bounded: a server that does not answer within a minute fails the bench.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, prismEntry } from '../../contracts/lib/prism.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const START_TIMEOUT_MS = 60_000;

/**
 * Servers run on the last core and the load generator (this process) on the others, when the machine has
 * two or more and `taskset` (util-linux) is there. Left to the scheduler, a 2-core machine put the server and
 * autocannon on one core in some rounds and not in others: the same build measured 4,100 or 7,600 req/s
 * round by round, and A/B ratios of one pair swung from 88 % to 130 % between two runs.
 */
const SERVER_CORE = availableParallelism() - 1;
const canPin = SERVER_CORE >= 1 && spawnSync('taskset', ['-V']).status === 0;
function pin(pid: number | undefined, cores: string): void {
  // -a: every thread the process has now; the threads it starts later inherit the main thread's mask.
  if (canPin && pid) spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}
/** Pins this process (the load generator) away from the servers' core; a no-op where pinning is not possible. */
export function pinLoadGenerator(): string {
  if (!canPin) return 'not pinned (one core, or no taskset)';
  pin(process.pid, SERVER_CORE === 1 ? '0' : `0-${SERVER_CORE - 1}`);
  return `servers pinned to core ${SERVER_CORE}, load generator to the others`;
}

export interface BenchProcess {
  label: string;
  url: string;
  child: ChildProcess;
  /** Spawn to first answer, ms. */
  startupMs: number;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const live = new Set<ChildProcess>();
/** SIGKILLs whatever is still running (for process 'exit' hooks: nothing can be awaited there). */
export function killAllBenchProcesses(): void {
  for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

async function startTimed(label: string, args: (port: number) => string[], env: Record<string, string>, probePath = '/', cwd = ROOT): Promise<BenchProcess> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args(port), { cwd, env: { ...process.env, FORCE_COLOR: '0', ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let log = '';
  // Both pipes drained for the whole run: a full pipe would block the server's writes.
  const keep = (d: Buffer) => (log.length < 200_000 ? (log += d.toString()) : undefined);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${label} exited before answering:\n${log}`);
    if (performance.now() - t0 > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`${label} did not answer within ${START_TIMEOUT_MS / 1000} s:\n${log}`);
    }
    try {
      await (await fetch(url + probePath, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const startupMs = performance.now() - t0;
  // Pinned once up (start-up is timed as users see it, on every core), every thread it has by now.
  pin(child.pid, String(SERVER_CORE));
  return {
    label,
    url,
    child,
    startupMs,
    output: () => log,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      live.delete(child);
    },
  };
}

/** Node's arguments in `npm start` (package.json: "exec node [V8 flags] scripts/start.mjs"), so the bench runs
 *  exactly what users run, flags included. */
function npmStartArgs(root: string): string[] {
  // A leading `exec` (npm's shell hands its process to node, so a signal to npm reaches the sandbox) is the shell's.
  const command = String(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start).trim().split(/\s+/).filter((word, i) => !(i === 0 && word === 'exec'));
  if (command[0] !== 'node') throw new Error(`npm start is not a plain node command: ${command.join(' ')}`);
  return command.slice(1);
}

/** The simulator as `npm start` runs it (scripts/start.mjs: the prebuilt bundle), on its own store;
 *  with `cpuProfileDir`, under V8's sampling profiler (a .cpuprofile written there when it stops); from
 *  another checkout (`root`, e.g. an older commit: `--baseline`), as that checkout's `npm start` runs it. */
export function startSimulator(env: Record<string, string>, label = 'simulator', cpuProfileDir?: string, root = ROOT): Promise<BenchProcess> {
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  return startTimed(label, () => [...profile, ...npmStartArgs(root)], { LOG_LEVEL: 'warn', ...env }, '/', root);
}

/** Another checkout's simulator (`--baseline DIR`), built first (its build is not its start-up), on a store of its own. */
export async function startBaselineSimulator(root: string, storeFile: string, env: Record<string, string>, cpuProfileDir?: string): Promise<BenchProcess> {
  const built = spawnSync(process.execPath, ['scripts/build-simulator.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`could not build the baseline's simulator in ${root}`);
  const started = await startSimulator({ SIM_DB: storeFile, ...env }, `baseline (${root})`, cpuProfileDir, root);
  console.log(`baseline ${root}: spawn to first answer ${started.startupMs.toFixed(0)} ms`);
  return started;
}

/** Prism 5's static mock of a bundled contract in its fastest setting (`-v error`: no per-request log). */
export function startPrismMock(contractFile: string): Promise<BenchProcess> {
  return startTimed('prism mock', (port) => [prismEntry(), 'mock', '-h', '127.0.0.1', '-p', String(port), contractFile, '-v', 'error'], {});
}

/** The minimal Koa + ajv app (reference-app.mjs). */
export function startReferenceApp(): Promise<BenchProcess> {
  return startTimed('koa+ajv reference', () => ['scripts/bench/reference-app.mjs'], {});
}

const statusField = (pid: number, field: string): number => {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};

/** A process and all its descendants (Prism may fork). */
function tree(pid: number): number[] {
  const out = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of children ? children.split(/\s+/).map(Number) : []) out.push(...tree(c));
    }
  } catch {
    // gone, or not Linux
  }
  return out;
}

/** Resident set of a process tree, MB. */
export const rssMb = (pid: number): number => tree(pid).reduce((sum, p) => sum + (statusField(p, 'VmRSS') || 0), 0);

/** utime + stime of a process tree in ms (100 ticks/s). */
export function cpuMs(pid: number): number {
  return tree(pid).reduce((sum, p) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      return sum;
    }
  }, 0);
}
