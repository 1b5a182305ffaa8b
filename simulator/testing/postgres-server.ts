// A throwaway PostgreSQL server from the machine's Debian packages (apt-get install postgresql), for tests
// and the local cluster: `initdb` into a temporary directory, `pg_ctl start` on 127.0.0.1 at a free port and
// a Unix socket in that directory, one database for the caller; `stop()` stops it and removes the directory.
// Nothing is downloaded. Without the packages a test skips locally and says why; under CI=true it fails
// (.ci/run installs them), as the browser tests do with chromium (scripts/browser/chromium.ts).
import { spawnSync, type SpawnOptions } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { findPostgresBinaries, initdbArgs, POSTGRES_ROOT, postgresRunAs, runPostgresBinary as run, startOnFreePort } from '../kernel/store/postgres-binaries.js';
import { ident } from '../kernel/store/sql.js';

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

/** The binaries (kernel/store/postgres-binaries.ts), and why tests skip without them. */
export function lookupPostgres(env: NodeJS.ProcessEnv = process.env, root = POSTGRES_ROOT): PostgresLookup {
  const binDir = findPostgresBinaries(env, root);
  if (binDir) return { binDir, skipReason: null };
  if (env.CI === 'true' || env.CI === '1') return { binDir: null, skipReason: null };
  return { binDir: null, skipReason: `no PostgreSQL server binaries found (looked under ${root}/<major>/bin${env.POSTGRES_BIN ? ` and ${env.POSTGRES_BIN}` : ''}): install Debian's postgresql (apt-get install postgresql) or set POSTGRES_BIN; PostgreSQL tests skipped` };
}

/** For `describe.skipIf(postgresSkipReason() !== null)`: a reason locally without PostgreSQL, null under CI. */
export function postgresSkipReason(): string | null {
  return lookupPostgres().skipReason;
}

export async function startPostgres(options: { database?: string; log?: (line: string) => void } = {}): Promise<PostgresServer> {
  const { binDir } = lookupPostgres();
  if (!binDir) throw new Error(`PostgreSQL is required but was not found under ${POSTGRES_ROOT}/<major>/bin (set POSTGRES_BIN, or apt-get install postgresql); .ci/run installs it`);
  const log = options.log ?? (() => {});
  const database = options.database ?? 'sim';
  const user = postgresRunAs();
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

  await run(bin('initdb'), initdbArgs(dataDir, ['--auth=trust']), spawnOptions, log);

  const stopSync = () => spawnSync(bin('pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w'], { ...spawnOptions, stdio: 'ignore' });
  // A test process that exits without stop() (a failed assertion in a hook) must not leave a server behind.
  process.once('exit', stopSync);

  const settings = (port: number) => `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200 -c shared_buffers=32MB`;
  const port = await startOnFreePort((args) => run(bin('pg_ctl'), args, spawnOptions, log), dataDir, logFile, settings).catch((error: unknown) => {
    process.removeListener('exit', stopSync);
    stopSync();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });

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
