// The whole suite as CI runs it against a simulator we start (suite.test.ts: one process; cluster.test.ts:
// two instances behind a load balancer), and what such a run must show: every check passed, none skipped,
// the sandbox left as it was found, within three minutes.
import { expect, it } from 'vitest';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport } from '../harness/types.js';
import { sandboxState, type SandboxState, type TestTarget } from './simulator.js';

/** The simulator's own job timings, as deployed, and no webhook allow list at start: the run allows its
 *  local receiver through the control API, as the README's simulator-profile command does. */
export const AS_DEPLOYED = { SIM_JOB_START_DELAY_MS: undefined, SIM_JOB_PROCESSING_MS: undefined, SIM_WEBHOOK_ALLOW_TARGETS: undefined };

export interface WholeSuiteRun {
  report: RunReport;
  seconds: number;
  before: SandboxState;
  after: SandboxState;
}

/** The simulator profile with every check of v1.3.0, 100 command sequences per state machine. */
export async function runWholeSuite(target: Pick<TestTarget, 'options' | 'control'>): Promise<WholeSuiteRun> {
  const before = await sandboxState(target);
  const started = performance.now();
  const report = await runSuite(target.options({ runs: 100 }), checksFor(loadTargetContract('v1.3.0')));
  const seconds = (performance.now() - started) / 1000;
  return { report, seconds, before, after: await sandboxState(target) };
}

export const totalsLine = ({ report, seconds }: WholeSuiteRun) =>
  `${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals.skipped} skipped in ${seconds.toFixed(1)} s`;

/** The tests every whole-suite run must pass; `run` is read when they run (after beforeAll). */
/**
 * The whole suite's checks against a started target. `boundSeconds`: the run's stall bound, three minutes
 * for one process; a target behind more moving parts passes its own (cluster.test.ts).
 */
export function itPassesEveryCheckAndLeavesTheSandbox(run: () => WholeSuiteRun, boundSeconds = 180) {
  it('passes every check, skips none', () => {
    const { report } = run();
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.id}: ${r.failures.map((f) => `${f.rule}: ${f.message}`).join(' | ').slice(0, 400)}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.verdict === 'skipped').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.totals.passed).toBeGreaterThan(0);
  });

  it('leaves the tenant list, the sandbox-wide clock and the webhook allow list as it found them', () => {
    const { report, before, after } = run();
    expect(report.notes ?? []).toEqual([]);
    expect(after).toEqual(before);
    expect(before.allowTargets).toEqual([]);
  });

  it(`runs every check of the simulator profile in under ${boundSeconds / 60} minutes`, () => {
    expect(run().seconds).toBeLessThan(boundSeconds);
  });
}
