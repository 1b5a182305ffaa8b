// The suite proves it can fail: for every defect the simulator can inject, the checks meant to catch it
// fail with the defect on and pass with it off. The kill rate printed at the end must be 100 %.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import { runsFor, startTestTarget, type TestTarget } from '../testing/simulator.js';
import { DEFECT_EXPECTATIONS } from './defect-expectations.js';

let target: TestTarget;
const killed: string[] = [];

beforeAll(async () => {
  target = await startTestTarget({ label: 'self-test' });
});
afterAll(async () => {
  const total = Object.keys(DEFECT_EXPECTATIONS).length;
  console.log(`defect kill rate: ${killed.length}/${total} (${((killed.length / total) * 100).toFixed(0)} %)`);
  await target?.close();
});

describe('defect injection self-test', () => {
  it('has checks for exactly the defects the simulator offers', async () => {
    const res = await fetch(`${target.url}/_sim/defects`, { headers: { authorization: `Bearer ${target.adminToken}` } });
    const { catalogue } = (await res.json()) as { catalogue: Array<{ id: string }> };
    expect(catalogue.map((d) => d.id).sort()).toEqual(Object.keys(DEFECT_EXPECTATIONS).sort());
    const known = new Set(checksFor(loadTargetContract('v1.3.0')).map((c) => c.id));
    const unknown = Object.values(DEFECT_EXPECTATIONS).flat().filter((id) => !known.has(id));
    expect(unknown).toEqual([]);
  });

  it('passes every defect-catching check on the healthy simulator', async () => {
    await target.setDefects([]);
    const ids = [...new Set(Object.values(DEFECT_EXPECTATIONS).flat())];
    const report = await runSuite(target.options({ only: ids }), allChecksFor(ids));
    const failed = report.results.filter((r) => r.verdict !== 'passed').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''} ${r.failures.map((f) => f.message).join(' | ').slice(0, 300)}`);
    expect(failed).toEqual([]);
  });

  it.each(Object.entries(DEFECT_EXPECTATIONS))('catches %s', async (defect, checkIds) => {
    // limits.retry-after-on-429 sees a 429 only once it has filled the read bucket.
    const report = await target.withDefects([defect], () => runSuite(target.options({ only: checkIds, runs: runsFor(checkIds) }), allChecksFor(checkIds)));
    const survivors = report.results.filter((r) => r.verdict !== 'failed').map((r) => `${r.id} ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`);
    expect(report.results.map((r) => r.id).sort()).toEqual([...checkIds].sort());
    expect(survivors, `checks that did not catch ${defect}`).toEqual([]);
    killed.push(defect);
  });
});

/** The suite's checks (registered and generated per operation) with these ids. */
function allChecksFor(ids: string[]) {
  return checksFor(loadTargetContract('v1.3.0')).filter((check) => ids.includes(check.id));
}
