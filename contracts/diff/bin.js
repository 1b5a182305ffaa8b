#!/usr/bin/env node
// `tfas-contract-diff`: runs the change gate's CLI (contracts/diff/cli.ts) through tsx, forwarding the
// arguments, standard streams, signals and exit code. tsx is resolved from this package, so the command works
// from any directory (BASE, HEAD and --out resolve against the current directory).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const child = spawn(process.execPath, ['--import', tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`tfas-contract-diff: could not start the CLI: ${error.message}\n`);
  process.exit(3);
});
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 3);
});
