// The signup checks against the simulator serving every version (`SIM_CONTRACT=all`): they certify v1.1.0
// and v1.2.0 through their prefixes, and join no run against v1.3.0 (spec 4.7, 9.1: signup is archived).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';
import { checksFor } from './index.js';
import { operationChecks } from './operations.js';
import { signupChecks } from './signup.js';

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'signup-checks', env: { SIM_CONTRACT: 'all' } });
});
afterAll(async () => target?.close());

const optionsFor = (version: string) => target.options({ baseUrl: `${target.url}/versions/${version}`, contract: version });

describe('the signup checks', () => {
  it('are part of the suite for v1.1.0 and v1.2.0 only', () => {
    const ids = signupChecks.map((c) => c.id);
    for (const version of ['v1.1.0', 'v1.2.0']) expect(checksFor(loadTargetContract(version)).map((c) => c.id)).toEqual(expect.arrayContaining(ids));
    expect(checksFor(loadTargetContract('v1.3.0')).filter((c) => c.id.startsWith('signup.'))).toEqual([]);
  });

  it.each(['v1.1.0', 'v1.2.0'])('pass on the healthy simulator for %s, with the generated signup operation checks', async (version) => {
    const contract = loadTargetContract(version);
    const checks = [...operationChecks(contract).filter((c) => /Signup/.test(c.id)), ...signupChecks];
    const report = await runSuite(optionsFor(version), checks);
    const notPassed = report.results.filter((r) => r.verdict !== 'passed').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''} ${r.failures.map((f) => `${f.rule}: ${f.message}`).join(' | ').slice(0, 500)}`);
    expect(notPassed).toEqual([]);
    // No bearer is ever sent to a signup operation (spec 5.6).
    expect(report.results.length).toBe(checks.length);
  }, 120_000);

  it('prints the seed, the shrunk sequence and the replay command when the signup model fails', async () => {
    const model = signupChecks.filter((c) => c.id === 'signup.lifecycle-model');
    const report = await target.withDefects(['signup.provision-unverified'], () => runSuite(optionsFor('v1.2.0'), model));
    const failure = report.results[0].failures.find((f) => f.rule === 'model-signup')!;
    expect(failure.message).toMatch(/signup-provision-unverified/);
    expect(failure.seed).toBeTypeOf('number');
    expect(failure.counterexample).toMatch(/Create.*Provision/);
    expect(failure.replay).toContain('--contract v1.2.0');
    expect(failure.replay).toContain('--only signup.lifecycle-model');
    expect(failure.replay).toContain(`--seed ${failure.seed}`);
  }, 120_000);
});
