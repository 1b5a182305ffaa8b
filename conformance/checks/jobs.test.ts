// The job, pagination and idempotency checks against the simulator run as a process: they pass on a healthy
// simulator (simulator profile with the control API, sandbox profile without it, readonly), and each defect
// of the catalogue meant for them makes them fail.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import { runSuite } from '../harness/runner.js';
import type { Profile, RunReport, TargetOptions } from '../harness/types.js';
import { idempotencyChecks } from './idempotency.js';
import { jobChecks } from './jobs.js';
import { paginationChecks } from './pagination.js';

const ADMIN = 'jobs-test-admin';
const KEY = 'tfk_jobs_test_key';
const CHECKS = [...jobChecks, ...paginationChecks, ...idempotencyChecks];

const start = (defects?: string) =>
  startSimulatorProcess({
    SIM_DB: path.join(mkdtempSync(path.join(os.tmpdir(), 'jobs-checks-')), 'store.json'),
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_INTEGRATION_KEY: KEY,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
    ...(defects ? { SIM_DEFECTS: defects } : {}),
  });

const options = (sim: SimulatorProcess, profile: Profile, extra: Partial<TargetOptions> = {}): TargetOptions => ({
  baseUrl: sim.url,
  apiKey: KEY,
  adminToken: profile === 'simulator' ? ADMIN : undefined,
  contract: 'v1.3.0',
  profile,
  seed: 20261121,
  runs: 100,
  ...extra,
});

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict} (${r.durationMs} ms)${r.reason ? ` ${r.reason}` : ''}${r.failures.map((f) => `\n  ${f.rule}: ${f.message.slice(0, 400)}`).join('')}`).join('\n');

describe('job, pagination and idempotency checks on a healthy simulator', () => {
  let sim: SimulatorProcess;
  beforeAll(async () => {
    sim = await start();
  });
  afterAll(async () => {
    await sim?.kill();
  });

  it('pass in the simulator profile (100 model sequences well under a minute)', async () => {
    const report = await runSuite(options(sim, 'simulator'), CHECKS);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(CHECKS.map(() => 'passed'));
    const model = report.results.find((r) => r.id === 'jobs.lifecycle-model')!;
    console.log(`jobs.lifecycle-model: 100 sequences in ${model.durationMs} ms`);
    expect(model.durationMs).toBeLessThan(30_000);
  }, 120_000);

  it('pass in the sandbox profile without the control API (shared tenant, real-time polling)', async () => {
    const report = await runSuite(options(sim, 'sandbox'), CHECKS);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(CHECKS.map(() => 'passed'));
  }, 120_000);

  it('page through what exists in the readonly profile and skip the writing checks', async () => {
    await runSuite(options(sim, 'sandbox', { only: ['pagination.jobs-traversal'] }), CHECKS); // some jobs to page through
    const report = await runSuite(options(sim, 'readonly'), CHECKS);
    const verdicts = Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));
    expect(verdicts['pagination.jobs-traversal'], describeResults(report)).toBe('passed');
    expect(Object.entries(verdicts).filter(([id]) => id !== 'pagination.jobs-traversal').every(([, verdict]) => verdict === 'skipped')).toBe(true);
  }, 60_000);
});

/** The defects of the catalogue meant for these checks, and the checks that must catch each. */
const DEFECTS: Record<string, string[]> = {
  'job.missing-required-field': ['jobs.lifecycle-model'],
  'job.wrong-status-enum': ['jobs.lifecycle-model'],
  'jobs.updated-at-frozen': ['jobs.lifecycle-model'],
  'jobs.progress-not-100': ['jobs.lifecycle-model'],
  'jobs.stuck-pending': ['jobs.lifecycle-model'],
  'jobs.completed-then-processing': ['jobs.lifecycle-model'],
  'jobs.list-count-missing': ['jobs.list-filters'],
  'jobs.list-filter-ignored': ['jobs.list-filters'],
  'pagination.offset-gap': ['pagination.jobs-traversal'],
  'pagination.duplicate': ['pagination.jobs-traversal'],
  'idempotency.replay-creates-job': ['idempotency.replay'],
  'idempotency.conflict-ignored': ['idempotency.conflict'],
  'idempotency.replayed-flag-missing': ['idempotency.replay'],
  'idempotency.concurrent-duplicates': ['idempotency.concurrent'],
};

describe('each defect meant for these checks makes them fail', () => {
  it.each(Object.entries(DEFECTS))('%s', async (defect, ids) => {
    const sim = await start(defect);
    try {
      const report = await runSuite(options(sim, 'simulator', { runs: 15, only: ids }), CHECKS);
      expect(report.results.map((r) => r.id).sort()).toEqual([...ids].sort());
      expect(report.results.filter((r) => r.verdict !== 'failed').map((r) => r.id), describeResults(report)).toEqual([]);
      const model = report.results.find((r) => r.id === 'jobs.lifecycle-model');
      if (model) {
        // One failure for the whole model, shrunk, with what replays it.
        expect(model.failures).toHaveLength(1);
        const [failure] = model.failures;
        expect(failure.rule).toBe('model-jobs');
        expect(failure.seed).toBe(20261121);
        expect(failure.counterexample).toBeTruthy();
        expect(failure.replay).toContain('--only jobs.lifecycle-model');
      }
    } finally {
      await sim.kill();
    }
  }, 90_000);
});
