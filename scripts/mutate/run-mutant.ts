// One mutant's run: the mutation applied to a tree copy, the simulator bundled from that copy and started as
// a process, the conformance suite (the working tree's `conformance/cli.ts` as a bundle, simulator profile)
// run against it in the copy's suite process, which stays up between mutants (suite-worker.ts), the file
// put back. Both run as plain JavaScript (bundles.ts: no TypeScript loader at each start). Both processes
// are killed when the mutant's time is up (the next mutant starts a new suite process), so a mutant that
// makes the simulator hang costs one time limit, not the whole run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../../contracts/lib/prism.js';
import { simulatorBundle, suiteBundle } from './bundles.js';
import { applyMutation, type Mutation } from './mutation.js';

export interface RunSettings {
  seed: number;
  runs: number;
  /** The whole mutant (start-up + suite) must end within this, or it is a timeout. */
  timeoutMs: number;
  /** Per-request timeout of the suite. */
  requestTimeoutMs: number;
  /** Only these checks (ids or prefixes), for targeted runs; default every check. */
  checks?: string[];
}

type Outcome = 'killed' | 'survived' | 'timeout' | 'startup';

export interface MutantResult {
  id: string;
  outcome: Outcome;
  /** Checks that failed on the mutant and passed without it (a killed mutant has at least one). */
  killedBy: string[];
  /** The first failure of each check in killedBy (rule: message, cut short): why the suite noticed. */
  reasons?: Record<string, string>;
  seconds: number;
  /** Where the seconds went (run-mutant.ts Phases), when the suite ran. */
  phases?: Phases;
  /** Start-up output or the suite's error, cut short, when there is something to say. */
  detail?: string;
}

/** A mutant's seconds by phase: bundling and starting the simulator until its banner; the suite's run (its
 *  process started first when the tree copy has none); of that, the checks' own durations (report.json); the
 *  rest of the suite's run is its start-up, its check of the target and its reports. */
export interface Phases {
  simulatorS: number;
  suiteS: number;
  checksS: number;
}

export interface BaselineResult {
  failed: string[];
  /** Why each of them failed (rule: message, cut short). */
  reasons?: Record<string, string>;
  passed: number;
  skipped: number;
  seconds: number;
}

const tail = (text: string, max = 1500) => (text.length > max ? '…' + text.slice(-max) : text);

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Every simulator and suite process under way, so that an interrupted run leaves none behind. */
const RUNNING = new Set<ChildProcess>();

/** Kills every process this module started that is still running (SIGINT / SIGTERM of the command). */
export function killAllRunning(): void {
  for (const child of RUNNING) child.kill('SIGKILL');
}

