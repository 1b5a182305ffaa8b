// A hosted sandbox on one machine (issue 17): a PostgreSQL server in a temporary directory, N simulator
// instances over it as real processes (one shared artifacts directory, the same admin token and key), and
// HAProxy in front of them, all from the machine's packages. For the cluster tests and `npm run cluster`.
//
// Instance 1 starts alone and answers before the others start: it creates the schema and the sandbox (the
// default tenant, the pinned key), which the others then find. HAProxy balances round-robin, checks
// GET /healthz every half second and takes a dead instance out; a request whose connection is refused is
// sent again to another instance (retries + redispatch), so losing an instance costs no request that had
// not reached it yet.
//
// stop() stops everything in reverse order and removes the temporary directories. Should the process that
// started the cluster die without running it (a SIGKILLed test runner), a reaper process (reaper.ts) that
// notices its parent is gone kills what was started and removes the directories.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../contracts/lib/prism.js';
import { lookupPostgres, startPostgres, type PostgresServer } from './postgres-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where Debian puts HAProxy; HAPROXY_PATH first when set. */
const HAPROXY_CANDIDATES = ['/usr/sbin/haproxy', '/usr/bin/haproxy'];

const haproxyCandidates = (env: NodeJS.ProcessEnv) => [env.HAPROXY_PATH, ...HAPROXY_CANDIDATES].filter((c): c is string => Boolean(c));

export function haproxyPath(env: NodeJS.ProcessEnv = process.env, exists: (file: string) => boolean = existsSync): string | null {
  return haproxyCandidates(env).find((c) => exists(c)) ?? null;
}

/**
 * Why the cluster tests skip, or null when they run. Under CI (CI=true) never a reason: a missing package
 * is then a failure at start (.ci/run installs PostgreSQL and HAProxy), as for the browser tests.
 */
export function clusterSkipReason(env: NodeJS.ProcessEnv = process.env, exists: (file: string) => boolean = existsSync): string | null {
  if (env.CI === 'true' || env.CI === '1') return null;
  const haproxy = haproxyPath(env, exists) ? null : `no HAProxy found (looked at ${haproxyCandidates(env).join(', ')}): install Debian's haproxy (apt-get install haproxy) or set HAPROXY_PATH; cluster tests skipped`;
  const reasons = [lookupPostgres(env).skipReason, haproxy].filter((r): r is string => r !== null);
  return reasons.length ? reasons.join('; ') : null;
}

interface ClusterInstance {
  /** SIM_INSTANCE_ID: `sim-1`, `sim-2`, ... */
  id: string;
  /** The instance itself, past the load balancer. */
  url: string;
  /** The running process (a new one after restart()). */
  readonly child: ChildProcess;
  /** Everything the process wrote, this life and the earlier ones. */
  output(): string;
  /** Sends `signal` (SIGTERM) and waits for the exit; a SIGTERM not obeyed in 10 s becomes a SIGKILL. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the instance again on its port, with its environment; answers once it serves. */
  restart(): Promise<void>;
}

export interface Cluster {
  /** The load balancer: what an integrator would be given. */
  url: string;
  instances: ClusterInstance[];
  postgres: PostgresServer;
  adminToken: string;
  apiKey: string;
  /** Stops HAProxy, the instances and PostgreSQL, in that order, and removes the temporary directories. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Simulator instances (2). */
  instances?: number;
  /** Environment of every instance, over the cluster's own (SIM_ADMIN_TOKEN and SIM_INTEGRATION_KEY pin the credentials). */
  env?: Record<string, string>;
  /** Receives each line the processes write, prefixed with their name. */
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Calls `log` with each whole line of the stream, prefixed. */
function forwardLines(stream: NodeJS.ReadableStream, prefix: string, log: (line: string) => void) {
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) log(`${prefix} ${line}`);
  });
}

/** Hands everything a child writes (stdout and stderr) to `keep`, and each line to `log` when given. */
function captureOutput(child: ChildProcess, prefix: string, keep: (text: string) => void, log?: (line: string) => void) {
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (d: Buffer) => keep(d.toString()));
    if (log) forwardLines(stream, prefix, log);
  }
}

