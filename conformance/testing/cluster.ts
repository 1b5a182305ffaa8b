// Test support: a hosted sandbox as a conformance target (issue 17): two simulator instances over one
// PostgreSQL database behind HAProxy (simulator/testing/cluster.ts), reached only through the load balancer,
// as a hosted staging sandbox would be. The same credentials and job timings as the single-process target
// (simulator.ts), and the same helpers, minus the process.
import { startCluster, type Cluster } from '../../simulator/testing/cluster.js';
import type { TargetOptions } from '../harness/types.js';
import { TEST_SEED, type TestTarget, type TestTargetSettings } from './simulator.js';

export interface ClusterTarget extends Omit<TestTarget, 'sim'> {
  cluster: Cluster;
}

export async function startClusterTarget({ label = 'conform-cluster', env = {}, instances = 2 }: TestTargetSettings & { instances?: number } = {}): Promise<ClusterTarget> {
  const adminToken = `${label}-admin`;
  const apiKey = `tfk_${label.replace(/-/g, '_')}_key`;
  const merged: Record<string, string | undefined> = {
    SIM_ADMIN_TOKEN: adminToken,
    SIM_INTEGRATION_KEY: apiKey,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
    ...env,
  };
  const cluster = await startCluster({ instances, env: Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined)) });
  const url = cluster.url;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const setDefects = async (active: string[]) => void (await control('PUT', '/_sim/defects', { active }));
  return {
    cluster,
    url,
    adminToken,
    apiKey,
    options: (extra: Partial<TargetOptions> = {}) => ({ baseUrl: url, apiKey, adminToken, contract: 'v1.3.0', profile: 'simulator', seed: TEST_SEED, runs: 15, ...extra }),
    setDefects,
    async withDefects(active, body) {
      await setDefects(active);
      try {
        return await body();
      } finally {
        await setDefects([]);
      }
    },
    control,
    close: () => cluster.stop(),
  };
}