function run(command: string[], cwd: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, command, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  RUNNING.add(child);
  child.once('exit', () => RUNNING.delete(child));
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log = tail(log + d.toString(), 20_000)));
  child.stderr!.on('data', (d: Buffer) => (log = tail(log + d.toString(), 20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => log, exited };
}

/**
 * The conformance CLI of one tree copy as a process kept between runs (suite-worker.ts): a run is a message
 * with the CLI's arguments, answered with its exit code. Between runs the process is unreferenced, so that
 * it never keeps this process alive; it exits when this process's IPC channel closes.
 */
class SuiteWorker {
  private readonly child: ChildProcess;
  private log = '';
  private sent = 0;
  readonly exited: Promise<number | null>;

  constructor(bundle: string, cwd: string) {
    // No script argument (node -e): the bundled CLI's entry-point test stays false, its main is not run on load.
    this.child = spawn(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(bundle).href)});`], {
      cwd,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    RUNNING.add(this.child);
    this.child.once('exit', () => RUNNING.delete(this.child));
    this.child.stdout!.on('data', (d: Buffer) => (this.log = tail(this.log + d.toString(), 20_000)));
    this.child.stderr!.on('data', (d: Buffer) => (this.log = tail(this.log + d.toString(), 20_000)));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.reference(false);
  }

  private reference(on: boolean) {
    const handles = [this.child, this.child.channel, this.child.stdout, this.child.stderr] as Array<{ ref?: () => void; unref?: () => void } | null | undefined>;
    for (const handle of handles) (on ? handle?.ref : handle?.unref)?.call(handle);
  }

  alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return this.log;
  }

  /** One run of the CLI; its exit code, or null when the process ended without answering. */
  run(argv: string[]): Promise<number | null> {
    const id = ++this.sent;
    this.reference(true);
    return new Promise((resolve) => {
      let settled = false;
      const settle = (code: number | null) => {
        if (settled) return;
        settled = true;
        this.child.off('message', onMessage);
        this.reference(false);
        resolve(code);
      };
      const onMessage = (message: { id?: number; code?: number }) => {
        if (message?.id === id) settle(typeof message.code === 'number' ? message.code : 3);
      };
      this.child.on('message', onMessage);
      void this.exited.then(() => settle(null));
      this.child.send({ id, argv });
    });
  }

  kill(): void {
    if (this.alive()) this.child.kill('SIGKILL');
  }
}

const workers = new Map<string, SuiteWorker>();

/** The tree copy's suite process, started (again) when there is none. */
async function suiteWorker(treeDir: string): Promise<SuiteWorker> {
  let worker = workers.get(treeDir);
  if (!worker?.alive()) {
    worker = new SuiteWorker(await suiteBundle(treeDir), treeDir);
    workers.set(treeDir, worker);
  }
  return worker;
}

/** Ends every kept suite process (the run is over, or its tree copies are about to go). */
export function stopSuiteWorkers(): void {
  for (const worker of workers.values()) worker.kill();
  workers.clear();
}

function kill(p: Running | undefined) {
  if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
}

class StartupFailed extends Error {}

/** Bundles `<treeDir>/simulator/main.ts` as it is now, starts the bundle and waits for its start-up banner. */
async function startSimulator(treeDir: string, dataDir: string, label: string, deadline: Promise<'timeout'>) {
  let bundle: string;
  try {
    bundle = await simulatorBundle(treeDir);
  } catch (error) {
    // The mutated source does not parse: the simulator could not start, as under a TypeScript loader.
    throw new StartupFailed(`simulator exited at start-up: the bundle did not build:\n${tail(String((error as Error).message))}`);
  }
  const port = await freePort();
  const sim = run([bundle], treeDir, {
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    SIM_DB: path.join(dataDir, 'store.mdb'),
    // Its own uploads and documents: mutants run side by side, and beside other sessions' simulators.
    SIM_ARTIFACTS: path.join(dataDir, 'artifacts'),
    SIM_ADMIN_TOKEN: `${label}-admin`,
    SIM_INTEGRATION_KEY: `tfk_${label.replace(/-/g, '_')}_key`,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    // The job timings the conformance self-test runs with (conformance/testing/simulator.ts).
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
  });
  const started = new Promise<'started'>((resolve) => {
    const poll = setInterval(() => {
      if (sim.output().includes('base URL')) {
        clearInterval(poll);
        resolve('started');
      }
    }, 25);
    void sim.exited.then(() => clearInterval(poll));
  });
  const exitedEarly = sim.exited.then(() => 'exited' as const);
  const startLimit = new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), 60_000).unref());
  const how = await Promise.race([started, exitedEarly, startLimit, deadline]);
  if (how !== 'started') {
    kill(sim);
    throw new StartupFailed(`simulator ${how === 'exited' ? 'exited at start-up' : 'did not start in time'}:\n${tail(sim.output())}`);
  }
  return { sim, url: `http://127.0.0.1:${port}`, adminToken: `${label}-admin`, apiKey: `tfk_${label.replace(/-/g, '_')}_key` };
}

interface SuiteRun {
  outcome: 'done' | 'timeout' | 'startup';
  failed: string[];
  reasons?: Record<string, string>;
  passed: number;
  skipped: number;
  seconds: number;
  phases?: Phases;
  detail?: string;
}

