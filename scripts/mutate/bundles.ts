// What makes a mutant cheap to start (issue 27 item 3: a whole rule-keyed run in under 15 minutes on both
// cores). Under tsx, each mutant paid twice for transpiling TypeScript through the loader: the simulator's
// ~200 modules from the tree copy, and the conformance CLI's modules from the working tree. Here both run as
// esbuild bundles, as `npm start` and `tfas conform` do (scripts/build-simulator.mjs, build-cli.mjs):
//   - the suite is bundled once per tree copy, from the WORKING TREE's conformance/ (the suite is never
//     mutated), into <tree>/build/cli/conform-worker.mjs: the CLI as a process kept between mutants
//     (suite-worker.ts), so that it is not even started again;
//   - the simulator is bundled from the TREE COPY after the mutation is written, into
//     <tree>/build/simulator/main.mjs, so every mutant runs exactly its mutated sources.
// A bundle inside the tree copy finds what it reads at run time the way the packaged bundles do: the
// contracts as the nearest ancestor's contracts/ (the copy's), node_modules through the copy's link, the
// request budget as the nearest conformance/budget/baseline.json (copied beside them). The working tree is
// never written.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './tree.js';
import { NODE_BUNDLE } from '../build-simulator.mjs';

/** Where the bundles go inside a tree copy (the layout of the packaged bundles). */
export const SUITE_BUNDLE = path.join('build', 'cli', 'conform-worker.mjs');
export const SIMULATOR_BUNDLE = path.join('build', 'simulator', 'main.mjs');

/** One entry point as one ES module for Node 20, packages external (as scripts/build-simulator.mjs), no
 *  source map: a mutant's failures are read from HTTP answers, not from stack traces. */
async function bundle(absWorkingDir: string, entry: string, outfile: string): Promise<void> {
  await build({
    absWorkingDir,
    entryPoints: [entry],
    outfile,
    ...NODE_BUNDLE,
    logLevel: 'silent',
  });
}

const suites = new Map<string, Promise<string>>();

/**
 * The conformance CLI's worker (suite-worker.ts) as a bundle inside the tree copy, built once per tree from
 * the working tree's sources (the request budget copied beside it); answers the bundle's path.
 */
export function suiteBundle(treeDir: string): Promise<string> {
  let built = suites.get(treeDir);
  if (!built) {
    built = (async () => {
      const budget = path.join(treeDir, 'conformance', 'budget', 'baseline.json');
      mkdirSync(path.dirname(budget), { recursive: true });
      copyFileSync(path.join(REPO_ROOT, 'conformance', 'budget', 'baseline.json'), budget);
      const outfile = path.join(treeDir, SUITE_BUNDLE);
      await bundle(REPO_ROOT, 'scripts/mutate/suite-worker.ts', outfile);
      return outfile;
    })();
    // A failed build is not remembered: the next mutant tries again.
    built.catch(() => suites.delete(treeDir));
    suites.set(treeDir, built);
  }
  return built;
}

/**
 * The simulator of the tree copy as it is now (a mutation written or not) as a bundle; answers its path.
 * A fresh build each time: the mutated file is read again, so a mutant never runs a stale bundle. Throws
 * esbuild's error when the mutated source does not parse (the run counts that as a start-up failure).
 */
export async function simulatorBundle(treeDir: string): Promise<string> {
  const outfile = path.join(treeDir, SIMULATOR_BUNDLE);
  await bundle(treeDir, 'simulator/main.ts', outfile);
  return outfile;
}
