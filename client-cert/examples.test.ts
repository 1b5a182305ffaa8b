// The three client examples (scripts/examples/) certified through the command an integrator runs:
// `certify:client -- --base-url URL --scenario all -- node --import tsx scripts/examples/<x>.ts`, exit 0
// and the three reports written. The examples run at once, each certification on tenants of its own.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../simulator/testing/process.js';
import { REPORT_FILES } from './cli.js';
import type { Certificate } from './types.js';

const run = promisify(execFile);
const ADMIN = 'client-cert-examples-admin';
let sim: SimulatorProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'client-cert-examples-'));
  sim = await startSimulatorProcess({ SIM_DB: path.join(dir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_JOB_START_DELAY_MS: '200', SIM_JOB_PROCESSING_MS: '1500' });
}, 120_000);

afterAll(async () => {
  await sim?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function certifyExample(name: 'sima' | 'feed' | 'ship'): Promise<{ code: number; stdout: string; certificate: Certificate; files: string[] }> {
  const reportDir = path.join(dir, name);
  const args = ['--import', 'tsx', 'client-cert/cli.ts', '--base-url', sim.url, '--scenario', 'all', '--report-dir', reportDir, '--timeout', '240', '--quiet', '--', process.execPath, '--import', 'tsx', `scripts/examples/${name}.ts`];
  const { code, stdout } = await run(process.execPath, args, { env: { ...process.env, CONFORM_ADMIN_TOKEN: ADMIN }, timeout: 400_000 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: `${error.stdout}\n${error.stderr}` }),
  );
  const files = Object.values(REPORT_FILES).map((file) => path.join(reportDir, file));
  const certificate = JSON.parse(readFileSync(files[1]!, 'utf8')) as Certificate;
  return { code, stdout, certificate, files };
}

describe('the client examples certified under --scenario all', () => {
  it('certifies example:sima, example:feed and example:ship (exit 0), with no rule failed and the three reports', async () => {
    const results = await Promise.all((['sima', 'feed', 'ship'] as const).map(certifyExample));
    for (const { code, stdout, certificate, files } of results) {
      expect(code, stdout).toBe(0);
      expect(certificate.certified).toBe(true);
      expect(certificate.rules.filter((r) => r.verdict === 'failed')).toEqual([]);
      // Every scenario ran, and the rules each scenario exists for were exercised.
      expect(certificate.runs.map((r) => r.scenario)).toEqual(['steady', 'throttled', 'flaky', 'webhooks']);
      const verdict = (id: string) => certificate.rules.find((r) => r.id === id)!.verdict;
      for (const id of ['token.reused', 'token.exchange-backoff', 'retry.write-once-after-5xx', 'polling.pace', 'webhook.rejects-bad-signature', 'webhook.deduplicates']) expect(verdict(id), id).toBe('passed');
      expect(readFileSync(files[0]!, 'utf8')).toContain('CERTIFIED');
      expect(readFileSync(files[2]!, 'utf8')).toMatch(/^<\?xml/);
      expect(stdout).toMatch(/CERTIFIED: \d+ passed, 0 failed/);
    }
    // example:ship uploads without an Idempotency-Key (spec 4.3), so the flaky scenario judges it; it writes
    // again after its first write, so the throttled scenario refuses it a write (example:sima writes once).
    const ship = (id: string) => results[2]!.certificate.rules.find((r) => r.id === id)!.verdict;
    expect([ship('retry.upload-without-key'), ship('retry.waits-after-429')]).toEqual(['passed', 'passed']);
  });
});
