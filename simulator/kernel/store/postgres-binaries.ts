// Debian's PostgreSQL server binaries (apt-get install postgresql), for the servers this project starts
// itself: the sandbox's own (SIM_STORE=local, site/local-postgres.ts) and the throwaway ones of tests and the
// local cluster (testing/postgres-server.ts). Nothing is downloaded.
import { spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../../contracts/lib/prism.js';

/** Where Debian puts each major version's binaries (/usr/lib/postgresql/<major>/bin). */
export const POSTGRES_ROOT = '/usr/lib/postgresql';

/** POSTGRES_BIN first when set, else the newest major version under /usr/lib/postgresql; null when none. */
export function findPostgresBinaries(env: NodeJS.ProcessEnv = process.env, root = POSTGRES_ROOT): string | null {
  const installed = existsSync(root)
    ? readdirSync(root)
        .filter((major) => /^\d+$/.test(major))
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => path.join(root, major, 'bin'))
    : [];
  const candidates = [env.POSTGRES_BIN, ...installed].filter((c): c is string => Boolean(c));
  return candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) ?? null;
}

/** initdb refuses to run as root: then every binary runs as the `postgres` user the Debian package creates. */
export function postgresRunAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run PostgreSQL as (the Debian package creates it)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs one of the binaries to its end: resolves its output, rejects with the output on a non-zero exit. */
export function runPostgresBinary(binary: string, args: string[], options: SpawnOptions, log: (line: string) => void = () => {}): Promise<string> {
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

/** initdb's arguments: the superuser is `postgres` whoever runs it, and the C collation sorts strings by
 *  code point, as the journal store does (postgres-store.ts). `auth`: how connections authenticate. */
export const initdbArgs = (dataDir: string, auth: string[]): string[] => ['-D', dataDir, '-U', 'postgres', '--locale=C', '-E', 'UTF8', ...auth, '--no-instructions'];

/**
 * `pg_ctl start` on a free port (`settings(port)` are the server's options), answering the port. Another
 * process may take the free port between the probe and the bind: then another port, three tries in all.
 * Rejects with pg_ctl's message and the end of the server's log.
 */
export async function startOnFreePort(pgCtl: (args: string[]) => Promise<string>, dataDir: string, logFile: string, settings: (port: number) => string): Promise<number> {
  const serverLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await pgCtl(['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', settings(port)]);
      return port;
    } catch (error) {
      const log = serverLog();
      if (attempt >= 3 || !/could not bind|already in use/i.test(log)) throw new Error(`${(error as Error).message}\nserver log:\n${log}`);
    }
  }
}

/** A running server's pid and port, from the first and fourth lines of its data directory's postmaster.pid;
 *  null when there is none. */
export function postmasterOf(dataDir: string): { pid: number; port: number } | null {
  const file = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}
