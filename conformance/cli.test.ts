// The CLI end to end: against a simulator process (started as a process, the only way a conformance test
// may reach the simulator), a healthy run exits 0 and writes the three reports, a wrong key exits 1, and
// usage errors exit 2.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, main, parseCli } from './cli.js';
import { defineCheck } from './harness/check.js';
import { shardOfId } from './harness/shard.js';
import { startTestTarget, type TestTarget } from './testing/simulator.js';

function io() {
  let out = '';
  let err = '';
  return {
    stdout: { isTTY: false, write: (chunk: string) => (out += chunk) },
    stderr: { isTTY: false, write: (chunk: string) => (err += chunk) },
    out: () => out,
    err: () => err,
  };
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'conform-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('conform CLI against a simulator process', () => {
  let target: TestTarget;
  beforeAll(async () => {
    // No allow list at start, as `npm start` runs it: the CLI allows its receiver through the control API.
    target = await startTestTarget({ label: 'cli-test', env: { SIM_WEBHOOK_ALLOW_TARGETS: undefined } });
  });
  afterAll(() => target?.close());

  it('exits 0 and writes the JUnit, JSON and HTML reports when nothing fails', async () => {
    const dir = path.join(work, 'ok');
    const cli = io();
    const code = await main(['--base-url', target.url, '--api-key', target.apiKey, '--admin-token', target.adminToken, '--profile', 'simulator', '--only', 'auth.token-exchange', '--seed', '7', '--report-dir', dir], {}, cli);
    expect(code, cli.out() + cli.err()).toBe(EXIT.ok);
    for (const file of ['junit.xml', 'report.json', 'report.html']) expect(existsSync(path.join(dir, file)), file).toBe(true);
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ schemaVersion: 1, only: ['auth.token-exchange'], totals: { passed: 1, failed: 0, skipped: 0 }, target: { profile: 'simulator', seed: 7 } });
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('class="badge">CERTIFIED</div>');
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain('<testcase classname="auth" name="auth.token-exchange"');
    expect(cli.out()).toMatch(/Run plan: 1 check to run, about \d+ read, \d+ write, \d+ upload requests \(measured per check in the baseline run/);
    expect(cli.out()).toContain("rate limits: learned from the server's 429s");
    expect(cli.out()).toContain('[1/1] auth.token-exchange passed');
    expect(cli.out()).toContain('1 passed, 0 failed, 0 skipped');
    expect(cli.out()).toContain('seed 7; replay: CONFORM_API_KEY="$CONFORM_API_KEY" CONFORM_ADMIN_TOKEN="$CONFORM_ADMIN_TOKEN" npm run conform -- --base-url');
  });

  it('in the simulator profile, allows its webhook receiver through the control API, then puts the allow list back and deletes the tenants it created', async () => {
    const tenantsBefore = (await target.control('GET', '/_sim/tenants?limit=500')).tenants;
    const clockBefore = (await target.control('GET', '/_sim/clock')).offsetSeconds;
    const cli = io();
    const env = { CONFORM_BASE_URL: target.url, CONFORM_API_KEY: target.apiKey, CONFORM_ADMIN_TOKEN: target.adminToken, CONFORM_PROFILE: 'simulator' };
    const code = await main(['--only', 'webhooks.signature,webhooks.retry-schedule,sima.summary-matches-results', '--format', 'none', '--seed', '11'], env, cli);
    expect(code, cli.out() + cli.err()).toBe(EXIT.ok);
    expect(cli.out()).toContain('3 passed, 0 failed, 0 skipped');
    expect(cli.out()).not.toContain('note:');
    expect(cli.out()).not.toContain(target.apiKey);
    expect(cli.out()).not.toContain(target.adminToken);
    expect((await target.control('GET', '/_sim/webhooks/allow-targets')).targets).toEqual([]);
    expect((await target.control('GET', '/_sim/tenants?limit=500')).tenants).toEqual(tenantsBefore);
    expect((await target.control('GET', '/_sim/clock')).offsetSeconds).toBe(clockBefore);
  });

  it('exits 1 when a check fails (a wrong integration key), still writing the reports', async () => {
    const dir = path.join(work, 'wrong-key');
    const cli = io();
    const code = await main(['--only', 'auth.token-exchange', '--format', 'json,html', '--quiet'], { CONFORM_BASE_URL: target.url, CONFORM_API_KEY: 'tfk_not_a_key', CONFORM_PROFILE: 'simulator', CONFORM_REPORT_DIR: dir }, cli);
    expect(code, cli.out() + cli.err()).toBe(EXIT.failed);
    expect(cli.out()).toContain('0 passed, 1 failed, 0 skipped');
    expect(cli.out()).toMatch(/\[token-exchange\] the exchange answered 401/);
    expect(cli.out()).not.toContain('[1/1]'); // quiet: no progress
    expect(existsSync(path.join(dir, 'junit.xml'))).toBe(false);
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('NOT CERTIFIED');
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).not.toContain('tfk_not_a_key');
  });
});

