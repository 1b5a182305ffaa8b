// Test support: a hosted sandbox as a conformance target (issue 17): two simulator instances over one
// PostgreSQL database behind HAProxy (simulator/testing/cluster.ts), reached only through the load balancer,
// as a hosted staging sandbox would be. The same credentials and job timings as the single-process target
// (simulator.ts), and the same helpers, minus the process.
import { startCluster, type Cluster } from '../../simulator/testing/cluster.js';
import { controlledTarget, targetEnv, type TestTarget, type TestTargetSettings } from './simulator.js';

export interface ClusterTarget extends Omit<TestTarget, 'sim'> {
  cluster: Cluster;
}

export async function startClusterTarget({ label = 'conform-cluster', env = {}, instances = 2 }: TestTargetSettings & { instances?: number } = {}): Promise<ClusterTarget> {
  const cluster = await startCluster({ instances, env: targetEnv(label, env) });
  return { cluster, ...controlledTarget(cluster.url, label), close: () => cluster.stop() };
}
