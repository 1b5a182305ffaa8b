// The whole suite against the simulator, as CI runs it: the profile with every check, 100 command
// sequences per state machine, the simulator's own job timings. Every operation is built: nothing may fail
// or be skipped (testing/whole-suite.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestTarget, type TestTarget } from './testing/simulator.js';
import { AS_DEPLOYED, itPassesEveryCheckAndLeavesTheSandbox, runWholeSuite, totalsLine, type WholeSuiteRun } from './testing/whole-suite.js';

let target: TestTarget;
let run: WholeSuiteRun;

beforeAll(async () => {
  target = await startTestTarget({ label: 'suite', env: AS_DEPLOYED });
  run = await runWholeSuite(target);
  console.log(`suite against the simulator: ${totalsLine(run)}`);
}, 300_000);
afterAll(async () => target?.close());

describe('the conformance suite against the simulator', () => {
  itPassesEveryCheckAndLeavesTheSandbox(() => run);
});
