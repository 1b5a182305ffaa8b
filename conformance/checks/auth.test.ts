// The auth, isolation, limits and billing checks pass against a healthy simulator and fail against a
// simulator started with each defect they are meant to catch (SIM_DEFECTS). One simulator per defect,
// started a few at a time in the background while earlier tests run.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import type { Check } from '../harness/check.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport, TargetOptions } from '../harness/types.js';
import { authChecks } from './auth.js';
import { billingChecks } from './billing.js';
import { isolationChecks } from './isolation.js';
import { limitChecks } from './limits.js';

const ADMIN = 'auth-test-admin';
const KEY = 'tfk_auth_test_key';
const CHECKS: Check[] = [...authChecks, ...isolationChecks, ...limitChecks, ...billingChecks];

/** The defects of the catalogue these checks must catch, and the checks that must fail with each. */
const DEFECTS: Record<string, string[]> = {
  'error.lost-envelope': ['auth.missing-bearer'],
  'auth.missing-bearer-wrong-code': ['auth.missing-bearer'],
  'auth.expired-token-accepted': ['auth.expired-token'],
  'auth.revoked-key-tokens-valid': ['auth.revoked-key'],
  'auth.signature-not-verified': ['auth.tampered-token'],
  'auth.principal-not-enforced': ['auth.principal-denied'],
  'auth.unknown-key-wrong-code': ['auth.unknown-key'],
  'isolation.tenant-leak': ['isolation.jobs'],
  'error.wrong-code': ['isolation.jobs'],
  'limits.missing-retry-after': ['limits.rate-limit', 'limits.retry-after-on-429'],
  'limits.details-incomplete': ['limits.rate-limit', 'limits.retry-after-on-429'],
  'limits.rate-limit-off': ['limits.rate-limit'],
  'limits.queue-cap-off': ['limits.queue-cap'],
  'billing.wrong-content-type': ['billing.setup-session'],
  'billing.new-customer-each-call': ['billing.setup-session'],
};

const start = (defects?: string) =>
  startSimulatorProcess({
    SIM_DB: path.join(mkdtempSync(path.join(os.tmpdir(), 'conform-auth-')), 'store.json'),
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_INTEGRATION_KEY: KEY,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
    ...(defects ? { SIM_DEFECTS: defects } : {}),
  });

/** Starts `tasks` at most `limit` at a time; each promise settles when its own task does. */
function pooled<T>(tasks: Array<() => Promise<T>>, limit: number): Array<Promise<T>> {
  const gates: Array<() => void> = [];
  let running = 0;
  const release = () => {
    running--;
    gates.shift()?.();
  };
  return tasks.map(async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => gates.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  });
}

const options = (url: string, only: string[], runs = 15): TargetOptions => ({ baseUrl: url, apiKey: KEY, adminToken: ADMIN, contract: 'v1.3.0', profile: 'simulator', seed: 20261121, runs, only });

const summary = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''} ${r.failures.map((f) => `[${f.rule}] ${f.message}`).join(' | ').slice(0, 400)}`);

let healthy: Promise<SimulatorProcess>;
const defective = new Map<string, Promise<SimulatorProcess>>();
const started = performance.now();

beforeAll(() => {
  const [first, ...rest] = pooled([() => start(), ...Object.keys(DEFECTS).map((defect) => () => start(defect))], 4);
  healthy = first;
  Object.keys(DEFECTS).forEach((defect, index) => defective.set(defect, rest[index]));
  // Start-up failures are reported by the test that needs the simulator.
  for (const sim of [first, ...rest]) sim.catch(() => {});
});

afterAll(async () => {
  await Promise.all([healthy, ...defective.values()].map((sim) => sim.then((s) => s.kill(), () => {})));
  console.log(`auth/isolation/limits/billing checks: ${((performance.now() - started) / 1000).toFixed(1)} s for ${defective.size + 1} simulators`);
});

describe('auth, isolation, limits and billing checks on a healthy simulator', () => {
  it('pass (auth.scope-denied: until the carrier-agreement upload is implemented, fails only on its 501)', async () => {
    const sim = await healthy;
    const status = (await (await fetch(`${sim.url}/_sim/status`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { unhandled?: Record<string, string[]> };
    const uploadUnhandled = (status.unhandled?.['v1.3.0'] ?? []).includes('uploadCarrierAgreement');
    const report = await runSuite(options(sim.url, CHECKS.map((c) => c.id)), CHECKS);
    expect(report.results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
    const notPassed = report.results.filter((r) => r.verdict !== 'passed');
    if (uploadUnhandled) {
      expect(summary({ ...report, results: notPassed })).toEqual([expect.stringMatching(/^auth\.scope-denied: failed /)]);
      const failures = notPassed[0].failures;
      expect(failures.map((f) => f.rule)).toEqual(['response-conformance']);
      expect(failures[0].exchange?.response.status).toBe(501);
    } else {
      expect(summary({ ...report, results: notPassed })).toEqual([]);
    }
  });

  it('limits.retry-after-on-429 validates the 429s of a filled read bucket (runs 300 > the default 240)', async () => {
    const sim = await healthy;
    const report = await runSuite(options(sim.url, ['limits.retry-after-on-429'], 300), CHECKS);
    expect(summary(report)).toEqual([expect.stringMatching(/^limits\.retry-after-on-429: passed/)]);
    expect(report.results[0].requests).toBeGreaterThan(240);
    // The bucket was given back: the tenant is served again.
    const again = await runSuite(options(sim.url, ['auth.tampered-token']), CHECKS);
    expect(summary(again)).toEqual([expect.stringMatching(/^auth\.tampered-token: passed/)]);
  });
});

describe('auth, isolation, limits and billing checks catch their defects', () => {
  it.each(Object.entries(DEFECTS))('%s fails %j', async (defect, ids) => {
    const sim = await defective.get(defect)!;
    const runs = ids.includes('limits.retry-after-on-429') ? 300 : 15;
    const report = await runSuite(options(sim.url, ids, runs), CHECKS);
    expect(report.results.map((r) => r.id).sort()).toEqual([...ids].sort());
    const survivors = report.results.filter((r) => r.verdict !== 'failed').map((r) => `${r.id} ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
    expect(survivors, `checks that did not catch ${defect}`).toEqual([]);
    // Caught by an assertion, not by an exception inside the check.
    for (const result of report.results) expect(result.failures.some((f) => f.rule !== 'check-error'), summary(report).join('\n')).toBe(true);
  });
});
