// npm test's test run: vitest over every test file, in two processes side by side. The vendor runs
// (conformance/vendor-*.test.ts, issue 26) spend most of their minutes waiting on the sandbox's default rate
// limits (uploads 30 a minute); in the one vitest worker this machine gets they held it idle while every
// other file queued. So they run in a process of their own beside the rest (both at once: they mostly
// wait), and the rest keeps vitest's single worker.
// Exit code: non-zero when either run failed.
import { spawn } from 'node:child_process';

const WAITING = ['conformance/vendor-profiles.test.ts', 'conformance/vendor-cluster.test.ts'];
const vitest = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const [waiting, rest] = await Promise.all([vitest(['--maxWorkers', '2', ...WAITING]), vitest(WAITING.flatMap((file) => ['--exclude', file]))]);
process.exit(waiting || rest);
