// npm run bench (issue 15 items 1-3): the simulator against Prism 5's static mock of the same bundled
// v1.3.0 contract (`-v error`, its fastest setting) and against a minimal Koa + ajv app, driven by autocannon
// with the same requests in alternating rounds, then the store-growth scenario (empty store vs 100,000
// stored records), start-up to first answer (fresh, and after a crash on the large store) and, with
// --large, the large inputs of item 3. Prints a table and one PASS/FAIL line per target; exit code 1 when a
// target fails. Ratios from one run, never timed assertions in unit tests.
//
//   npm run bench [-- --seconds 5 --rounds 3 --warmup 2 --connections 10 --records 100000
//                     --only get-job,sima-results,sima-batch,landed-cost,token --skip-store --large --json FILE
//                     --cpu-prof DIR]
//   npm run bench -- --hostile [--sizes understated|descriptor|local]   (issue 30: hostile.ts, and nothing else)
//   npm run bench -- --baseline DIR   the simulator of another checkout (an older commit, its node_modules
//                                     linked) in the same alternating rounds: "within 5 % of before" as a
//                                     ratio from one run, not two runs at two moments of a shared machine
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeBundledContract } from '../../contracts/lib/bundle-files.js';
import { buildSimulator } from '../build-simulator.mjs';
import { benchTempDir, LOAD_ARGS, loadOptionsOf, machineDescription, scenariosNamed } from './cli.js';
import { median, type Round } from './load.js';
import { pinLoadGenerator, ROOT, startBaselineSimulator, startPrismMock, startReferenceApp, startSimulator, type BenchProcess } from './processes.js';
import { formatReport, judge, type ScenarioResult } from './report.js';
import { prepareSimulatorState, prismTarget, referenceTarget, runScenarioRounds, SIMULATOR_ENV, simulatorTarget, type Target, type TargetName } from './scenarios.js';
import { measureStoreGrowth } from './store-growth-scenario.js';

const { values } = parseArgs({
  options: {
    ...LOAD_ARGS,
    records: { type: 'string', default: '100000' },
    only: { type: 'string' },
    'skip-store': { type: 'boolean', default: false },
    large: { type: 'boolean', default: false },
    hostile: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    json: { type: 'string' },
    baseline: { type: 'string' },
    // Where the simulator's V8 CPU profile goes (open the .cpuprofile in Chrome DevTools or speedscope).
    'cpu-prof': { type: 'string' },
  },
});
if (values.hostile) {
  const { runHostileBench } = await import('./hostile.js');
  process.exit((await runHostileBench({ sizes: values.sizes as 'local' | 'descriptor' | 'understated' | undefined, json: values.json, cpuProfileDir: values['cpu-prof'] && path.resolve(values['cpu-prof']) })) ? 0 : 1);
}
values.json ??= path.join(ROOT, 'build', 'bench', 'bench.json');
const options = loadOptionsOf(values);
const scenarios = scenariosNamed(values.only);

// The whole run is bounded; every child is killed on the way out, whatever happened (cli.ts).
const budgetMs = 45 * 60_000;
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
setTimeout(() => (console.error(`bench exceeded its ${budgetMs / 60_000} min budget`), process.exit(2)), budgetMs).unref();

// The bundle is built before anything is timed: start-up is measured as `npm start` runs once built.
await buildSimulator();
const machine = machineDescription();
console.log(`bench on ${machine}\n`);

// One at a time: start-up is CPU-bound, and timing two at once would time the contention. The start-up
// target is with all three contracts served; the load runs against the default (v1.3.0 only), the same
// contract Prism mocks.
const allContracts = await startSimulator({ SIM_DB: path.join(benchTempDir('sim-all'), 'store.mdb'), SIM_CONTRACT: 'all', ...SIMULATOR_ENV }, 'simulator (all contracts)');
await allContracts.stop();
const simulator: BenchProcess = await startSimulator({ SIM_DB: path.join(benchTempDir('sim'), 'store.mdb'), ...SIMULATOR_ENV }, 'simulator', values['cpu-prof'] && path.resolve(values['cpu-prof']));
const prism = await startPrismMock(writeBundledContract('v1.3.0'));
const reference = await startReferenceApp();
const startups = { 'simulator (all three contracts)': allContracts.startupMs, 'simulator (v1.3.0)': simulator.startupMs, 'Prism mock': prism.startupMs, 'Koa+ajv': reference.startupMs };
console.log(`spawn to first answer: ${Object.entries(startups).map(([who, ms]) => `${who} ${ms.toFixed(0)} ms`).join(', ')}`);

const state = await prepareSimulatorState(simulator);
const baseline = values.baseline ? await startBaselineSimulator(path.resolve(values.baseline), path.join(benchTempDir('baseline'), 'store.mdb'), SIMULATOR_ENV) : undefined;
const targets: Partial<Record<TargetName, Target>> = { simulator: simulatorTarget(simulator, state), prism: prismTarget(prism, state.jobId), reference: await referenceTarget(reference, state) };
if (baseline) targets.baseline = simulatorTarget(baseline, await prepareSimulatorState(baseline), 'baseline');
console.log(pinLoadGenerator());
const results: ScenarioResult[] = [];
for (const scenario of scenarios) {
  const involved = [targets.simulator!, ...(targets.baseline ? [targets.baseline] : []), ...scenario.against.map((n) => targets[n]!)];
  const rounds: Record<string, Round[]> = await runScenarioRounds(scenario.id, involved, options);
  results.push({ scenario, rounds });
  const line = Object.entries(rounds).map(([who, rs]) => `${who} ${median(rs.map((r) => r.perSecond)).toFixed(0)} req/s`);
  console.log(`${scenario.title}: ${line.join(', ')}`);
}
for (const p of [simulator, prism, reference, ...(baseline ? [baseline] : [])]) await p.stop();

const storeGrowth = values['skip-store'] ? null : await measureStoreGrowth({ ...options, records: Number(values.records), tmp: benchTempDir });
const large = values.large ? await (await import('./large-inputs.js')).runLargeInputs({}) : null;

const verdicts = judge({ baseline: values.baseline, results, startup: { fresh: allContracts.startupMs, afterCrash: storeGrowth?.afterCrashStartupMs ?? null }, storeGrowth, large });
console.log('\n' + formatReport({ machine, options, results, verdicts, storeGrowth, large, startups }));
mkdirSync(path.dirname(values.json!), { recursive: true });
writeFileSync(values.json!, JSON.stringify({ date: new Date().toISOString(), machine, options, results: results.map((r) => ({ id: r.scenario.id, rounds: r.rounds })), storeGrowth, large, verdicts }, null, 2));
console.log(`\nfigures: ${path.relative(process.cwd(), values.json!)}`);
process.exit(verdicts.every((v) => v.pass !== false) ? 0 : 1);

