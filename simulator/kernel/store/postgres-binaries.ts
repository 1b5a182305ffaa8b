// Debian's PostgreSQL server binaries (apt-get install postgresql), for the servers this project starts
// itself: the sandbox's own (SIM_STORE=local, site/local-postgres.ts) and the throwaway ones of tests and the
// local cluster (testing/postgres-server.ts). Nothing is downloaded.
import { spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

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
