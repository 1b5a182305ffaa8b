// SIM_STORE=local: the sandbox runs its own PostgreSQL from the machine's Debian packages, its data in one
// directory (.sim-data/postgres), so a store of hundreds of megabytes restarts in about a second without a
// server to set up (issue 30 item 4: the embedded journal store reads every record before its first answer,
// ~35 s a gigabyte; PostgreSQL reads what a request asks for).
//
// The server outlives a crash of the sandbox on purpose: pg_ctl detaches it (its own session), so a SIGKILL
// of the sandbox leaves it running and the next start reuses it (`pg_ctl status`). A clean stop (Ctrl+C,
// SIGTERM) stops it. A server that died too (power loss) is started again and recovers from its WAL.
import type { SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findPostgresBinaries, initdbArgs, POSTGRES_ROOT, postmasterOf, postgresRunAs, runPostgresBinary, startOnFreePort } from '../kernel/store/postgres-binaries.js';
import { processIsAlive } from './store-lock.js';

/** What SIM_STORE=local cannot do on this machine, in words a user can act on (npm start prints one line). */
export class LocalPostgresError extends Error {}

export interface LocalPostgres {
  /** postgres://postgres:<password>@127.0.0.1:<port>/sim: loopback only, the password in <dir>/password. */
  url: string;
  dataDir: string;
  /** True when a server left running by an earlier sandbox (a crash) was taken over. */
  reused: boolean;
  /** Stops the server (fast shutdown: sessions ended, every committed write on disk). */
  stop(): Promise<void>;
}

const DATABASE = 'sim';

export async function startLocalPostgres(options: { dir: string; log?: (line: string) => void; env?: NodeJS.ProcessEnv }): Promise<LocalPostgres> {
  const env = options.env ?? process.env;
  const binDir = findPostgresBinaries(env);
  if (!binDir) throw new LocalPostgresError(`SIM_STORE=local runs PostgreSQL from this machine's packages, and none was found under ${POSTGRES_ROOT}/<major>/bin: apt-get install postgresql, set POSTGRES_BIN, or leave SIM_STORE unset for the embedded store`);
  const log = options.log ?? (() => {});
  const user = postgresRunAs();
  const dataDir = path.resolve(options.dir, 'data');
  const passwordFile = path.resolve(options.dir, 'password');
  const bin = (name: string) => path.join(binDir, name);
  const spawnOptions: SpawnOptions = { cwd: path.resolve(options.dir), env: { ...env, LC_ALL: 'C', TZ: 'UTC' }, ...user };
  const run = (name: string, args: string[]) => runPostgresBinary(bin(name), args, spawnOptions, log);

  // The directory keeps the default mode (the postgres user must pass through it); only the data is private.
  mkdirSync(options.dir, { recursive: true });
  if (!existsSync(dataDir)) mkdirSync(dataDir, { mode: 0o700 });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (readdirSync(dataDir).length > 0) throw new LocalPostgresError(`${dataDir} holds files but no PostgreSQL data directory (no PG_VERSION): empty it or choose another directory (SIM_STORE=local:DIR)`);
    if (user) chownSync(dataDir, user.uid, user.gid);
    // A password, not trust: any local user could otherwise connect to 127.0.0.1 as the superuser. initdb
    // (run as postgres) reads it from a file of its own, removed once read; the sandbox keeps it beside.
    writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
    const pwfile = path.join(dataDir, '..', `.initdb-password-${process.pid}`);
    copyFileSync(passwordFile, pwfile);
    if (user) chownSync(pwfile, user.uid, user.gid);
    await run('initdb', initdbArgs(dataDir, ['--auth=scram-sha-256', `--pwfile=${pwfile}`]))
      .catch((error: Error) => {
        const unreachable = user && /permission denied/i.test(error.message);
        throw new LocalPostgresError(unreachable ? `PostgreSQL runs as the user postgres (the sandbox runs as root), who cannot reach ${dataDir}: choose a directory every parent of which it may enter (SIM_STORE=local:DIR)` : `initdb failed in ${dataDir}: ${error.message}`);
      })
      .finally(() => rmSync(pwfile, { force: true }));
  }
  if (!existsSync(passwordFile)) throw new LocalPostgresError(`${passwordFile} is missing: it holds the password of the server in ${dataDir}; restore it, or empty ${options.dir} to start over`);
  const password = encodeURIComponent(readFileSync(passwordFile, 'utf8').trim());

  // A server killed with the sandbox (power loss, or kill -9) can stay a zombie where nobody reaps orphans
  // (a container whose pid 1 does not): pg_ctl and the server itself take its pid for a live server and
  // refuse to start. Its pid file is stale then, as the server judges one whose pid is gone.
  const postmaster = postmasterOf(dataDir);
  const stale = postmaster !== null && !(postmaster.pid > 0 && processIsAlive(postmaster.pid));
  if (stale) rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
  const running = postmaster !== null && !stale && (await run('pg_ctl', ['status', '-D', dataDir]).then(() => true, () => false));
  const reused = running && Number.isInteger(postmaster.port) && postmaster.port > 0;
  // No Unix socket (-k ''): a long .sim-data path would overflow its 107-byte name; TCP on loopback only.
  // Checkpoints at most 32 MB of WAL apart (the least PostgreSQL takes; 1 GB by default): a start after the
  // server itself was killed replays the WAL since the last one and then checkpoints, so this bounds that
  // work whatever the store's size. Measured right after writing 130,000 jobs: 128 MB took 2.2 s (0.94 s of
  // redo, a 0.6 s checkpoint), 32 MB 0.64-0.76 s; the fill took no longer (37-42 s against 43 s).
  const settings = (port: number) => `-c listen_addresses=127.0.0.1 -p ${port} -k '' -c max_wal_size=32MB -c checkpoint_timeout=60s`;
  const port = reused
    ? postmaster.port
    : await startOnFreePort((args) => run('pg_ctl', args), dataDir, path.join(dataDir, 'server.log'), settings).catch((error: Error) => {
        throw new LocalPostgresError(`PostgreSQL did not start in ${dataDir}: ${error.message}`);
      });

  const { default: postgres } = await import('postgres');
  const admin = postgres(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [exists] = await admin`SELECT 1 FROM pg_database WHERE datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`CREATE DATABASE ${DATABASE}`);
  } catch (error) {
    // A pid file naming a live process that is no server of this directory (a pid reused after a reboot).
    throw new LocalPostgresError(`the PostgreSQL server of ${dataDir} (port ${port}${reused ? `, pid ${postmaster?.pid} in postmaster.pid` : ''}) does not answer: ${(error as Error).message}${reused ? '; if that pid is no postgres process, delete postmaster.pid and start again' : ''}`);
  } finally {
    await admin.end({ timeout: 5 });
  }

  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE}`,
    dataDir,
    reused,
    stop: () => (stopped ??= run('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60']).then(() => undefined)),
  };
}
