// npm run cluster as a user runs it: the usage, the addresses it prints, and that it leaves nothing running,
// whether stopped by a signal it handles (SIGTERM: it stops everything itself) or SIGKILLed (its reaper does).
// The cluster runs skip locally without PostgreSQL or HAProxy; they fail under CI (.ci/run installs them).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clusterSkipReason } from '../simulator/testing/cluster.js';

const skipReason = clusterSkipReason();
const CLI = ['--import', 'tsx', 'scripts/cluster.ts'];

/** Whether something accepts connections on the port of `url` (postgres:// or http://). */
const listening = (url: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Starts the command and answers once it printed its addresses: label -> value. */
async function startCli(): Promise<{ child: ChildProcess; printed: Map<string, string>; stderr: () => string }> {
  const child = spawn(process.execPath, [...CLI, '--instances', '2'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SIM_ADMIN_TOKEN: 'cli-admin' } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no addresses within 90 s:\n${out}\n${err}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}\n${err}`)));
    const poll = setInterval(() => {
      if (!out.includes('Ctrl-C stops')) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve();
    }, 50);
  });
  const printed = new Map([...out.matchAll(/^ {2}(\S+(?: \S+)?) {2,}(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  return { child, printed, stderr: () => err };
}

/** Every address it printed, as soon as nothing listens on any of them (or the timeout). */
async function allClosed(urls: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = (await Promise.all(urls.map(async (url) => ((await listening(url)) ? url : null)))).filter(Boolean);
    if (open.length === 0 || Date.now() > deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm run cluster', () => {
  it('prints its usage with --help and refuses a bad --instances in one line', () => {
    const help = spawnSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run cluster -- [--instances N]');
    const bad = spawnSync(process.execPath, [...CLI, '--instances', 'two'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('npm run cluster: --instances must be a whole number from 1 to 16, not two');
  });

  describe.skipIf(skipReason !== null)(`with PostgreSQL and HAProxy${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
    it('prints the load balancer, each instance, the database and the credentials, and stops all of it on SIGTERM', { timeout: 120_000 }, async () => {
      const { child, printed, stderr } = await startCli();
      const urls = [printed.get('load balancer')!, printed.get('instance sim-1')!, printed.get('instance sim-2')!, printed.get('database')!];
      expect(urls.every(Boolean), [...printed].join('\n')).toBe(true);
      expect(printed.get('database')).toMatch(/^postgres:\/\/.+@127\.0\.0\.1:\d+\//);
      expect(printed.get('admin token')).toBe('cli-admin');
      expect(printed.get('integration key')).toMatch(/^tfk_/);
      // The integration key works through the load balancer, on whichever instance answers.
      for (let i = 0; i < 2; i++) {
        const token = await fetch(`${printed.get('load balancer')}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': printed.get('integration key')! } });
        expect(token.status).toBe(200);
      }

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited, stderr()).toBe(0);
      expect(await allClosed(urls, 1_000)).toEqual([]);
    });

    it('leaves nothing running when it is SIGKILLed: its reaper stops what it started', { timeout: 120_000 }, async () => {
      const { child, printed } = await startCli();
      const urls = [printed.get('load balancer')!, printed.get('instance sim-1')!, printed.get('instance sim-2')!, printed.get('database')!];
      child.kill('SIGKILL');
      expect(await allClosed(urls, 15_000)).toEqual([]);
    });
  });
});
