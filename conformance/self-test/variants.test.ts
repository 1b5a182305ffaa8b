// The suite is fair: a server differing from the sandbox only where the spec leaves the choice open is
// certified. The simulator's legitimate variants (kind 'variant' in GET /_sim/defects, each citing the spec
// sentence that leaves its choice open) are grouped into worlds (variants.ts); the WHOLE suite runs in the
// `sandbox` profile once per world and must fail nothing: the false-failure rate is 0. A failure names its
// world; `npm run conform:variants -- --variant <id>` (or `runVariants(target, [id])`) bisects it to one
// variant, and the fix is to the check that imposed a choice (never to the variant).
// The defect self-test (defects.test.ts) still proves every defect caught; it lists kind 'defect' only.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestTarget } from '../testing/simulator.js';
import { catalogueOf, failuresOf, runVariants, VARIANT_WORLDS, VARIANTS_AWAITING_SHAPE_FREEDOM, type CatalogueEntry, type VariantRun } from './variants.js';

/** One fresh simulator per world, one world after another: the suite's webhook receiver port is read from the
 *  process environment (CONFORM_WEBHOOK_PORT), so two runs in one process cannot overlap. */
const WORLDS = Object.entries(VARIANT_WORLDS);
let catalogue: CatalogueEntry[];
const runs = new Map<string, VariantRun>();

beforeAll(async () => {
  const started = performance.now();
  for (const [name, variants] of WORLDS) {
    const target = await startTestTarget({ label: `variants-${name}` });
    try {
      catalogue ??= await catalogueOf(target);
      runs.set(name, await runVariants(target, variants));
    } finally {
      await target.close();
    }
  }
  console.log(`variant self-test: ${WORLDS.length} worlds, ${WORLDS.flatMap(([, v]) => v).length} variants in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const [name, run] of runs) console.log(`  ${name}: ${run.report.totals.passed} passed, ${run.report.totals.failed} failed, ${run.report.totals.skipped} skipped in ${run.seconds.toFixed(0)} s`);
}, 900_000);

describe('variant self-test: the whole suite certifies every legitimate variant', () => {
  it('puts every variant the simulator offers in exactly one world (or, named with why, awaiting item 8), and nothing else', () => {
    const variants = catalogue.filter((e) => e.kind === 'variant').map((e) => e.id);
    const placed = WORLDS.flatMap(([, ids]) => ids);
    const waiting = Object.keys(VARIANTS_AWAITING_SHAPE_FREEDOM);
    expect(new Set([...placed, ...waiting]).size).toBe(placed.length + waiting.length);
    expect([...placed, ...waiting].sort()).toEqual([...variants].sort());
    expect(placed.length).toBeGreaterThanOrEqual(25);
  });

  it.each(WORLDS.map(([name]) => name))('fails no check in the sandbox profile with the variants of world %s on', (name) => {
    const run = runs.get(name)!;
    // The whole suite ran: every check was selected, and a world's variants changed nothing the spec fixes.
    expect(run.report.results.length).toBeGreaterThan(100);
    expect(failuresOf(run.report), `world ${name} (${run.variants.join(', ')}): bisect with npm run conform:variants -- --variant <id>`).toEqual([]);
    expect(run.report.results.filter((r) => r.verdict === 'skipped' && /rate limit|429/i.test(r.reason ?? '')).map((r) => r.id)).toEqual([]);
  });
});
