// Command-line entry points that are also imported by tests: run `main` only when the module is the one
// node was started with (directly, through tsx, or through a symlinked bin).
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function isEntryModule(moduleUrl: string): boolean {
  try {
    return process.argv[1] !== undefined && moduleUrl === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

/** Runs a synchronous CLI `main` when `moduleUrl` is the entry point; an unexpected throw exits with 3. */
export function runSyncCli(moduleUrl: string, name: string, main: (argv: string[]) => number): void {
  if (!isEntryModule(moduleUrl)) return;
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 3;
  }
}

/** Runs an asynchronous CLI `main` when `moduleUrl` is the entry point; an unexpected throw exits with 3. */
export function runAsyncCli(moduleUrl: string, name: string, main: (argv: string[]) => Promise<number>): void {
  if (!isEntryModule(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`${name}: ${(error as Error).stack ?? error}\n`);
      process.exitCode = 3;
    },
  );
}
