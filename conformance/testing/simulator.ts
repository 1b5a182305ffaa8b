// Test support: the simulator as a conformance target. Starts it as a process (the only way a conformance
// test may reach the simulator) on a fresh store, with the admin token, integration key and fast job
// timings the tests share, and switches its defects at run time through the control API. Tests and
// scripts only: the suite itself never imports the simulator.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import type { TargetOptions } from '../harness/types.js';
import { DEFECT_EXPECTATIONS } from '../self-test/defect-expectations.js';

/** The seed the tests run with unless they say otherwise. */
export const TEST_SEED = 20261121;

/** Runs for limits.retry-after-on-429 to fill the read bucket (default 240) and see its 429s, even when the
 *  burst crosses the end of a fixed window (240 in each of two windows). */
export const FILL_READ_BUCKET_RUNS = 500;

/** `runs`, or enough to fill the read bucket when limits.retry-after-on-429 is among the checks. */
export const runsFor = (checkIds: string[], runs = 15) => (checkIds.includes('limits.retry-after-on-429') ? FILL_READ_BUCKET_RUNS : runs);

export interface TestTarget {
  sim: SimulatorProcess;
  url: string;
  adminToken: string;
  apiKey: string;
  /** Simulator profile, v1.3.0, seed {@link TEST_SEED}, 15 runs, at the simulator's root; `extra` wins. */
  options(extra?: Partial<TargetOptions>): TargetOptions;
  /** Replaces the active defects (PUT /_sim/defects); throws unless the simulator accepts them. */
  setDefects(active: string[]): Promise<void>;
  /** Runs `body` with exactly these defects active, and none once it settles. */
  withDefects<T>(active: string[], body: () => Promise<T>): Promise<T>;
  /** A control API call (admin token); throws unless it answers 2xx. */
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** Stops the simulator and removes its store. */
  close(): Promise<void>;
}

export interface TestTargetSettings {
  /** Names the credentials (`<label>-admin`, `tfk_<label>_key`) and the store's temporary directory. */
  label?: string;
  /** Environment over the shared one; `undefined` leaves a shared variable out (the simulator's default). */
  env?: Record<string, string | undefined>;
}

export async function startTestTarget({ label = 'conform-test', env = {} }: TestTargetSettings = {}): Promise<TestTarget> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${label}-`));
  let sim: SimulatorProcess;
  try {
    sim = await startSimulatorProcess({ SIM_DB: path.join(dir, 'store.mdb'), ...targetEnv(label, env) });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    sim,
    ...controlledTarget(sim.url, label),
    async close() {
      await sim.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The credentials a target named `label` is started with (`<label>-admin`, `tfk_<label>_key`). */
const credentialsOf = (label: string) => ({ adminToken: `${label}-admin`, apiKey: `tfk_${label.replace(/-/g, '_')}_key` });

/** The environment of a simulator under test: the shared credentials and fast jobs, `env` over them
 *  (`undefined` leaves a variable out, the simulator's default). */
export function targetEnv(label: string, env: Record<string, string | undefined> = {}): Record<string, string> {
  const { adminToken, apiKey } = credentialsOf(label);
  const merged: Record<string, string | undefined> = {
    SIM_ADMIN_TOKEN: adminToken,
    SIM_INTEGRATION_KEY: apiKey,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
    ...env,
  };
  return Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** What every test target offers at `url` (one simulator, or a cluster's load balancer), but its lifetime. */
export function controlledTarget(url: string, label: string): Omit<TestTarget, 'sim' | 'close'> {
  const { adminToken, apiKey } = credentialsOf(label);
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const setDefects = async (active: string[]) => void (await control('PUT', '/_sim/defects', { active }));
  return {
    url,
    adminToken,
    apiKey,
    options: (extra = {}) => ({ baseUrl: url, apiKey, adminToken, contract: 'v1.3.0', profile: 'simulator', seed: TEST_SEED, runs: 15, ...extra }),
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
  };
}

/** What a run must give back to a shared sandbox (harness/run-scope.ts): read before and after it. */
export interface SandboxState {
  tenantIds: string[];
  sandboxOffsetSeconds: number;
  allowTargets: string[];
}
export const sandboxState = async (t: Pick<TestTarget, 'control'>): Promise<SandboxState> => ({
  tenantIds: (await t.control('GET', '/_sim/tenants?limit=500')).tenants.map((tenant: { id: string }) => tenant.id),
  sandboxOffsetSeconds: (await t.control('GET', '/_sim/clock')).offsetSeconds,
  allowTargets: (await t.control('GET', '/_sim/webhooks/allow-targets')).targets,
});

/**
 * The entries of DEFECT_EXPECTATIONS that concern these checks, each narrowed to them: the defects a
 * test file of those checks must see caught, and by which of its checks.
 */
export function defectsCaughtBy(checkIds: Iterable<string>): Array<[defect: string, checkIds: string[]]> {
  const mine = new Set(checkIds);
  return Object.entries(DEFECT_EXPECTATIONS)
    .map(([defect, ids]): [string, string[]] => [defect, ids.filter((id) => mine.has(id))])
    .filter(([, ids]) => ids.length > 0);
}
