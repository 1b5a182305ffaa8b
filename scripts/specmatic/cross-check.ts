// npm run conform:specmatic [-- --generative] [--filter EXPR] [--minutes N] [--defects IDS] [--report-dir DIR]
//
// A peer's view of the sandbox (issue: cross-check with a peer, kept current). Runs Specmatic's contract test
// (npm `specmatic`, its jar called with Java directly: the npm wrapper exits 0 on failures) against a fresh
// simulator through a recording proxy, with our bundled v1.3.0 contract. Every test whose answer is not the
// status Specmatic expected is explained by a family of `explanations.ts` (a request the spec refuses) or
// listed as a deviation; failures Specmatic reports on answers with the expected status (bodies, headers)
// are listed too. Writes summary.md and summary.json; exits 1 when anything is unexplained. `--defects`
// starts the simulator with injected defects (SIM_DEFECTS), to see which of them Specmatic notices.
// The bearer goes to Specmatic through the variable named after the contract's security scheme
// (`integrationBearer`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeBundledContract } from '../../contracts/lib/bundle-files.js';
import { loadContract } from '../../contracts/lib/bundle.js';
import { matchOperation } from '../../contracts/lib/operations.js';
import { startSimulatorProcess } from '../../simulator/testing/process.js';
import { explain, missedExpectation, type Explanation } from './explanations.js';
import { readJunit } from './junit.js';
import { startRecordingProxy, type RecordedExchange } from './recording-proxy.js';
import { renderSummary, type Group } from './summary.js';

const { values: args } = parseArgs({
  options: {
    generative: { type: 'boolean', default: false },
    filter: { type: 'string' },
    minutes: { type: 'string', default: '20' },
    'report-dir': { type: 'string' },
    defects: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(0, 11).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}

const ROOT = process.cwd();
const JAR = path.join(ROOT, 'node_modules', 'specmatic', 'specmatic.jar');
if (!existsSync(JAR)) fail(`Specmatic's jar is missing (${path.relative(ROOT, JAR)}): run npm ci`);
const KEY = 'tfk_specmatic_cross_check';
const ADMIN = 'specmatic-admin';
const reportDir = path.resolve(args['report-dir'] ?? path.join('reports', 'specmatic', new Date().toISOString().replace(/[:.]/g, '-')));
mkdirSync(reportDir, { recursive: true });
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'specmatic-sim-'));
const contractFile = writeBundledContract('v1.3.0', path.join(reportDir, 'contract'));
const CONTRACT = loadContract('v1.3.0');

const sim = await startSimulatorProcess({ SIM_DB: path.join(storeDir, 'store.mdb'), SIM_ADMIN_TOKEN: ADMIN, SIM_INTEGRATION_KEY: KEY, ...(args.defects ? { SIM_DEFECTS: args.defects } : {}) });
const proxy = await startRecordingProxy(sim.url);
try {
  const token = await prepareTenant(sim.url);
  const started = Date.now();
  const exit = await runSpecmatic(proxy.url, token);
  const seconds = Math.round((Date.now() - started) / 1000);
  const junitFile = readdirSync(path.join(reportDir, 'junit')).find((f) => f.endsWith('.xml'));
  const junit = junitFile ? readJunit(readFileSync(path.join(reportDir, 'junit', junitFile), 'utf8')) : undefined;
  const groups = groupMissed(proxy.exchanges);
  const otherFailures = (junit?.failed ?? []).filter((f) => f.breadcrumb !== 'RESPONSE.STATUS');
  const summary = renderSummary({ generative: args.generative, filter: args.filter, seconds, exit, junit, exchanges: proxy.exchanges.length, groups, otherFailures });
  writeFileSync(path.join(reportDir, 'summary.md'), summary.markdown);
  writeFileSync(path.join(reportDir, 'summary.json'), JSON.stringify({ ...summary.json, groups }, null, 2));
  console.log(summary.markdown);
  console.log(`reports: ${path.relative(ROOT, reportDir)}/summary.md, summary.json, junit/`);
  process.exitCode = summary.json.unexplained > 0 || !junit ? 1 : 0;
} finally {
  await proxy.close();
  await sim.kill();
  rmSync(storeDir, { recursive: true, force: true });
}

/** Lifts the tenant's rate buckets and queue caps (sandbox control API) so that Specmatic's thousands of requests are judged, not throttled; answers a bearer. */
async function prepareTenant(base: string): Promise<string> {
  const exchange = await fetch(`${base}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': KEY } });
  const { access_token: token } = (await exchange.json()) as { access_token: string };
  const tenantId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { tenant_id: string }).tenant_id;
  const lifted = { limit: 10_000_000, windowMs: 60_000 };
  const settings = await fetch(`${base}/_sim/tenants/${tenantId}/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimits: { read: lifted, write: lifted, upload: lifted }, queueCaps: { total: 1_000_000, upload: 1_000_000, sima: 1_000_000, preview: 1_000_000 } }),
  });
  if (settings.status !== 200) fail(`lifting the tenant's limits answered ${settings.status}: ${await settings.text()}`);
  return token;
}

function runSpecmatic(baseUrl: string, token: string): Promise<number | string> {
  const argv = ['-jar', JAR, 'test', `--testBaseURL=${baseUrl}`, `--junitReportDir=${path.join(reportDir, 'junit')}`, ...(args.filter ? [`--filter=${args.filter}`] : []), contractFile];
  const child = spawn('java', argv, {
    cwd: reportDir,
    env: { ...process.env, integrationBearer: token, SPECMATIC_GENERATIVE_TESTS: String(args.generative) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => log.push(d));
  child.stderr.on('data', (d: Buffer) => log.push(d));
  const limit = setTimeout(() => child.kill('SIGTERM'), Number(args.minutes) * 60_000);
  return new Promise((resolve) => {
    child.on('error', (error) => fail(`java could not start (${error.message}); Specmatic needs a Java runtime (Debian: default-jre-headless)`));
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      writeFileSync(path.join(reportDir, 'specmatic.log'), Buffer.concat(log));
      resolve(signal ? `stopped after ${args.minutes} min (${signal})` : code ?? -1);
    });
  });
}

/** Missed expectations grouped by operation, status and family (or, unexplained, by error code and field). */
function groupMissed(exchanges: RecordedExchange[]): Group[] {
  const groups = new Map<string, Group>();
  for (const exchange of exchanges.filter(missedExpectation)) {
    const family: Explanation | undefined = explain(exchange);
    const operation = `${exchange.method} ${templatePath(exchange.method, exchange.url)}`;
    const cause = family ? family.id : `${exchange.code ?? 'no envelope'} ${exchange.field ?? ''}: ${(exchange.message ?? '').replace(/\d+/g, 'N').slice(0, 120)}`;
    const key = `${operation}|${exchange.expected}|${exchange.status}|${cause}`;
    const group = groups.get(key) ?? { operation, expected: exchange.expected!, status: exchange.status, family: family?.id, kind: family?.kind, cause, count: 0, example: exchange };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => Number(a.family !== undefined) - Number(b.family !== undefined) || b.count - a.count);
}

/** The contract's path template of a concrete request, so that one operation's tests group together. */
function templatePath(method: string, url: string): string {
  return matchOperation(CONTRACT, method, url)?.path ?? url.split('?')[0]!;
}

function fail(message: string): never {
  console.error(`conform:specmatic: ${message}`);
  process.exit(2);
}
