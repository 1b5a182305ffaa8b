// `npm run conform:variants -- [--variant <id>[,<id>...]] [--world <name>] [--runs N] [--only <check id or prefix>...]`: the variant self-test
// by hand. Starts a simulator of its own, runs the whole suite in the sandbox profile with the given variants
// on (default: each world of VARIANT_WORLDS in turn) and prints every failed check: with one `--variant`, the
// way to bisect a failing world to the variant that a check does not accept.
import { parseArgs } from 'node:util';
import { failuresOf, runVariants, VARIANT_RUNS, VARIANT_WORLDS } from '../conformance/self-test/variants.js';
import { startTestTarget } from '../conformance/testing/simulator.js';

const { values } = parseArgs({ options: { variant: { type: 'string', multiple: true }, world: { type: 'string', multiple: true }, runs: { type: 'string' }, only: { type: 'string', multiple: true } } });
const runs = values.runs ? Number(values.runs) : VARIANT_RUNS;
const sets: Array<[string, string[]]> = values.variant?.length
  ? [[values.variant.join(','), values.variant.flatMap((v) => v.split(',')).filter(Boolean)]]
  : Object.entries(VARIANT_WORLDS).filter(([name]) => !values.world?.length || values.world.includes(name));

const target = await startTestTarget({ label: 'conform-variants' });
let failed = 0;
try {
  for (const [name, variants] of sets) {
    const run = await runVariants(target, variants, runs, values.only);
    const { passed, failed: f, skipped } = run.report.totals;
    failed += f;
    console.log(`${name}: ${passed} passed, ${f} failed, ${skipped} skipped in ${run.seconds.toFixed(1)} s`);
    for (const line of failuresOf(run.report)) console.log(`  FAILED ${line}`);
    for (const r of run.report.results.filter((r) => r.verdict === 'skipped')) console.log(`  skipped ${r.id}: ${r.reason}`);
  }
} finally {
  await target.close();
}
process.exitCode = failed ? 1 : 0;
