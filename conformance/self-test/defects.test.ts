// The suite proves it can fail: for every defect the simulator can inject, the checks meant to catch it
// fail with the defect on and pass with it off. The kill rate printed at the end must be 100 %.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import type { TargetOptions } from '../harness/types.js';
import { DEFECT_EXPECTATIONS } from './defect-expectations.js';

const ADMIN = 'self-test-admin';
const KEY = 'tfk_self_test_key';
let sim: SimulatorProcess;
const killed: string[] = [];

beforeAll(async () => {
  sim = await startSimulatorProcess({
    SIM_DB: path.join(mkdtempSync(path.join(os.tmpdir(), 'self-test-')), 'store.json'),
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_INTEGRATION_KEY: KEY,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
  });
});
afterAll(async () => {
  const total = Object.keys(DEFECT_EXPECTATIONS).length;
  console.log(`defect kill rate: ${killed.length}/${total} (${((killed.length / total) * 100).toFixed(0)} %)`);
  await sim?.kill();
});

const options = (only: string[]): TargetOptions => ({ baseUrl: sim.url, apiKey: KEY, adminToken: ADMIN, contract: 'v1.3.0', profile: 'simulator', seed: 20261121, runs: 15, only });

async function setDefects(active: string[]) {
  const res = await fetch(`${sim.url}/_sim/defects`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ active }) });
  expect(res.status, await res.text()).toBe(200);
}

describe('defect injection self-test', () => {
  it('has checks for exactly the defects the simulator offers', async () => {
    const res = await fetch(`${sim.url}/_sim/defects`, { headers: { authorization: `Bearer ${ADMIN}` } });
    const { catalogue } = (await res.json()) as { catalogue: Array<{ id: string }> };
    expect(catalogue.map((d) => d.id).sort()).toEqual(Object.keys(DEFECT_EXPECTATIONS).sort());
    const known = new Set(checksFor(loadTargetContract('v1.3.0')).map((c) => c.id));
    const unknown = Object.values(DEFECT_EXPECTATIONS).flat().filter((id) => !known.has(id));
    expect(unknown).toEqual([]);
  });

  it('passes every defect-catching check on the healthy simulator', async () => {
    await setDefects([]);
    const ids = [...new Set(Object.values(DEFECT_EXPECTATIONS).flat())];
    const report = await runSuite(options(ids), allChecksFor(ids));
    const failed = report.results.filter((r) => r.verdict !== 'passed').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''} ${r.failures.map((f) => f.message).join(' | ').slice(0, 300)}`);
    expect(failed).toEqual([]);
  });

  it.each(Object.entries(DEFECT_EXPECTATIONS))('catches %s', async (defect, checkIds) => {
    await setDefects([defect]);
    try {
      const report = await runSuite(options(checkIds), allChecksFor(checkIds));
      const survivors = report.results.filter((r) => r.verdict !== 'failed').map((r) => `${r.id} ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
      expect(report.results.map((r) => r.id).sort()).toEqual([...checkIds].sort());
      expect(survivors, `checks that did not catch ${defect}`).toEqual([]);
      killed.push(defect);
    } finally {
      await setDefects([]);
    }
  });
});

/** The suite's checks (registered and generated per operation) with these ids. */
function allChecksFor(ids: string[]) {
  return checksFor(loadTargetContract('v1.3.0')).filter((check) => ids.includes(check.id));
}
