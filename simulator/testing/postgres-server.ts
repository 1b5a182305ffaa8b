// A throwaway PostgreSQL server from the machine's Debian packages (apt-get install postgresql), for tests
// and the local cluster: `initdb` into a temporary directory, `pg_ctl start` on 127.0.0.1 at a free port and
// a Unix socket in that directory, one database for the caller; `stop()` stops it and removes the directory.
// Nothing is downloaded. Without the packages a test skips locally and says why; under CI=true it fails
// (.ci/run installs them), as the browser tests do with chromium (scripts/browser/chromium.ts).
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from '../../contracts/lib/prism.js';
import { ident } from '../kernel/store/sql.js';

/** Where Debian puts each major version's binaries (/usr/lib/postgresql/<major>/bin). */
const POSTGRES_ROOT = '/usr/lib/postgresql';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/<database> (trust authentication: loopback only). */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

export interface PostgresLookup {
  /** The directory holding initdb, pg_ctl and postgres, or null when none was found. */
  binDir: string | null;
  /** Why PostgreSQL tests skip (null: they run; under CI a missing server is a failure, not a skip). */
  skipReason: string | null;
}

/** POSTGRES_BIN first when set, else the newest major version under /usr/lib/postgresql. */
export function lookupPostgres(env: NodeJS.ProcessEnv = process.env, root = POSTGRES_ROOT): PostgresLookup {
  const installed = existsSync(root)
    ? readdirSync(root)
        .filter((major) => /^\d+$/.test(major))
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => path.join(root, major, 'bin'))
    : [];
  const candidates = [env.POSTGRES_BIN, ...installed].filter((c): c is string => Boolean(c));
  const binDir = candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) ?? null;
  if (binDir) return { binDir, skipReason: null };
  if (env.CI === 'true' || env.CI === '1') return { binDir: null, skipReason: null };
  return { binDir: null, skipReason: `no PostgreSQL server binaries found (looked under ${root}/<major>/bin${env.POSTGRES_BIN ? ` and ${env.POSTGRES_BIN}` : ''}): install Debian's postgresql (apt-get install postgresql) or set POSTGRES_BIN; PostgreSQL tests skipped` };
}

/** For `describe.skipIf(postgresSkipReason() !== null)`: a reason locally without PostgreSQL, null under CI. */
export function postgresSkipReason(): string | null {
  return lookupPostgres().skipReason;
}

/** initdb refuses to run as root: then every binary runs as the `postgres` user the Debian package creates. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run PostgreSQL as (the Debian package creates it)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function run(binary: string, args: string[], options: SpawnOptions, log: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${path.basename(binary)} ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

export async function startPostgres(options: { database?: string; log?: (line: string) => void } = {}): Promise<PostgresServer> {
  const { binDir } = lookupPostgres();
  if (!binDir) throw new Error(`PostgreSQL is required but was not found under ${POSTGRES_ROOT}/<major>/bin (set POSTGRES_BIN, or apt-get install postgresql); .ci/run installs it`);
  const log = options.log ?? (() => {});
  const database = options.database ?? 'sim';
  const user = runAs();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-'));
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chownSync(dataDir, user.uid, user.gid);
  }
  const spawnOptions: SpawnOptions = { cwd: dir, env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' }, ...user };
  const bin = (name: string) => path.join(binDir, name);
  const logFile = path.join(dir, 'postgres.log');
  const serverLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

  // The superuser is `postgres` whoever runs initdb; the C collation makes the database sort strings by
  // code point, as the journal store does (see postgres-store.ts).
  await run(bin('initdb'), ['-D', dataDir, '-U', 'postgres', '--locale=C', '-E', 'UTF8', '--auth=trust', '--no-instructions'], spawnOptions, log);

  const stopSync = () => spawnSync(bin('pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w'], { ...spawnOptions, stdio: 'ignore' });
  // A test process that exits without stop() (a failed assertion in a hook) must not leave a server behind.
  process.once('exit', stopSync);

  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200 -c shared_buffers=32MB`;
    try {
      await run(bin('pg_ctl'), ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', settings], spawnOptions, log);
      break;
    } catch (error) {
      // Another process may have taken the free port between the probe and the bind: try another.
      if (attempt >= 3 || !/could not bind|already in use/i.test(serverLog())) {
        process.removeListener('exit', stopSync);
        stopSync();
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`${(error as Error).message}\nserver log:\n${serverLog()}`);
      }
    }
  }

  const admin = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${ident(database)}`);
  } finally {
    await admin.end({ timeout: 5 });
  }

  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    port,
    dataDir,
    stop: () =>
      (stopped ??= (async () => {
        process.removeListener('exit', stopSync);
        try {
          await run(bin('pg_ctl'), ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], spawnOptions, log);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })()),
  };
}
