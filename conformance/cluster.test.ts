// The whole suite against a hosted sandbox (issue 17): two simulator instances over one PostgreSQL database
// behind HAProxy, reached only through the load balancer, so consecutive requests of one check land on
// different instances. As suite.test.ts runs it against one process: the simulator profile with every check,
// 100 command sequences per state machine, the simulator's own job timings; zero failures expected.
// Skips locally without PostgreSQL or HAProxy; fails under CI=true (.ci/run installs them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSkipReason } from '../simulator/testing/cluster.js';
import { checksFor } from './checks/index.js';
import { loadTargetContract } from './harness/contract.js';
import { runSuite } from './harness/runner.js';
import type { RunReport } from './harness/types.js';
import { startClusterTarget, type ClusterTarget } from './testing/cluster.js';
import { sandboxState, type SandboxState } from './testing/simulator.js';

const skipReason = clusterSkipReason();


describe.skipIf(skipReason !== null)(`the conformance suite against two instances over one database behind a load balancer${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let target: ClusterTarget;
  let report: RunReport;
  let seconds: number;
  let before: SandboxState;
  let after: SandboxState;
  /** Public API requests each instance logged, up to 200 (GET /_sim/requests on the instance itself: its memory). */
  let servedBy: number[];

  beforeAll(async () => {
    target = await startClusterTarget({ label: 'cluster-suite', env: { SIM_JOB_START_DELAY_MS: undefined, SIM_JOB_PROCESSING_MS: undefined, SIM_WEBHOOK_ALLOW_TARGETS: undefined } });
    before = await sandboxState(target);
    const started = performance.now();
    report = await runSuite(target.options({ runs: 100 }), checksFor(loadTargetContract('v1.3.0')));
    seconds = (performance.now() - started) / 1000;
    after = await sandboxState(target);
    servedBy = await Promise.all(
      target.cluster.instances.map(async (instance) => {
        const res = await fetch(`${instance.url}/_sim/requests?limit=200`, { headers: { authorization: `Bearer ${target.adminToken}` } });
        return ((await res.json()) as { items: unknown[] }).items.length;
      }),
    );
    console.log(`suite against the cluster: ${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals.skipped} skipped in ${seconds.toFixed(1)} s; requests logged per instance (up to 200): ${servedBy.join(', ')}`);
  }, 300_000);
  afterAll(async () => target?.close());

  it('passes every check, skips none', () => {
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.id}: ${r.failures.map((f) => `${f.rule}: ${f.message}`).join(' | ').slice(0, 400)}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.verdict === 'skipped').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.totals.passed).toBeGreaterThan(0);
  });

  it('spreads the run over both instances', () => {
    expect(servedBy).toHaveLength(2);
    for (const count of servedBy) expect(count).toBeGreaterThan(0);
  });

  it('leaves the tenant list, the sandbox-wide clock and the webhook allow list as it found them', () => {
    expect(report.notes ?? []).toEqual([]);
    expect(after).toEqual(before);
    expect(before.allowTargets).toEqual([]);
  });

  it('runs every check of the simulator profile in under three minutes', () => {
    expect(seconds).toBeLessThan(180);
  });
});
