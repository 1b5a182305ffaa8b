// Records conformance/budget/baseline.json: the requests every check of the v1.3.0 suite sends per rate
// bucket, and its duration, measured in two real runs of the whole suite (simulator profile, every check
// run, none skipped) against a simulator this script starts, at two `--runs` values. The run plan
// (harness/budget.ts) estimates any run from these points. Run it again when checks change:
//   npm run conform:baseline
// It refuses to write a baseline from a run where a check failed or was skipped (its counts would not be
// those of the check doing its work).
// `npm run conform:baseline -- --only <ids>` measures only those checks (ids or id prefixes, as the CLI's
// --only) the same way and merges them into the baseline, the other entries kept as recorded.
import { writeFileSync } from 'node:fs';
import { checksFor } from '../checks/index.js';
import { BASELINE_FILE, loadBaseline, type Baseline, type BaselinePoint } from '../harness/budget.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import { startTestTarget, TEST_SEED } from '../testing/simulator.js';
import { AS_DEPLOYED } from '../testing/whole-suite.js';

const RUNS: [number, number] = [10, 100];

async function main() {
  const target = await startTestTarget({ label: 'baseline', env: AS_DEPLOYED });
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',').map((id) => id.trim()).filter(Boolean) : undefined;
  if (only && only.length === 0) throw new Error('--only needs comma-separated check ids or id prefixes');
  const checks = checksFor(loadTargetContract('v1.3.0'));
  const measured: Baseline['checks'] = {};
  try {
    for (const runs of RUNS) {
      const started = performance.now();
      const report = await runSuite(target.options({ runs, only }), checks);
      // A check that failed once (a connection reset under load) is run again on its own, once.
      const again = report.results.filter((result) => result.verdict !== 'passed').map((result) => result.id);
      if (again.length) {
        console.log(`runs ${runs}: running again ${again.join(', ')}`);
        const rerun = await runSuite(target.options({ runs, only: again }), checks);
        report.results = report.results.map((result) => rerun.results.find((other) => other.id === result.id) ?? result);
      }
      const wrong = report.results.filter((result) => result.verdict !== 'passed');
      if (wrong.length) throw new Error(`runs ${runs}: ${wrong.length} checks did not pass, no baseline written: ${wrong.map((result) => `${result.id} ${result.verdict} ${result.reason ?? result.failures[0]?.message ?? ''}`.slice(0, 200)).join('; ')}`);
      for (const result of report.results) {
        const point: BaselinePoint = { ...result.requestsByBucket!, ms: result.durationMs };
        (measured[result.id] ??= {})[String(runs)] = point;
      }
      console.log(`runs ${runs}: ${report.results.length} checks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await target.close();
  }
  const baseline: Baseline = only
    ? { ...loadBaseline(), checks: { ...loadBaseline().checks, ...measured } }
    : { contract: 'v1.3.0', profile: 'simulator', seed: TEST_SEED, recordedAt: new Date().toISOString(), runs: RUNS, checks: measured };
  writeFileSync(BASELINE_FILE, JSON.stringify(baseline, null, 1) + '\n');
  console.log(`wrote ${BASELINE_FILE}: ${Object.keys(measured).length} checks measured${only ? `, merged into the ${Object.keys(baseline.checks).length} entries` : ''}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
