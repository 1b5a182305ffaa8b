// `npm run mock` / `tfas mock`: serves Prism's stateless mock of a contract version on PORT (default 4010).
// Useful to compare the simulator with a mock of the same contract (README, benchmarks): stateless,
// answering every operation from the contract's examples. Prism is an optional peer of the packed package
// (some 180 packages): a clone has it among the dev dependencies; beside the tarball it is named to npx.
import { parseArgs } from 'node:util';
import { CONTRACT_VERSIONS } from '../contracts/lib/bundle.js';
import { writeBundledContract } from '../contracts/lib/bundle-files.js';
import { isEntryModule } from '../contracts/lib/entry.js';
import { prismEntry, startPrism } from '../contracts/lib/prism.js';

export const USAGE = `Usage: tfas mock [--contract VERSION] [--port N]     (npm run mock)

Serves Stoplight Prism's stateless mock of a contract version: every operation answered from the
contract's examples, nothing kept between requests (the sandbox, \`tfas sandbox\`, keeps state).

Options:
  --contract VERSION   ${CONTRACT_VERSIONS.join(', ')} (default: SIM_CONTRACT or v1.3.0)
  --port N             port on 127.0.0.1 (default: PORT or 4010)
  -h, --help           this text

Needs @stoplight/prism-cli (an optional peer of the packed package), e.g.
  npx -p @stoplight/prism-cli@5 -p <tarball> tfas mock
`;

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: argv, options: { contract: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (error) {
    process.stderr.write(`mock: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const version = values.contract ?? env.SIM_CONTRACT ?? 'v1.3.0';
  const port = Number(values.port ?? env.PORT ?? 4010);
  if (!(CONTRACT_VERSIONS as readonly string[]).includes(version)) {
    process.stderr.write(`mock: --contract must be one of ${CONTRACT_VERSIONS.join(', ')}\n`);
    return 2;
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`mock: --port must be a number from 0 to 65535\n`);
    return 2;
  }
  try {
    prismEntry();
  } catch {
    process.stderr.write(`mock: @stoplight/prism-cli is not installed beside this package\n\n${USAGE}`);
    return 3;
  }
  const prism = await startPrism({ mode: 'mock', contractFile: writeBundledContract(version), port });
  console.log(`sandbox (Prism mock of contract ${version}) listening on ${prism.url}`);
  const shutdown = async () => {
    await prism.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  return 0;
}

if (isEntryModule(import.meta.url)) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      if (code !== 0) process.exit(code);
    },
    (error: unknown) => {
      process.stderr.write(`mock: ${(error as Error).stack ?? error}\n`);
      process.exit(3);
    },
  );
}
