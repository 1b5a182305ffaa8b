// The cluster's last resort (testing/cluster.ts): a small process that outlives the one that started the
// cluster only to clean up after it. Its parent tells it, line by line on its stdin, what it started:
//   pid <n>        a process to SIGKILL (an instance, HAProxy)
//   pgdata <dir>   a PostgreSQL data directory whose postmaster to stop at once (SIGQUIT, then SIGKILL)
//   dir <path>     a temporary directory to remove
//   disarm         the parent cleaned up itself: exit without touching anything
// Its stdin reaches end-of-file when the parent is gone, however it died (a SIGKILLed test runner runs no
// exit handler, but the kernel closes its end of the pipe): then everything listed is stopped and removed.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const pids = new Set<number>();
const dataDirs = new Set<string>();
const dirs = new Set<string>();
let armed = true;
let pending = '';

const signal = (pid: number, name: NodeJS.Signals | 0) => {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // already gone
  }
};

/** The postmaster's pid: the first line of postmaster.pid, while the server runs. */
const postmasterOf = (dataDir: string): number | null => {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

async function reap() {
  for (const pid of pids) signal(pid, 'SIGKILL');
  // SIGQUIT is PostgreSQL's immediate shutdown: the postmaster stops its backends itself.
  const postmasters = [...dataDirs].map(postmasterOf).filter((pid): pid is number => pid !== null);
  for (const pid of postmasters) signal(pid, 'SIGQUIT');
  const deadline = Date.now() + 5_000;
  while (postmasters.some((pid) => signal(pid, 0)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const pid of postmasters) signal(pid, 'SIGKILL');
  for (const dir of [...dataDirs, ...dirs]) rmSync(dir, { recursive: true, force: true });
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let newline: number;
  while ((newline = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    const space = line.indexOf(' ');
    const [verb, arg] = space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)];
    if (verb === 'pid') pids.add(Number(arg));
    else if (verb === 'unpid') pids.delete(Number(arg));
    else if (verb === 'pgdata') dataDirs.add(arg);
    else if (verb === 'dir') dirs.add(arg);
    else if (verb === 'disarm') armed = false;
  }
});
process.stdin.on('end', () => {
  if (!armed) process.exit(0);
  reap().finally(() => process.exit(0));
});