/** The reaper process (reaper.ts): told what is started, it cleans up if this process dies first. */
function startReaper() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'simulator', 'testing', 'reaper.ts')], {
    cwd: ROOT,
    // Its own process group: a Ctrl-C in the terminal is for the parent, which cleans up and disarms it.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.unref();
  const tell = (line: string) => {
    if (alive(child) && child.stdin!.writable) child.stdin!.write(`${line}\n`);
  };
  return {
    tell,
    disarm() {
      tell('disarm');
      child.stdin!.end();
    },
  };
}
type Reaper = ReturnType<typeof startReaper>;

/** Waits until GET `url` answers 200, or fails after `timeoutMs` naming `what`. */
async function answers(url: string, what: string, timeoutMs: number, gone: () => string | null) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exited = gone();
    if (exited !== null) throw new Error(`${what} exited before answering: ${exited}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer GET ${url} with 200 within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** An instance not started yet: restart() starts it (there is nothing to stop the first time). */
function createInstance(id: string, port: number, env: Record<string, string>, reaper: Reaper, log?: (line: string) => void): ClusterInstance {
  let output = '';
  let child: ChildProcess | undefined;
  let exited = Promise.resolve();
  const start = async () => {
    const current = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, INSTANCE_ENTRY)], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      // Its own process group: only the cluster stops it (a terminal's Ctrl-C reaches the cluster alone).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = current;
    reaper.tell(`pid ${current.pid}`);
    exited = new Promise<void>((resolve) =>
      current.once('exit', () => {
        reaper.tell(`unpid ${current.pid}`);
        resolve();
      }),
    );
    captureOutput(current, `[${id}]`, (text) => (output += text), log);
    await answers(`http://127.0.0.1:${port}/healthz`, `simulator instance ${id}`, 60_000, () => (alive(current) ? null : `${current.exitCode ?? current.signalCode}\n${output}`));
  };
  const instance: ClusterInstance = {
    id,
    url: `http://127.0.0.1:${port}`,
    get child() {
      if (!child) throw new Error(`instance ${id} was never started`);
      return child;
    },
    output: () => output,
    async kill(signal = 'SIGTERM') {
      const current = child;
      if (!current) return;
      if (alive(current)) current.kill(signal);
      const timer = setTimeout(() => alive(current) && current.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
    async restart() {
      await instance.kill();
      await start();
    },
  };
  return instance;
}

/**
 * HAProxy's configuration: loopback only (`bind` and each server's `host` say otherwise: the compose file's
 * deploy/haproxy.cfg, whose instances are other containers), round-robin, health checks on /healthz, a
 * refused connection retried elsewhere.
 */
export function haproxyConfig(port: number, servers: Array<{ id: string; port: number; host?: string }>, bind = '127.0.0.1'): string {
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    // A request whose connection to an instance failed goes to another one (every retry, not just the last).
    '  retries 3',
    '  option redispatch 1',
    '  timeout connect 2s',
    // Above the simulator's own request timeout (30 s): a long upload or report is the simulator's to time out.
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-request 60s',
    '  timeout http-keep-alive 10s',
    '  timeout queue 10s',
    '',
    'frontend sandbox',
    `  bind ${bind}:${port}`,
    '  default_backend simulators',
    '',
    'backend simulators',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    // Two failed checks half a second apart take an instance out; two good ones bring it back.
    '  default-server inter 500ms fastinter 250ms downinter 1s fall 2 rise 2',
    ...servers.map((s) => `  server ${s.id} ${s.host ?? '127.0.0.1'}:${s.port} check`),
    '',
  ].join('\n');
}

/**
 * What makes a simulator process an instance of the cluster, over its environment: the shared PostgreSQL
 * store and artifacts directory, the same admin token and integration key, its own name; warnings only.
 * The compose file's instances (compose.yaml) set the same (scripts/container.test.ts compares them).
 */
export function instanceEnv(o: { id: string; storeUrl: string; artifacts: string; adminToken: string; apiKey: string; logLevel?: string }): Record<string, string> {
  return { LOG_LEVEL: o.logLevel ?? 'warn', SIM_STORE: o.storeUrl, SIM_ARTIFACTS: o.artifacts, SIM_ADMIN_TOKEN: o.adminToken, SIM_INTEGRATION_KEY: o.apiKey, SIM_INSTANCE_ID: o.id };
}

