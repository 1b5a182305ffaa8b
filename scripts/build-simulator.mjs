// The simulator as one ES module bundle (build/simulator/main.mjs), rebuilt only when one of its sources
// changed. `npm start` runs the bundle rather than transpiling some two hundred TypeScript modules through
// tsx's loader at every start (issue 15 item 2: that was over a third of the start-up). Plain JavaScript,
// so starting needs no TypeScript loader at all. Packages stay external: node_modules is loaded as installed.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SIMULATOR_BUNDLE = path.join(ROOT, 'build', 'simulator', 'main.mjs');

/** Whether `outfile` is missing or older than any file it was built from (esbuild's metafile lists them). */
export function bundleIsStale(outfile) {
  const meta = `${outfile}.meta.json`;
  if (!existsSync(outfile) || !existsSync(meta)) return true;
  const builtAt = statSync(outfile).mtimeMs;
  try {
    const inputs = Object.keys(JSON.parse(readFileSync(meta, 'utf8')).inputs);
    // This script is an input too: a change to how bundles are made is a change to every bundle.
    return [fileURLToPath(import.meta.url), ...inputs.map((f) => path.join(ROOT, f))].some((f) => !existsSync(f) || statSync(f).mtimeMs > builtAt);
  } catch {
    return true;
  }
}

/**
 * One entry point as one ESM bundle for Node 20, packages external, when stale (or always with `force`);
 * answers its path. The simulator's and each `tfas` subcommand's (scripts/build-cli.mjs) are made here.
 */
/** How every Node bundle of the project is made (the simulator, the CLI, the mutation run's tree copies):
 *  one ESM file for Node 20, the packages left to node_modules. */
export const NODE_BUNDLE = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external' };

export async function bundleEntry(entry, outfile, { force = false } = {}) {
  if (!force && !bundleIsStale(outfile)) return outfile;
  // esbuild is loaded only to build: `npm start` on a current bundle never needs it (a start-up cost).
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    ...NODE_BUNDLE,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(`${outfile}.meta.json`, JSON.stringify(result.metafile));
  return outfile;
}

/** Whether the simulator's bundle is missing or stale. */
export const simulatorBundleIsStale = () => bundleIsStale(SIMULATOR_BUNDLE);

/** Builds the simulator's bundle when stale; answers its path. */
export const buildSimulator = ({ force = false } = {}) => bundleEntry('simulator/main.ts', SIMULATOR_BUNDLE, { force });

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await buildSimulator({ force: true }));
}