describe('conform CLI without the simulator', () => {
  // Any HTTP server will do for checks that send nothing: the CLI only checks that the target answers.
  let server: Server;
  const base = ['--base-url', '', '--api-key', 'k', '--format', 'none'];
  // Usage errors are found before the target is contacted.
  const usage = ['--base-url', 'http://127.0.0.1:1', '--api-key', 'k', '--format', 'none'];
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base[1] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const passing = defineCheck({ id: 'demo.passes', title: 'Passes', area: 'demo', needs: [], run: async () => {} });
  const skipping = defineCheck({ id: 'demo.skips', title: 'Skips', area: 'demo', needs: ['admin'], run: async () => {} });
  const failing = defineCheck({ id: 'demo.fails', title: 'Fails', area: 'demo', needs: [], run: async ({ fail }) => fail('demo-rule', 'it failed') });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'http://x'], /--api-key is required/],
    [['--base-url', 'ftp://x', '--api-key', 'k'], /http or https/],
    [[...usage, '--profile', 'production'], /--profile must be one of readonly, sandbox, simulator/],
    [[...usage, '--contract', 'v2.0.0'], /--contract must be one of v1\.3\.0, v1\.2\.0, v1\.1\.0/],
    [[...usage, '--seed', 'abc'], /--seed must be an integer/],
    [[...usage, '--runs', '0'], /--runs must be between 1/],
    [[...usage, '--format', 'pdf'], /--format takes/],
    [[...usage, '--bogus'], /Unknown option '--bogus'/],
    [[...usage, 'positional'], /positional/i],
    [[...usage, '--only', 'nothing.here'], /matches no check/],
    [[...usage, '--shard', '0/4'], /--shard 0\/4: K counts the shards from 1 to N \(here 1 to 4\)/],
    [[...usage, '--shard', '5/4'], /--shard 5\/4: K counts the shards from 1 to N/],
    [[...usage, '--shard', 'x'], /--shard takes K\/N/],
    [[...usage, '--rate-limits', 'reads=240'], /--rate-limits takes bucket=limit/],
    [[...usage, '--max-duration', '10'], /--max-duration takes a duration with units/],
    [['--merge'], /--merge needs the report of every shard/],
    [['--merge', 'reports/a', '--base-url', 'http://x'], /--merge takes report paths, --report-dir, --format and --quiet; --base-url belongs to a run/],
  ])('exits 2 on a usage error: %j', async (argv, message) => {
    const cli = io();
    expect(await main(argv, {}, { ...cli, checks: [passing] })).toBe(EXIT.usage);
    expect(cli.err()).toMatch(message);
  });

  it('prints the usage on --help and exits 0', async () => {
    const cli = io();
    expect(await main(['--help'], {}, cli)).toBe(EXIT.ok);
    expect(cli.out()).toContain('Usage: npm run conform -- --base-url URL --api-key KEY');
  });

  it('treats skipped checks as not failed, and any failure as exit 1', async () => {
    expect(await main([...base, '--profile', 'readonly'], {}, { ...io(), checks: [passing, skipping] })).toBe(EXIT.ok);
    const cli = io();
    expect(await main([...base, '--only', 'demo.fails,demo.passes'], {}, { ...cli, checks: [passing, skipping, failing] })).toBe(EXIT.failed);
    expect(cli.out()).toContain('1 passed, 1 failed, 0 skipped');
    expect(cli.out()).toContain('[demo-rule] it failed');
  });

  it('plans with --rate-limits, ends at --max-duration with the rest "not run", and exits 1: such a run is not certified', async () => {
    const slow = defineCheck({ id: 'demo.slow', title: 'Slow', area: 'demo', needs: [], run: () => new Promise((resolve) => setTimeout(resolve, 1200)) });
    const dir = path.join(work, 'stopped');
    const cli = io();
    const code = await main([...base.slice(0, 4), '--rate-limits', 'read=240,write=120,upload=30', '--max-duration', '1s', '--report-dir', dir], {}, { ...cli, checks: [slow, passing] });
    expect(code, cli.out() + cli.err()).toBe(EXIT.failed);
    expect(cli.out()).toContain('rate limits: read 240 per 1 min 0 s, write 120 per 1 min 0 s, upload 30 per 1 min 0 s (given with --rate-limits)');
    expect(cli.out()).toContain('--max-duration 1.0 s: no check starts after that');
    expect(cli.out()).toContain('[2/2] not run: --max-duration 1s reached: the check left is not run');
    expect(cli.out()).toMatch(/1 passed, 0 failed, 0 skipped, 1 not run in .*: NOT CERTIFIED/);
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(report.totals).toEqual({ passed: 1, failed: 0, skipped: 0, notRun: 1 });
    expect(report.results[1]).toMatchObject({ id: 'demo.passes', verdict: 'not run' });
    expect(report.replay).toContain('--rate-limits read=240,write=120,upload=30');
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain('<skipped message="not run: --max-duration 1s reached"/>');
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('<div class="badge">NOT CERTIFIED</div>');
  });

  it('runs one shard of the selection per runner, and --merge writes the reports of the whole run from theirs', async () => {
    const demo = Array.from({ length: 9 }, (_, i) =>
      defineCheck({ id: `demo.c${i + 1}`, title: `Check ${i + 1}`, area: 'demo', needs: [], run: async ({ fail }) => (i === 4 ? fail('demo-rule', 'c5 failed') : undefined) }),
    );
    const ids = demo.map((check) => check.id);
    const dirs: string[] = [];
    const ran: string[] = [];
    for (let index = 1; index <= 3; index++) {
      const dir = path.join(work, `shard-${index}`);
      dirs.push(dir);
      const cli = io();
      const code = await main(['--base-url', base[1]!, '--api-key', 'k', '--seed', '5', '--shard', `${index}/3`, '--report-dir', dir], {}, { ...cli, checks: demo });
      const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
      const shardIds = ids.filter((id) => shardOfId(id, 3) === index);
      expect(report.results.map((r: { id: string }) => r.id)).toEqual(shardIds);
      expect(report.shard).toEqual({ index, count: 3, selectedChecks: 9, selection: ids });
      expect(code, cli.out() + cli.err()).toBe(shardIds.includes('demo.c5') ? EXIT.failed : EXIT.ok);
      expect(cli.out()).toContain(`: shard ${index}/3, ${shardIds.length} of 9 selected checks (9 in the suite), profile sandbox`);
      expect(cli.out()).toContain(`shard ${index}/3: ${shardIds.length} of the 9 selected checks (merge the shards' reports with --merge)`);
      expect(cli.out()).toMatch(new RegExp(`replay: .* --seed 5 --runs 100 --shard ${index}/3\n`));
      expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain(`<property name="shard" value="${index}/3"/>`);
      expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain(`This report covers shard ${index} of 3 only`);
      ran.push(...shardIds);
    }
    expect(ran.sort()).toEqual([...ids].sort());

    const merged = path.join(work, 'merged');
    const cli = io();
    expect(await main(['--merge', ...dirs.reverse(), '--report-dir', merged], {}, cli), cli.err()).toBe(EXIT.failed);
    const report = JSON.parse(readFileSync(path.join(merged, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ merged: { shards: 3 }, totals: { passed: 8, failed: 1, skipped: 0 }, target: { seed: 5 } });
    expect(report.results.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(report.shard).toBeUndefined();
    expect(readFileSync(path.join(merged, 'junit.xml'), 'utf8')).toContain('<testsuite name="demo" tests="9" failures="1"');
    expect(readFileSync(path.join(merged, 'report.html'), 'utf8')).toContain('merged from 3 shards: 9 checks');
    expect(cli.out()).toContain('[demo-rule] c5 failed');
    expect(cli.out()).toContain('8 passed, 1 failed, 0 skipped');
    expect(cli.out()).toContain('merged from 3 shards: 9 checks');

    const refused = io();
    expect(await main(['--merge', dirs[0]!, dirs[1]!, '--format', 'none'], {}, refused)).toBe(EXIT.usage);
    expect(refused.err()).toMatch(/cannot merge: shard \d\/3 missing/);
    const overwrite = io();
    expect(await main(['--merge', ...dirs, '--report-dir', dirs[0]!], {}, overwrite)).toBe(EXIT.usage);
    expect(overwrite.err()).toContain('which the merged reports would overwrite');
  });

  it('lists the checks of one shard with --list --shard', async () => {
    const demo = ['demo.a', 'demo.b', 'demo.c', 'demo.d'].map((id) => defineCheck({ id, title: id, area: 'demo', needs: [], run: async () => {} }));
    const cli = io();
    expect(await main(['--list', '--shard', '2/2'], {}, { ...cli, checks: demo })).toBe(EXIT.ok);
    const inShard = demo.filter((check) => shardOfId(check.id, 2) === 2).map((check) => check.id);
    expect(cli.out().trim().split('\n').slice(0, -1).map((line) => line.split(' ')[0])).toEqual(inShard);
    expect(cli.out()).toContain(`shard 2/2, ${inShard.length} of 4 selected checks (4 in the suite)\n`);
  });

  it('exits 3 with one clear error when the target cannot be reached', async () => {
    const cli = io();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const code = await main(['--base-url', url, '--api-key', 'k', '--format', 'none'], {}, { ...cli, checks: [passing] });
    expect(code).toBe(EXIT.error);
    expect(cli.err()).toContain(`cannot reach ${url}: ECONNREFUSED`);
  });

  it('reads the environment, lets flags win, and defaults the rest', () => {
    const env = { CONFORM_BASE_URL: 'https://a.example/', CONFORM_API_KEY: 'env-key', CONFORM_CONTRACT: 'v1.2.0', CONFORM_PROFILE: 'readonly', CONFORM_SEED: '12', CONFORM_RUNS: '5', CONFORM_SECOND_API_KEY: 'k2', CONFORM_ADMIN_TOKEN: 'adm', CONFORM_WEBHOOK_URL: 'https://hook.example/x', CONFORM_REPORT_DIR: '/tmp/r' };
    const settings = parseCli(['--api-key', 'flag-key', '--runs', '9', '--only', 'auth, jobs.'], env);
    if (settings === 'help') throw new Error('unexpected');
    expect(settings.target).toMatchObject({ baseUrl: 'https://a.example', apiKey: 'flag-key', contract: 'v1.2.0', profile: 'readonly', seed: 12, runs: 9, secondApiKey: 'k2', adminToken: 'adm', webhookUrl: 'https://hook.example/x', only: ['auth', 'jobs.'] });
    expect(settings.reportDir).toBe('/tmp/r');
    expect(settings.formats).toEqual(['junit', 'json', 'html']);
    const paced = parseCli(['--rate-limits', 'read=240/90s,upload=30'], { ...env, CONFORM_MAX_DURATION: '10m' });
    if (paced === 'help') throw new Error('unexpected');
    expect(paced.target).toMatchObject({ rateLimits: { read: { limit: 240, windowMs: 90_000 }, upload: { limit: 30, windowMs: 60_000 } }, maxDurationMs: 600_000 });

    const defaults = parseCli(['--base-url', 'http://h', '--api-key', 'k'], {}, () => new Date('2025-06-01T10:20:30.456Z'));
    if (defaults === 'help') throw new Error('unexpected');
    expect(defaults.target).toMatchObject({ contract: 'v1.3.0', profile: 'sandbox', runs: 100 });
    expect(Number.isInteger(defaults.target.seed)).toBe(true);
    expect(defaults.seedWasRandom).toBe(true);
    expect(defaults.reportDir).toBe(path.resolve('reports/conformance-2025-06-01T10-20-30Z'));
  });
});