/** The command of each instance: the simulator's entry point (in the image, its bundle: `tfas sandbox`). */
export const INSTANCE_ENTRY = 'simulator/main.ts';

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.instances ?? 2;
  if (!Number.isInteger(count) || count < 1) throw new Error(`instances must be a whole number of at least 1, not ${count}`);
  const haproxy = haproxyPath();
  if (!haproxy) throw new Error(`HAProxy is required for a cluster but was not found (looked at ${haproxyCandidates(process.env).join(', ')}): apt-get install haproxy`);
  const log = options.log;
  const adminToken = options.env?.SIM_ADMIN_TOKEN ?? `cluster-admin-${randomBytes(12).toString('hex')}`;
  const apiKey = options.env?.SIM_INTEGRATION_KEY ?? `tfk_cluster_${randomBytes(12).toString('hex')}`;

  const reaper = startReaper();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-cluster-'));
  reaper.tell(`dir ${dir}`);
  const artifacts = path.join(dir, 'artifacts');
  mkdirSync(artifacts);

  // What stop() undoes, last started first.
  const undo: Array<() => Promise<void>> = [];
  const stop = async () => {
    const errors: unknown[] = [];
    for (const step of undo.splice(0).reverse()) await step().catch((error: unknown) => errors.push(error));
    rmSync(dir, { recursive: true, force: true });
    reaper.disarm();
    if (errors.length) throw new AggregateError(errors, 'the cluster did not stop cleanly');
  };

  try {
    const postgres = await startPostgres({ database: 'sandbox', log: log && ((line) => log(`[postgres] ${line}`)) });
    // startPostgres keeps the data directory, its socket and its log in one temporary directory.
    reaper.tell(`pgdata ${postgres.dataDir}`);
    reaper.tell(`dir ${path.dirname(postgres.dataDir)}`);
    undo.push(() => postgres.stop());

    const shared: Record<string, string> = { ...(process.env as Record<string, string>), ...options.env };
    // The journal store is the other store: an inherited SIM_DB would refuse to start (config.ts).
    delete shared.SIM_DB;
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const instances = ports.map((port, index) => {
      const id = `sim-${index + 1}`;
      const instance = createInstance(id, port, { ...shared, ...instanceEnv({ id, storeUrl: postgres.url, artifacts, adminToken, apiKey, logLevel: options.env?.LOG_LEVEL }) }, reaper, log);
      undo.push(() => instance.kill());
      return instance;
    });
    // Instance 1 bootstraps the database (schema, default tenant, pinned key) before the others look at it.
    await instances[0]!.restart();
    await Promise.all(instances.slice(1).map((instance) => instance.restart()));

    const lbPort = await freePort();
    const configFile = path.join(dir, 'haproxy.cfg');
    writeFileSync(configFile, haproxyConfig(lbPort, instances.map((instance, index) => ({ id: instance.id, port: ports[index]! }))));
    // -db: in the foreground, a child of this process (stopped with it, its errors on stderr).
    const lb = spawn(haproxy, ['-db', '-f', configFile], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    reaper.tell(`pid ${lb.pid}`);
    let lbOutput = '';
    captureOutput(lb, '[haproxy]', (text) => (lbOutput += text), log);
    // A binary that cannot be run at all ends in 'error', with no 'exit'.
    let lbFailed: string | null = null;
    const lbExited = new Promise<void>((resolve) => {
      lb.once('exit', () => resolve());
      lb.once('error', (error) => resolve(void (lbFailed = error.message)));
    });
    undo.push(async () => {
      if (alive(lb) && lbFailed === null) lb.kill('SIGTERM');
      await lbExited;
    });
    const url = `http://127.0.0.1:${lbPort}`;
    await answers(`${url}/healthz`, 'HAProxy', 15_000, () => lbFailed ?? (alive(lb) ? null : `${lb.exitCode ?? lb.signalCode}\n${lbOutput}`));

    return { url, instances, postgres, adminToken, apiKey, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
