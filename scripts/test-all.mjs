// npm test's test run: vitest over every test file, in two processes side by side. The vendor runs
// (conformance/vendor-*.test.ts, issue 26) spend most of their minutes waiting on the sandbox's default rate
// limits (uploads 30 a minute); in the one vitest worker this machine gets they held it idle while every
// other file queued. So they run in a process of their own beside the rest (both at once: they mostly
// wait). That process has a third worker for the longest self-tests (the variant, defect and cluster runs,
// about ten of the rest's thirty-three minutes in the fresh-clone run of 2026-11-27): while the vendor runs
// wait they use the CPU, and the rest keeps vitest's single worker for everything else. Beside each other
// the self-tests run slower (the cluster's whole suite 260 s, 161-175 s alone): their bounds allow for it.
// Exit code: non-zero when either run failed.
import { spawn } from 'node:child_process';

const WAITING = ['conformance/vendor-profiles.test.ts', 'conformance/vendor-cluster.test.ts'];
// The crash test of every job type (issue 30: nine SIGKILLs on each store, PostgreSQL included) joins them:
// about nine minutes on a loaded machine, most of it process start-ups and PostgreSQL commits.
// So does the container test (issue 29: the local base from Debian's mirror, the image built and run by podman),
// and the embedded store's crash test (its 20 kills have a 300 s bound): in the fresh-clone run of 2026-11-27
// evening the rest took 1,803 s (118 s of it that test) and this process 1,269 s.
const LONG = [
  'conformance/self-test/variants.test.ts',
  'conformance/self-test/defects.test.ts',
  'conformance/cluster.test.ts',
  'simulator/job-resume.every-type.crash.test.ts',
  'scripts/container.podman.test.ts',
  'simulator/crash.test.ts',
  // issue 30 item 4: ~350 MB of store filled, then six starts (about 30 s).
  'simulator/restart-time.crash.test.ts',
];
const SIDE = [...WAITING, ...LONG];
const vitest = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const [side, rest] = await Promise.all([vitest(['--maxWorkers', String(WAITING.length + 1), ...SIDE]), vitest(SIDE.flatMap((file) => ['--exclude', file]))]);
process.exit(side || rest);
