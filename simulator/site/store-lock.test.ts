import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireStoreLock, lockFileOf, processIsAlive, StoreLockedError } from './store-lock.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'store-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const storeFile = () => path.join(dir, `store-${++n}.json`);
const holder = (pid: number, host = os.hostname()) => JSON.stringify({ pid, host, startedAt: '2026-11-25T10:00:00.000Z' });

/** A real process: alive until `stop`, then gone (reaped) with its pid known. */
async function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { pid: child.pid!, stop: async () => (child.kill('SIGKILL'), await exited) };
}

describe('the store lock (<SIM_DB>.lock)', () => {
  it('is created with this pid, host and start time, and removed on release', () => {
    const file = storeFile();
    const lock = acquireStoreLock(file);
    expect(JSON.parse(readFileSync(lockFileOf(file), 'utf8'))).toEqual({ pid: process.pid, host: os.hostname(), startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    lock.release();
    expect(existsSync(lockFileOf(file))).toBe(false);
  });

  it('refuses while the process holding it runs, in one line naming its pid', async () => {
    const other = await otherProcess();
    try {
      const file = storeFile();
      writeFileSync(lockFileOf(file), holder(other.pid));
      expect(() => acquireStoreLock(file)).toThrow(StoreLockedError);
      expect(() => acquireStoreLock(file)).toThrow(new RegExp(`^store \\S+ is in use by pid ${other.pid} \\(started 2026-11-25T10:00:00.000Z\\): [^\\n]*SIM_DB[^\\n]*$`));
      expect(readFileSync(lockFileOf(file), 'utf8')).toBe(holder(other.pid)); // left alone
    } finally {
      await other.stop();
    }
  });

  it('takes over a lock whose process is gone, with a notice naming it', async () => {
    const other = await otherProcess();
    await other.stop();
    expect(processIsAlive(other.pid)).toBe(false);
    const file = storeFile();
    writeFileSync(lockFileOf(file), holder(other.pid));
    const notices: string[] = [];
    const lock = acquireStoreLock(file, { notice: (line) => notices.push(line) });
    expect(notices).toEqual([expect.stringContaining(`left by pid ${other.pid}`)]);
    expect(JSON.parse(readFileSync(lockFileOf(file), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('never takes over a lock written on another host (its pid cannot be checked here)', () => {
    const file = storeFile();
    writeFileSync(lockFileOf(file), holder(1, 'another-host.example'));
    expect(() => acquireStoreLock(file)).toThrow(/locked by pid 1 on host another-host\.example/);
  });

  it('on release removes only a lock that is still its own', () => {
    const file = storeFile();
    const lock = acquireStoreLock(file);
    writeFileSync(lockFileOf(file), holder(process.pid + 1)); // someone replaced it (e.g. took it over)
    lock.release();
    expect(existsSync(lockFileOf(file))).toBe(true);
  });
});
