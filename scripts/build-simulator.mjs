// The simulator as one ES module bundle (build/simulator/main.mjs), rebuilt only when one of its sources
// changed. `npm start` runs the bundle rather than transpiling some two hundred TypeScript modules through
// tsx's loader at every start (issue 15 item 2: that was over a third of the start-up). Plain JavaScript,
// so starting needs no TypeScript loader at all. Packages stay external: node_modules is loaded as installed.
import { build } from 'esbuild';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SIMULATOR_BUNDLE = path.join(ROOT, 'build', 'simulator', 'main.mjs');
const META = `${SIMULATOR_BUNDLE}.meta.json`;

/** Whether the bundle is missing or older than any file it was built from (esbuild's metafile lists them). */
export function simulatorBundleIsStale() {
  if (!existsSync(SIMULATOR_BUNDLE) || !existsSync(META)) return true;
  const builtAt = statSync(SIMULATOR_BUNDLE).mtimeMs;
  try {
    const inputs = Object.keys(JSON.parse(readFileSync(META, 'utf8')).inputs);
    // This script is an input too: a change to how the bundle is made is a change to the bundle.
    return [fileURLToPath(import.meta.url), ...inputs.map((f) => path.join(ROOT, f))].some((f) => !existsSync(f) || statSync(f).mtimeMs > builtAt);
  } catch {
    return true;
  }
}

/** Builds the bundle when stale; answers its path. */
export async function buildSimulator({ force = false } = {}) {
  if (!force && !simulatorBundleIsStale()) return SIMULATOR_BUNDLE;
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['simulator/main.ts'],
    outfile: SIMULATOR_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(META, JSON.stringify(result.metafile));
  return SIMULATOR_BUNDLE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await buildSimulator({ force: true }));
}
