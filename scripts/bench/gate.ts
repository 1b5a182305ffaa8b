// npm run bench:gate: what the contract change gate costs, as a ratio from one run (never a timed assertion
// in a unit test: on a shared machine a wall-clock bound fails for the machine, not for the code). The gate
// compares v1.3.0 with itself (both sides loaded, bundled, validated, then compared) against the floor any
// contract tool pays: loading, bundling and validating v1.3.0 once. Rounds alternate so drift hits both.
//
//   npm run bench:gate [-- --rounds 7]
//
// Target: the whole gate within 3x one validated load (two loads plus the comparison). Exit 1 when missed.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadContract, main } from '../../contracts/diff/cli.js';
import { REPO_ROOT } from '../../contracts/diff/load.js';
import { median } from './load.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const ROUNDS = Number(values.rounds);
const CONTRACT = 'contracts/v1.3.0';
const TARGET_RATIO = 3;
const quiet = { write: () => true };

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const loadOnce = () => loadContract('BASE', CONTRACT, REPO_ROOT);
const gate = async () => {
  const code = await main([CONTRACT, CONTRACT], { cwd: REPO_ROOT, stdout: quiet, stderr: quiet, env: {} });
  if (code !== 0) throw new Error(`the gate answered ${code} comparing ${CONTRACT} with itself (expected 0: no changes)`);
};

// One untimed round of each: module loading and the first compilation of the validators are not the gate's.
await loadOnce();
await gate();
const loads: number[] = [];
const gates: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  loads.push(await timed(loadOnce));
  gates.push(await timed(gate));
}
const load = median(loads);
const whole = median(gates);
const ratio = whole / load;
console.log(`one validated load of ${CONTRACT}: median ${load.toFixed(0)} ms (${loads.map((ms) => ms.toFixed(0)).join(', ')})`);
console.log(`the gate, ${CONTRACT} with itself: median ${whole.toFixed(0)} ms (${gates.map((ms) => ms.toFixed(0)).join(', ')})`);
console.log(`${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}  the gate within ${TARGET_RATIO}x one validated load: ${ratio.toFixed(2)}x`);
process.exit(ratio <= TARGET_RATIO ? 0 : 1);
