// The auth, isolation, limits and billing checks pass against a healthy simulator and fail with each
// defect of the catalogue they are meant to catch (DEFECT_EXPECTATIONS). One simulator: the defects are
// switched on at run time, one at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../harness/check.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport } from '../harness/types.js';
import { defectsCaughtBy, FILL_READ_BUCKET_RUNS, runsFor, startTestTarget, type TestTarget } from '../testing/simulator.js';
import { authAttackChecks } from './auth-attacks.js';
import { authChecks } from './auth.js';
import { billingChecks } from './billing.js';
import { isolationChecks } from './isolation.js';
import { limitChecks } from './limits.js';

const CHECKS: Check[] = [...authChecks, ...authAttackChecks, ...isolationChecks, ...limitChecks, ...billingChecks];

/** The defects of the catalogue these checks must catch, and the checks that must fail with each. */
const DEFECTS = defectsCaughtBy(CHECKS.map((c) => c.id));

const summary = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''} ${r.failures.map((f) => `[${f.rule}] ${f.message}`).join(' | ').slice(0, 400)}`);

let target: TestTarget;
const started = performance.now();

beforeAll(async () => {
  target = await startTestTarget({ label: 'auth-test' });
});

afterAll(async () => {
  await target?.close();
  console.log(`auth/isolation/limits/billing checks: ${((performance.now() - started) / 1000).toFixed(1)} s for ${DEFECTS.length} defects on one simulator`);
});

describe('auth, isolation, limits and billing checks on a healthy simulator', () => {
  it('pass', async () => {
    const report = await runSuite(target.options({ only: CHECKS.map((c) => c.id) }), CHECKS);
    expect(report.results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
    expect(summary({ ...report, results: report.results.filter((r) => r.verdict !== 'passed') })).toEqual([]);
  });

  it('limits.retry-after-on-429 validates the 429s of a filled read bucket (runs 500: past twice the default 240, so a burst across a fixed window end fills one too)', async () => {
    // A fresh read window: the checks before this one read with the same key in the current window.
    await target.control('POST', '/_sim/clock/advance', { seconds: 61 });
    const report = await runSuite(target.options({ only: ['limits.retry-after-on-429'], runs: FILL_READ_BUCKET_RUNS }), CHECKS);
    expect(summary(report)).toEqual([expect.stringMatching(/^limits\.retry-after-on-429: passed/)]);
    expect(report.results[0].requests).toBeGreaterThan(240);
    // The bucket was given back: the tenant is served again.
    const again = await runSuite(target.options({ only: ['auth.tampered-token'] }), CHECKS);
    expect(summary(again)).toEqual([expect.stringMatching(/^auth\.tampered-token: passed/)]);
  });
});

describe('auth, isolation, limits and billing checks catch their defects', () => {
  it.each(DEFECTS)('%s fails %j', async (defect, ids) => {
    const report = await target.withDefects([defect], () => runSuite(target.options({ only: ids, runs: runsFor(ids) }), CHECKS));
    expect(report.results.map((r) => r.id).sort()).toEqual([...ids].sort());
    const survivors = report.results.filter((r) => r.verdict !== 'failed').map((r) => `${r.id} ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
    expect(survivors, `checks that did not catch ${defect}`).toEqual([]);
    // Caught by an assertion, not by an exception inside the check.
    for (const result of report.results) expect(result.failures.some((f) => f.rule !== 'check-error'), summary(report).join('\n')).toBe(true);
  });
});
