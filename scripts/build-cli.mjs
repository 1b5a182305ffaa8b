// The `tfas` command's subcommands as plain JavaScript (issue 29 item 1): each entry point bundled by esbuild
// into build/cli/<name>.mjs, as scripts/build-simulator.mjs bundles the simulator (whose bundle `tfas sandbox`
// runs). Packages stay external: they are the package's `dependencies`, installed beside it by npm or npx.
// So a packed tarball runs with no TypeScript loader. `npm pack` runs this first (`prepack`); bin/tfas.js
// also builds a missing or stale entry when run from a clone (the sources are there, the bundle may not be).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSimulator, bundleEntry, bundleIsStale } from './build-simulator.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DIR = path.join(ROOT, 'build', 'cli');

/** Subcommand -> its TypeScript entry point. Each entry runs its `main` when it is the process's entry
 *  module (contracts/lib/entry.ts), which bin/tfas.js arranges by naming the bundle in process.argv[1]. */
export const CLI_ENTRIES = {
  conform: 'conformance/cli.ts',
  'certify-client': 'client-cert/cli.ts',
  diff: 'contracts/diff/cli.ts',
  mock: 'scripts/start-prism-mock.ts',
  proxy: 'proxy/cli.ts',
  listen: 'listen/cli.ts',
  trigger: 'listen/trigger-cli.ts',
  resend: 'listen/resend-cli.ts',
};

export const cliBundle = (name) => path.join(CLI_DIR, `${name}.mjs`);

/** Whether a subcommand's bundle is missing or older than a file it was built from. */
export const cliBundleIsStale = (name) => bundleIsStale(cliBundle(name));

/** Builds one subcommand's bundle when stale (or always with `force`); answers its path. */
export async function buildCli(name, { force = false } = {}) {
  if (name === 'sandbox') return buildSimulator({ force });
  const entry = CLI_ENTRIES[name];
  if (!entry) throw new Error(`no CLI entry ${name}`);
  return bundleEntry(entry, cliBundle(name), { force });
}

/** Every bundle the packed package runs: the simulator and each subcommand. */
export async function buildAll({ force = false } = {}) {
  const built = [await buildSimulator({ force })];
  for (const name of Object.keys(CLI_ENTRIES)) built.push(await buildCli(name, { force }));
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of await buildAll({ force: true })) console.log(path.relative(ROOT, file));
}
