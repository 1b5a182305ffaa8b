// Records conformance/budget/baseline.json: the requests every check of the v1.3.0 suite sends per rate
// bucket, and its duration, measured in two real runs of the whole suite (simulator profile, every check
// run, none skipped) against a simulator this script starts, at two `--runs` values. The run plan
// (harness/budget.ts) estimates any run from these points. Run it again when checks change:
//   npm run conform:baseline
// It refuses to write a baseline from a run where a check failed or was skipped (its counts would not be
// those of the check doing its work).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checksFor } from '../checks/index.js';
import { BASELINE_FILE, type Baseline, type BaselinePoint } from '../harness/budget.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import { startTestTarget, TEST_SEED } from '../testing/simulator.js';
import { AS_DEPLOYED } from '../testing/whole-suite.js';

const RUNS: [number, number] = [10, 100];

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const only = values.only?.split(',').filter(Boolean);
  const checks = checksFor(loadTargetContract('v1.3.0'));
  const unknown = (only ?? []).filter((id) => !checks.some((check) => check.id === id));
  if (unknown.length) throw new Error(`--only: no check ${unknown.join(', ')} in the v1.3.0 suite`);
  const kept: Baseline['checks'] = only && existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline).checks : {};
  const target = await startTestTarget({ label: 'baseline', env: AS_DEPLOYED });
  const measured: Baseline['checks'] = {};
  try {
    for (const runs of RUNS) {
      const started = performance.now();
      const report = await runSuite(target.options({ runs, ...(only ? { only } : {}) }), checks);
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
        if (!only || only.includes(result.id)) (measured[result.id] ??= {})[String(runs)] = point;
      }
      console.log(`runs ${runs}: ${report.results.length} checks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await target.close();
  }
  // Entries in the suite's order; with --only, the checks not measured keep their recorded figures.
  const entries = checks.flatMap((check) => (measured[check.id] ?? kept[check.id] ? [[check.id, measured[check.id] ?? kept[check.id]] as const] : []));
  const baseline: Baseline = { contract: 'v1.3.0', profile: 'simulator', seed: TEST_SEED, recordedAt: new Date().toISOString(), runs: RUNS, checks: Object.fromEntries(entries) };
  writeFileSync(BASELINE_FILE, JSON.stringify(baseline, null, 1) + '\n');
  console.log(`wrote ${BASELINE_FILE}: ${entries.length} checks, ${Object.keys(measured).length} measured now`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
