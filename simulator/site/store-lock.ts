// One process per store (issue 16): two simulators writing one journal would each replay only their own
// writes, so a job created on one is 404 on the other and the journal interleaves. A lock file beside the
// store (`<SIM_DB>.lock`: pid, host, start time) is created exclusively at start and removed at exit; a
// second start on the same store refuses with one line naming the holder. A lock left by a process that
// is gone (SIGKILL, power loss) is taken over with a notice. Only this host's pids can be checked: a lock
// written on another host (a store on a shared disk) is reported, never taken over.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';

interface StoreLockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export class StoreLockedError extends Error {}

export interface StoreLock {
  file: string;
  /** Removes the lock file if it is still this process's own. Idempotent. */
  release(): void;
}

export const lockFileOf = (storeFile: string) => `${storeFile}.lock`;

/** Whether a process with this pid runs on this host (a zombie, exited but not yet reaped, does not). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
  try {
    // Linux: the state letter after the command name in /proc/<pid>/stat; Z is a zombie.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function readHolder(file: string): StoreLockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as StoreLockHolder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined; // missing, or torn by a crash between create and write
  }
}

const statMs = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** Takes the lock of `storeFile` for this process, or throws StoreLockedError with one line to print. */
export function acquireStoreLock(storeFile: string, options: { notice?: (line: string) => void; now?: () => Date; howToChoose?: string } = {}): StoreLock {
  const file = lockFileOf(storeFile);
  const howToChoose = options.howToChoose ?? 'SIM_DB or --db';
  const me: StoreLockHolder = { pid: process.pid, host: os.hostname(), startedAt: (options.now?.() ?? new Date()).toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, JSON.stringify(me) + '\n');
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          if (readHolder(file)?.pid === me.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && holder.host !== me.host) {
      throw new StoreLockedError(`store ${storeFile} is locked by pid ${holder.pid} on host ${holder.host} (since ${holder.startedAt}): stop it, or delete ${file} if that process is gone, or use another store (${howToChoose})`);
    }
    // An empty lock younger than a second is another start between its create and its write.
    if (!holder && Date.now() - statMs(file) < 1000) throw new StoreLockedError(`store ${storeFile} is being opened by another process: wait, or use another store (${howToChoose})`);
    if (holder && holder.pid !== me.pid && processIsAlive(holder.pid)) {
      throw new StoreLockedError(`store ${storeFile} is in use by pid ${holder.pid} (started ${holder.startedAt}): stop it, or give this sandbox its own store (${howToChoose})`);
    }
    options.notice?.(holder ? `taking over the lock of ${storeFile} left by pid ${holder.pid} (started ${holder.startedAt}), which is gone` : `replacing the unreadable lock file ${file}`);
    rmSync(file, { force: true });
  }
  throw new StoreLockedError(`store ${storeFile}: another process took the lock while this one was starting`);
}
