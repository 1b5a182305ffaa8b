// The whole suite against a hosted sandbox (issue 17): two simulator instances over one PostgreSQL database
// behind HAProxy, reached only through the load balancer, so consecutive requests of one check land on
// different instances. As suite.test.ts runs it against one process: the simulator profile with every check,
// 100 command sequences per state machine, the simulator's own job timings; zero failures expected.
// Skips locally without PostgreSQL or HAProxy; fails under CI=true (.ci/run installs them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSkipReason } from '../simulator/testing/cluster.js';
import { startClusterTarget, type ClusterTarget } from './testing/cluster.js';
import { AS_DEPLOYED, itPassesEveryCheckAndLeavesTheSandbox, runWholeSuite, totalsLine, type WholeSuiteRun } from './testing/whole-suite.js';

const skipReason = clusterSkipReason();

describe.skipIf(skipReason !== null)(`the conformance suite against two instances over one database behind a load balancer${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let target: ClusterTarget;
  let run: WholeSuiteRun;
  /** Public API requests each instance logged, up to 200 (GET /_sim/requests on the instance itself: its memory). */
  let servedBy: number[];

  beforeAll(async () => {
    target = await startClusterTarget({ label: 'cluster-suite', env: AS_DEPLOYED });
    run = await runWholeSuite(target);
    servedBy = await Promise.all(
      target.cluster.instances.map(async (instance) => {
        const res = await fetch(`${instance.url}/_sim/requests?limit=200`, { headers: { authorization: `Bearer ${target.adminToken}` } });
        return ((await res.json()) as { items: unknown[] }).items.length;
      }),
    );
    console.log(`suite against the cluster: ${totalsLine(run)}; requests logged per instance (up to 200): ${servedBy.join(', ')}`);
    // A stall guard: about three minutes in CI, over five on a machine loaded by other runs (seen 2026-11-27).
  }, 900_000);
  afterAll(async () => target?.close());

  // Two instances over PostgreSQL behind HAProxy: 161-175 s alone on 2 cores, 260 s beside the variant and
  // defect self-tests in CI, where npm test runs it (scripts/test-all.mjs; 2026-11-27): seven minutes bounds
  // a stall, not the machine's load.
  itPassesEveryCheckAndLeavesTheSandbox(() => run, 420);

  it('spreads the run over both instances', () => {
    expect(servedBy).toHaveLength(2);
    for (const count of servedBy) expect(count).toBeGreaterThan(0);
  });
});
