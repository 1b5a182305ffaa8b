// The conformance CLI kept running, one process per tree copy (run-mutant.ts SuiteWorker), so that a mutant
// does not pay again for starting it: loading the suite and its contract, compiling the response validators
// (3 to 5 s of a mutant's suite seconds on the shared 2 cores, measured 2026-11-27). Each IPC message is one
// run of `conformance/cli.ts` main with its arguments, answered with its exit code; the run's report is
// read from the report directory its arguments name, as from a process of its own. Started with no script
// argument (node -e import), so that the bundled CLI's own entry-point test stays false here.
import { main } from '../../conformance/cli.js';

interface RunMessage {
  id: number;
  argv: string[];
}

process.on('message', (message: RunMessage) => {
  main(message.argv, process.env).then(
    (code) => process.send!({ id: message.id, code }),
    (error: unknown) => {
      process.stderr.write(`conform: ${(error as Error).stack ?? error}\n`);
      process.send!({ id: message.id, code: 3 });
    },
  );
});
// The mutation run ended (or died): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
