// jobs.failed-job against the simulator run as a process: it passes on a healthy simulator in the simulator
// profile, is skipped without the control API (the failing input is sandbox-documented, not the spec's), and
// each defect of the catalogue meant for it (DEFECT_EXPECTATIONS) makes it fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/runner.js';
import type { RunReport } from '../harness/types.js';
import { defectsCaughtBy, startTestTarget, type TestTarget } from '../testing/simulator.js';
import { jobFailureChecks } from './jobs-failed.js';

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'jobs-failed-test' });
});
afterAll(async () => {
  await target?.close();
});

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');

describe('jobs.failed-job on a healthy simulator', () => {
  it('passes in the simulator profile', async () => {
    const report = await runSuite(target.options(), jobFailureChecks);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(['passed']);
  }, 60_000);

  it('is skipped in the sandbox profile, naming the control API it needs', async () => {
    const report = await runSuite(target.options({ profile: 'sandbox', adminToken: undefined }), jobFailureChecks);
    expect(report.results.map((r) => [r.verdict, r.reason])).toEqual([['skipped', expect.stringMatching(/simulator profile/)]]);
  }, 30_000);
});

describe('each defect meant for jobs.failed-job makes it fail', () => {
  it.each(defectsCaughtBy(jobFailureChecks.map((c) => c.id)))('%s', async (defect, ids) => {
    await target.withDefects([defect], async () => {
      const report = await runSuite(target.options({ only: ids }), jobFailureChecks);
      expect(report.results.filter((r) => r.verdict !== 'failed').map((r) => r.id), describeResults(report)).toEqual([]);
    });
  }, 60_000);
});
