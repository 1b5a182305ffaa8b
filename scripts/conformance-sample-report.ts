// Regenerates the sample certification report in conformance/docs/: starts the simulator as a process on a
// fresh store, runs the conformance CLI against it with the simulator profile and a fixed seed, keeps the
// HTML report as conformance/docs/sample-report.html (JSON and JUnit beside it are not kept), stops the
// simulator, and screenshots the report with headless Chromium when one is installed.
//   npx tsx scripts/conformance-sample-report.ts [--seed N] [--runs N] [--no-screenshot]
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { main } from '../conformance/cli.js';
import { startTestTarget } from '../conformance/testing/simulator.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'conformance', 'docs');
const HTML = path.join(DOCS, 'sample-report.html');
const PNG = path.join(DOCS, 'sample-report.png');

const { values } = parseArgs({ options: { seed: { type: 'string', default: '20250601' }, runs: { type: 'string', default: '100' }, 'no-screenshot': { type: 'boolean' } } });

const work = mkdtempSync(path.join(tmpdir(), 'conformance-sample-'));
const simulator = await startTestTarget({ label: 'sample-report' });
let code: number;
try {
  const reportDir = path.join(work, 'reports');
  code = await main(['--base-url', simulator.url, '--api-key', simulator.apiKey, '--admin-token', simulator.adminToken, '--profile', 'simulator', '--seed', values.seed!, '--runs', values.runs!, '--report-dir', reportDir, '--format', 'html'], {});
  mkdirSync(DOCS, { recursive: true });
  copyFileSync(path.join(reportDir, 'report.html'), HTML);
  process.stdout.write(`wrote ${path.relative(ROOT, HTML)} (the run exited ${code})\n`);
} finally {
  await simulator.close();
  rmSync(work, { recursive: true, force: true });
}

if (!values['no-screenshot']) {
  const browser = ['chromium', 'chromium-browser', 'google-chrome'].find((name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0);
  if (!browser) {
    process.stdout.write('no Chromium found: the screenshot was not refreshed (apt-get install -y chromium)\n');
  } else {
    const shot = spawnSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--hide-scrollbars', `--screenshot=${PNG}`, '--window-size=1280,1600', pathToFileURL(HTML).href], { encoding: 'utf8', timeout: 120_000 });
    process.stdout.write(shot.status === 0 ? `wrote ${path.relative(ROOT, PNG)}\n` : `the screenshot failed (${shot.status}): ${shot.stderr.slice(-500)}\n`);
  }
}
