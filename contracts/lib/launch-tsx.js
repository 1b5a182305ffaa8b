// Shared by the package's bin files: runs a TypeScript CLI through tsx, forwarding the arguments, standard
// streams, signals and exit code. tsx is resolved from this package, so a bin works from any directory.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `cliUrl`: URL of the .ts entry point; `name`: the command, for error messages. */
export function launchTsx(cliUrl, name) {
  const cli = fileURLToPath(cliUrl);
  const tsx = import.meta.resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`${name}: could not start the CLI: ${error.message}\n`);
    process.exit(3);
  });
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 3);
  });
}
