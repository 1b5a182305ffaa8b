// `npm start` as a user meets it (issue 16): --help, a mistyped option, a busy port, a store another sandbox
// holds, and the integration key after a restart. Real processes of simulator/main.ts.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../contracts/lib/prism.js';
import { bannerField, startSimulatorProcess, type SimulatorProcess } from '../testing/process.js';
import { lockFileOf } from './store-lock.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'start-process-'));
const running: SimulatorProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((sim) => sim.kill('SIGKILL')));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs main.ts to its exit: code, stdout, stderr. */
function runToExit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'simulator', 'main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', SIM_DB: path.join(dir, 'never-used', 'store.mdb'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 30 s:\n${stdout}${stderr}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const oneLine = (text: string) => text.trimEnd().split('\n');

describe('npm start on the command line', () => {
  it('prints the usage with every option and environment variable on --help and exits 0; an unknown option or a missing value is one line and exit 2', async () => {
    const [help, unknown, missing] = await Promise.all([runToExit(['--help']), runToExit(['--prot', '4011']), runToExit(['--port'])]);
    expect(help.code).toBe(0);
    for (const name of ['--port', '--host', '--contract', '--db', '--strict', '--new-key', '--help', 'PORT', 'SIM_DB', 'SIM_ADMIN_TOKEN', 'SIM_INTEGRATION_KEY', 'SIM_WEBHOOK_ALLOW_TARGETS', 'LOG_LEVEL', 'SIM_DEFECTS']) {
      expect(help.stdout).toContain(name);
    }
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(oneLine(unknown.stderr)).toEqual(['npm start: unknown option --prot (npm start -- --help lists the options)']);
    expect(missing.code).toBe(2);
    expect(oneLine(missing.stderr)).toEqual(['npm start: --port needs a value (npm start -- --help lists the options)']);
    expect(existsSync(path.join(dir, 'never-used'))).toBe(false); // refused before touching a store
  });

  it('refuses a busy port and a store another sandbox holds, each in one line, exit 1; takes over the lock of a killed one; prints a new key on --new-key', async () => {
    const storeDir = path.join(dir, 'shared');
    const env = { SIM_DB: path.join(storeDir, 'store.mdb') };
    const first = await startSimulatorProcess(env);
    running.push(first);
    const port = Number(new URL(first.url).port);
    expect(bannerField(first.output(), 'integration key')).toMatch(/^tfk_sbx_/); // first run: the key itself

    const [busyPort, busyStore] = await Promise.all([
      runToExit([], { SIM_DB: path.join(dir, 'other', 'store.mdb'), PORT: String(port) }),
      runToExit([], { ...env, PORT: String(await freePort()) }),
    ]);
    expect(busyPort.code).toBe(1);
    expect(oneLine(busyPort.stderr)).toEqual([`port ${port} is in use: set PORT or --port`]);
    expect(busyStore.code).toBe(1);
    expect(oneLine(busyStore.stderr)).toEqual([expect.stringMatching(new RegExp(`^store \\S+ is in use by pid ${first.child.pid} \\(started [^)]+\\): stop it, or give this sandbox its own store \\(SIM_DB or --db\\)$`))]);

    // SIGKILL leaves the lock behind; the next start sees its pid gone, says so, and takes it.
    await first.kill('SIGKILL');
    expect(existsSync(lockFileOf(env.SIM_DB))).toBe(true);
    const second = await startSimulatorProcess(env);
    running.push(second);
    expect(second.output()).toContain(`taking over the lock of ${env.SIM_DB} left by pid ${first.child.pid}`);
    // After a restart the key cannot be shown (only its hash is kept): the banner says how to get another.
    expect(second.output()).toMatch(/^ {2}integration key \(key id \S+: shown only when issued/m);
    expect(second.output()).toMatch(/^ {2}another key +npm start -- --new-key, or: curl -X POST http:\S+\/_sim\/tenants\/\S+\/integration-keys/m);
    await second.kill('SIGTERM');
    expect(existsSync(lockFileOf(env.SIM_DB))).toBe(false); // a clean stop removes it

    const third = await startSimulatorProcess(env, { args: ['--new-key'] });
    running.push(third);
    const key = bannerField(third.output(), 'integration key')!;
    expect(key).toMatch(/^tfk_sbx_/);
    const exchange = await fetch(`${third.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(exchange.status).toBe(200);
    await third.kill('SIGTERM');
  });

  it('refuses, in one line with exit 1, to open the journal store of earlier versions as the on-disk store, naming SIM_STORE=journal:FILE; starts on it with that setting', async () => {
    const old = path.join(dir, 'earlier', 'store.json');
    mkdirSync(path.dirname(old), { recursive: true });
    // What the journal store writes first: its journal beside the snapshot's path (the snapshot comes later).
    writeFileSync(`${old}.journal`, '');
    const refused = await runToExit([], { SIM_DB: old, PORT: String(await freePort()) });
    expect(refused.code).toBe(1);
    expect(oneLine(refused.stderr)).toEqual([`${old} holds a journal store (the embedded store of earlier versions): start on it with SIM_STORE=journal:${old}, or move it away for a new store`]);
    const journal = await startSimulatorProcess({ SIM_STORE: `journal:${old}` });
    running.push(journal);
    expect(bannerField(journal.output(), 'store')).toBe(old);
    expect(journal.output()).toContain('(journal store; another sandbox needs its own: SIM_STORE=journal:FILE');
    await journal.kill('SIGTERM');
  });
});
