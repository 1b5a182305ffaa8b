// The suite proves it can fail: for every defect the simulator can inject, the checks meant to catch it
// fail with the defect on and pass with it off. The kill rate printed at the end must be 100 %.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import { runsFor, startTestTarget, type TestTarget } from '../testing/simulator.js';
import { DEFECT_CONTRACTS, DEFECT_EXPECTATIONS } from './defect-expectations.js';

let target: TestTarget;
/** Every version served (`SIM_CONTRACT=all`): the defects of archived operations (DEFECT_CONTRACTS). */
let archived: TestTarget;
const killed: string[] = [];
const CURRENT = 'v1.3.0';
const versionOf = (defect: string) => DEFECT_CONTRACTS[defect] ?? CURRENT;
const ARCHIVED_VERSIONS = [...new Set(Object.values(DEFECT_CONTRACTS))];

beforeAll(async () => {
  [target, archived] = await Promise.all([startTestTarget({ label: 'self-test' }), startTestTarget({ label: 'self-test-archived', env: { SIM_CONTRACT: 'all' } })]);
});
afterAll(async () => {
  const total = Object.keys(DEFECT_EXPECTATIONS).length;
  console.log(`defect kill rate: ${killed.length}/${total} (${((killed.length / total) * 100).toFixed(0)} %)`);
  await target?.close();
  await archived?.close();
});

/** The target serving `version`, and run options addressing it (an archived version under its prefix). */
function targetFor(version: string): [TestTarget, (extra?: Parameters<TestTarget['options']>[0]) => ReturnType<TestTarget['options']>] {
  if (version === CURRENT) return [target, (extra) => target.options(extra)];
  return [archived, (extra) => archived.options({ baseUrl: `${archived.url}/versions/${version}`, contract: version, ...extra })];
}

describe('defect injection self-test', () => {
  it('has checks for exactly the defects the simulator offers', async () => {
    const res = await fetch(`${target.url}/_sim/defects`, { headers: { authorization: `Bearer ${target.adminToken}` } });
    // Variants (kind 'variant') are choices the spec leaves open: no check may catch them (variants.test.ts).
    const { catalogue } = (await res.json()) as { catalogue: Array<{ id: string; kind: 'defect' | 'variant' }> };
    expect(catalogue.filter((d) => d.kind === 'defect').map((d) => d.id).sort()).toEqual(Object.keys(DEFECT_EXPECTATIONS).sort());
    const known = new Set([CURRENT, ...ARCHIVED_VERSIONS].flatMap((version) => checksFor(loadTargetContract(version)).map((c) => c.id)));
    const unknown = Object.values(DEFECT_EXPECTATIONS).flat().filter((id) => !known.has(id));
    expect(unknown).toEqual([]);
  });

  it('passes every defect-catching check on the healthy simulator', async () => {
    const failed: string[] = [];
    for (const version of [CURRENT, ...ARCHIVED_VERSIONS]) {
      const [server, options] = targetFor(version);
      await server.setDefects([]);
      const ids = [...new Set(Object.entries(DEFECT_EXPECTATIONS).filter(([defect]) => versionOf(defect) === version).flatMap(([, checks]) => checks))];
      const report = await runSuite(options({ only: ids }), allChecksFor(ids, version));
      failed.push(...report.results.filter((r) => r.verdict !== 'passed').map((r) => `${version} ${r.id}: ${r.verdict} ${r.reason ?? ''} ${r.failures.map((f) => f.message).join(' | ').slice(0, 300)}`));
    }
    expect(failed).toEqual([]);
    // Every defect-catching check once, in one test: minutes on a loaded machine (the default 60 s timed out in CI).
  }, 600_000);

  it.each(Object.entries(DEFECT_EXPECTATIONS))('catches %s', async (defect, checkIds) => {
    // limits.retry-after-on-429 sees a 429 only once it has filled the read bucket.
    const [server, options] = targetFor(versionOf(defect));
    const report = await server.withDefects([defect], () => runSuite(options({ only: checkIds, runs: runsFor(checkIds) }), allChecksFor(checkIds, versionOf(defect))));
    const survivors = report.results.filter((r) => r.verdict !== 'failed').map((r) => `${r.id} ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
    expect(report.results.map((r) => r.id).sort()).toEqual([...checkIds].sort());
    expect(survivors, `checks that did not catch ${defect}`).toEqual([]);
    killed.push(defect);
  });
});

/** The suite's checks for a contract version (registered and generated per operation) with these ids. */
function allChecksFor(ids: string[], version = CURRENT) {
  return checksFor(loadTargetContract(version)).filter((check) => ids.includes(check.id));
}
