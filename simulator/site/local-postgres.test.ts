// SIM_STORE=local (local-postgres.ts): a real sandbox process, a real PostgreSQL from the machine's packages.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { findPostgresBinaries, postgresRunAs, postmasterOf } from '../kernel/store/postgres-binaries.js';
import { postgresSkipReason } from '../testing/postgres-server.js';
import { callProcess, startSimulatorProcess, type SimulatorProcess } from '../testing/process.js';
import { processIsAlive } from './store-lock.js';

const KEY = 'tfk_local_postgres_key';
const env = (dir: string) => ({ SIM_STORE: `local:${dir}`, SIM_ADMIN_TOKEN: 'local-admin', SIM_INTEGRATION_KEY: KEY, SIM_JOB_START_DELAY_MS: '100', SIM_JOB_PROCESSING_MS: '200' });
/** The running server's pid: a missing postmaster.pid (no server) fails the test. */
function postmasterPid(dir: string): number {
  const postmaster = postmasterOf(path.join(dir, 'data'));
  if (!postmaster) throw new Error(`no postmaster.pid in ${dir}/data: no server runs there`);
  return postmaster.pid;
}

const running: SimulatorProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill('SIGKILL')));
  // A failed assertion must not leave a server behind.
  const bin = findPostgresBinaries();
  for (const dir of dirs.splice(0)) {
    if (bin && existsSync(path.join(dir, 'data', 'postmaster.pid'))) spawnSync(path.join(bin, 'pg_ctl'), ['stop', '-D', path.join(dir, 'data'), '-m', 'immediate', '-w'], { stdio: 'ignore', ...postgresRunAs() });
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A directory as `npm start` makes .sim-data (the default mode): run as root, the server runs as the
 *  postgres user, which must pass through it (mkdtemp's 0700 would keep it out). */
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-local-pg-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(postgresSkipReason() !== null)('SIM_STORE=local', () => {
  it('keeps a job acknowledged before a SIGKILL in the server left running, which the next start takes over and a clean stop stops', async () => {
    const dir = tempDir();
    const first = await startSimulatorProcess(env(dir));
    running.push(first);
    expect((await callProcess(`${first.url}/healthz`)).body).toMatchObject({ status: 'ok', store: 'postgres' });
    const token = (await callProcess(`${first.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } })).body.access_token as string;
    const accepted = await callProcess(`${first.url}/api/sima/batch`, { method: 'POST', token, json: { skus: null } });
    expect(accepted.status).toBe(202);
    const server = postmasterPid(dir);
    // Loopback, but not open to every local user: the superuser needs the password only the sandbox's user reads.
    const anyone = postgres(`postgres://postgres@127.0.0.1:${postmasterOf(path.join(dir, 'data'))!.port}/sim`, { max: 1, connect_timeout: 5 });
    await expect(anyone`SELECT 1`).rejects.toThrow(/password/);
    await anyone.end({ timeout: 1 });
    expect(statSync(path.join(dir, 'password')).mode & 0o077).toBe(0);
    await first.kill('SIGKILL'); // the sandbox dies; its server, detached, does not

    expect(processIsAlive(server)).toBe(true);
    const second = await startSimulatorProcess(env(dir));
    running.push(second);
    expect(postmasterPid(dir)).toBe(server); // taken over, not a second server on the same data
    const job = await waitFor('the job to complete after the restart', async () => {
      const res = await callProcess(`${second.url}/api/jobs/${accepted.body.jobId}`, { token });
      return res.body.status === 'COMPLETED' ? res.body : undefined;
    });
    expect(job).toMatchObject({ id: accepted.body.jobId, status: 'COMPLETED' });

    await second.kill('SIGTERM'); // a clean stop stops the server too
    expect(processIsAlive(server)).toBe(false);
    expect(existsSync(path.join(dir, 'data', 'postmaster.pid'))).toBe(false);

    const third = await startSimulatorProcess(env(dir));
    running.push(third);
    expect(postmasterPid(dir)).not.toBe(server);
    expect((await callProcess(`${third.url}/api/jobs/${accepted.body.jobId}`, { token })).body).toMatchObject({ id: accepted.body.jobId, status: 'COMPLETED' });
    await third.kill('SIGTERM');
  }, 120_000);

  it('refuses a second sandbox on the same directory with one line naming the holder', async () => {
    const dir = tempDir();
    const first = await startSimulatorProcess(env(dir));
    running.push(first);
    const error = await startSimulatorProcess(env(dir)).then(() => null, (e: Error) => e.message);
    expect(error).toMatch(new RegExp(`store ${dir}/sandbox is in use by pid ${first.child.pid}.*SIM_STORE=local:DIR`));
    expect((await callProcess(`${first.url}/healthz`)).status).toBe(200); // the first one is untouched
  }, 60_000);
});