/** Starts the simulator from `treeDir` as it is now and runs the suite against it. */
async function runSuiteAgainstTree(treeDir: string, settings: RunSettings, label = 'mutant'): Promise<SuiteRun> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${label}-data-`));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), settings.timeoutMs)));
  let sim: Running | undefined;
  try {
    let target;
    try {
      target = await startSimulator(treeDir, dataDir, label, deadline);
    } catch (error) {
      if (!(error instanceof StartupFailed)) throw error;
      const timedOut = error.message.includes('did not start') && performance.now() - started >= settings.timeoutMs;
      return { outcome: timedOut ? 'timeout' : 'startup', failed: [], passed: 0, skipped: 0, seconds: seconds(), detail: error.message };
    }
    sim = target.sim;
    const simulatorS = seconds();
    const reportDir = path.join(dataDir, 'report');
    const worker = await suiteWorker(treeDir);
    const ended = await Promise.race([
      worker.run([
        '--base-url', target.url, '--api-key', target.apiKey, '--admin-token', target.adminToken,
        '--profile', 'simulator', '--contract', 'v1.3.0', '--seed', String(settings.seed), '--runs', String(settings.runs),
        '--timeout-ms', String(settings.requestTimeoutMs), '--format', 'json', '--report-dir', reportDir, '--quiet',
        ...(settings.checks?.length ? ['--only', settings.checks.join(',')] : []),
      ]),
      deadline,
    ]);
    if (ended === 'timeout') {
      // The run may be stuck anywhere in the suite: its process goes, the next mutant starts another.
      worker.kill();
      workers.delete(treeDir);
      return { outcome: 'timeout', failed: [], passed: 0, skipped: 0, seconds: seconds(), detail: tail(worker.output(), 600) };
    }
    const suiteS = Math.round((seconds() - simulatorS) * 10) / 10;
    let report: { results: Array<{ id: string; verdict: string; durationMs?: number; failures?: Array<{ rule: string; message: string }> }> };
    try {
      report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8'));
    } catch {
      // Exit 3 without a report: the target stopped answering before the first check, which a client sees.
      if (ended === 3) return { outcome: 'done', failed: ['(the target did not answer)'], passed: 0, skipped: 0, seconds: seconds(), detail: tail(sim.output(), 600) };
      throw new Error(`the suite exited with ${ended} and wrote no report:\n${tail(worker.output())}`);
    }
    const ids = (verdict: string) => report.results.filter((r) => r.verdict === verdict).map((r) => r.id);
    const reasons = Object.fromEntries(
      report.results.filter((r) => r.verdict === 'failed').map((r) => [r.id, r.failures?.[0] ? tail(`${r.failures[0].rule}: ${r.failures[0].message}`, 300) : '(no failure recorded)']),
    );
    const checksS = Math.round(report.results.reduce((ms, r) => ms + (r.durationMs ?? 0), 0) / 100) / 10;
    return { outcome: 'done', failed: ids('failed').sort(), reasons, passed: ids('passed').length, skipped: ids('skipped').length, seconds: seconds(), phases: { simulatorS, suiteS, checksS } };
  } finally {
    clearTimeout(timer);
    kill(sim);
    await sim?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The unmutated tree's run: the checks failing here do not count as killing a mutant. */
export async function runBaseline(treeDir: string, settings: RunSettings): Promise<BaselineResult> {
  const result = await runSuiteAgainstTree(treeDir, settings, 'mutate-baseline');
  if (result.outcome !== 'done') throw new Error(`the unmutated simulator did not complete the suite (${result.outcome}):\n${result.detail ?? ''}`);
  return { failed: result.failed, reasons: result.reasons, passed: result.passed, skipped: result.skipped, seconds: result.seconds };
}

/** Applies the mutation to the tree copy, runs the suite, and puts the file back whatever happens. */
export async function runMutant(treeDir: string, mutation: Mutation, settings: RunSettings, baseline: BaselineResult): Promise<MutantResult> {
  const restore = applyMutation(treeDir, mutation);
  try {
    const result = await runSuiteAgainstTree(treeDir, settings, `mutant-${mutation.family}`);
    if (result.outcome !== 'done') return { id: mutation.id, outcome: result.outcome, killedBy: [], seconds: result.seconds, detail: result.detail };
    const killedBy = result.failed.filter((id) => !baseline.failed.includes(id));
    const reasons = Object.fromEntries(killedBy.map((id) => [id, result.reasons?.[id] ?? '']));
    return { id: mutation.id, outcome: killedBy.length ? 'killed' : 'survived', killedBy, ...(killedBy.length ? { reasons } : {}), seconds: result.seconds, ...(result.phases ? { phases: result.phases } : {}) };
  } finally {
    restore();
  }
}
