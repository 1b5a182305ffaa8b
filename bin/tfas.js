#!/usr/bin/env node
// `tfas`: one command for the sandbox and its tools (issue 29 item 1). `tfas <subcommand> [options]` runs the
// subcommand's JavaScript bundle (scripts/build-cli.mjs) in this process: no TypeScript loader at run time,
// so the packed tarball runs with its `dependencies` alone (`npx <tarball> sandbox`). From a clone, a
// missing or stale bundle is rebuilt first (the sources and esbuild are there); the packed package ships
// the bundles `prepack` built and no build script.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each subcommand: its bundle under build/ and one line for `tfas --help`. */
export const SUBCOMMANDS = {
  sandbox: { bundle: 'build/simulator/main.mjs', summary: 'start the sandbox (the simulator of the public interface)' },
  conform: { bundle: 'build/cli/conform.mjs', summary: 'certify a deployment of the API with the conformance suite' },
  'certify-client': { bundle: 'build/cli/certify-client.mjs', summary: 'certify an API client against scripted sandbox scenarios' },
  diff: { bundle: 'build/cli/diff.mjs', summary: 'classify the changes between two contract documents' },
  mock: { bundle: 'build/cli/mock.mjs', summary: "serve Prism's stateless mock of a contract version" },
  proxy: { bundle: 'build/cli/proxy.mjs', summary: 'forward to a server, validating every exchange against the contract' },
  listen: { bundle: 'build/cli/listen.mjs', summary: "receive the sandbox's webhooks here, check their signatures, forward them to a local URL" },
  trigger: { bundle: 'build/cli/trigger.mjs', summary: "send a sample webhook event (job.completed, job.failed) for a job, as a real delivery" },
  resend: { bundle: 'build/cli/resend.mjs', summary: 'send a past webhook delivery again, as a new delivery' },
};

export const USAGE = `Usage: tfas <subcommand> [options]     (tfas <subcommand> --help: its options)

${Object.entries(SUBCOMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(16)}${summary}`)
  .join('\n')}
`;

/** The bundle to run: rebuilt first when this is a clone (the build script is there) and a source changed. */
async function bundleOf(name) {
  const script = path.join(ROOT, 'scripts', 'build-cli.mjs');
  if (existsSync(script)) {
    const { buildCli } = await import(pathToFileURL(script).href);
    return buildCli(name);
  }
  return path.join(ROOT, SUBCOMMANDS[name].bundle);
}

/**
 * Runs `name` with `args`. The bundle's entry module runs its `main` when it is the process's entry point
 * (contracts/lib/entry.ts compares process.argv[1]), and reads its options from process.argv: so argv is
 * made what `node <bundle> ...args` would have given, and the bundle imported here.
 */
export async function runSubcommand(name, args) {
  if (!Object.hasOwn(SUBCOMMANDS, name)) {
    process.stderr.write(`tfas: unknown subcommand ${name}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const bundle = await bundleOf(name);
  process.argv = [process.argv[0], bundle, ...args];
  // In a clone, stack traces point at the TypeScript sources through the bundle's source map (the packed
  // package ships no maps: its traces name the bundle).
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
}

// Run as the bin (npm links it under node_modules/.bin: compare real paths), not when imported by another bin.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [name, ...args] = process.argv.slice(2);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(USAGE);
    process.exitCode = name === undefined ? 2 : 0;
  } else {
    await runSubcommand(name, args);
  }
}
