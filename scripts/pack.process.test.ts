// Issue 29 item 1, "done when": a fresh folder holding only the packed tarball starts the sandbox and
// certifies it with two `npx` commands. The package is packed as a user would get it (`npm pack`, which runs
// `prepack`: the JavaScript bundles), copied alone into an empty folder, and run by npx, which installs it
// with its `dependencies` only: no tsx, no dev dependency, no source tree. npm's cache serves the packages
// (--prefer-offline); the registry is asked only for what the cache lacks.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../contracts/lib/prism.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'tfas-pack-'));
// A name of its own: npx keeps an install per package spec (~/.npm/_npx/<hash of the spec>), so a spec used
// before could run an earlier tarball. This one is new, and its install is removed after the test.
const tarballName = `tfas-${randomBytes(6).toString('hex')}.tgz`;

/** The environment of a user's shell: none of the npm_* variables `npm test` sets for its scripts. */
const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  NO_COLOR: '1',
  ...extra,
});

interface Finished {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? shellEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${command} ${args.join(' ')} took over ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** npx runs the bin under `npm exec` and a shell, and does not pass SIGTERM on: the whole group is stopped. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** npx's install of this test's tarball (the one whose package.json names it), for removal. */
function npxInstallsOf(name: string): string[] {
  const cache = path.join(os.homedir(), '.npm', '_npx');
  if (!existsSync(cache)) return [];
  return readdirSync(cache)
    .map((dir) => path.join(cache, dir))
    .filter((dir) => {
      try {
        return readFileSync(path.join(dir, 'package.json'), 'utf8').includes(name);
      } catch {
        return false;
      }
    });
}

afterAll(() => {
  for (const dir of npxInstallsOf(tarballName)) rmSync(dir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('the packed package, run by npx from an empty folder', () => {
  it('starts the sandbox with `npx <tarball> sandbox` and certifies it with `npx <tarball> conform`', async () => {
    const packed = path.join(work, 'packed');
    mkdirSync(packed);
    const pack = await run('npm', ['pack', '--pack-destination', packed], { cwd: ROOT, timeoutMs: 180_000 });
    expect(pack.code, pack.output).toBe(0);
    const [tarball] = readdirSync(packed).filter((f) => f.endsWith('.tgz'));
    expect(tarball, pack.output).toBeDefined();

    // The folder holds the tarball and nothing else: no package.json, no node_modules.
    const folder = path.join(work, 'empty');
    mkdirSync(folder);
    copyFileSync(path.join(packed, tarball), path.join(folder, tarballName));
    // A relative spec: npx runs an absolute path to an existing file as the command itself.
    const npx = (args: string[]) => ['--yes', '--prefer-offline', `./${tarballName}`, ...args];

    const port = await freePort();
    const adminToken = `admin-${randomBytes(8).toString('hex')}`;
    const apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
    const sandbox = spawn('npx', npx(['sandbox', '--port', String(port), '--db', './data/store.mdb']), {
      cwd: folder,
      env: shellEnv({ SIM_ADMIN_TOKEN: adminToken, SIM_INTEGRATION_KEY: apiKey, LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let sandboxOutput = '';
    sandbox.stdout.on('data', (d: Buffer) => (sandboxOutput += d.toString()));
    sandbox.stderr.on('data', (d: Buffer) => (sandboxOutput += d.toString()));
    const stopped = new Promise<void>((resolve) => sandbox.once('exit', () => resolve()));
    try {
      const started = Date.now();
      for (;;) {
        if (sandbox.exitCode !== null) throw new Error(`the sandbox exited with ${sandbox.exitCode}:\n${sandboxOutput}`);
        if (Date.now() - started > 240_000) throw new Error(`no /healthz within 240 s:\n${sandboxOutput}`);
        const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
        if (healthy) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      console.log(`npx <tarball> sandbox answered /healthz after ${Date.now() - started} ms`);
      expect(sandboxOutput).toContain(`http://127.0.0.1:${port}`);

      const conformStarted = Date.now();
      const conform = await run(
        'npx',
        npx(['conform', '--base-url', `http://127.0.0.1:${port}`, '--profile', 'simulator', '--only', 'auth.token-exchange,operations.getJob', '--runs', '5', '--report-dir', './reports']),
        { cwd: folder, env: shellEnv({ CONFORM_API_KEY: apiKey, CONFORM_ADMIN_TOKEN: adminToken }), timeoutMs: 240_000 },
      );
      console.log(`npx <tarball> conform took ${Date.now() - conformStarted} ms`);
      expect(conform.code, conform.output).toBe(0);
      expect(conform.output).toContain('CERTIFIED');
      const report = JSON.parse(readFileSync(path.join(folder, 'reports', 'report.json'), 'utf8')) as { totals: { passed: number; failed: number } };
      expect(report.totals).toMatchObject({ passed: 3, failed: 0 });
      for (const file of ['junit.xml', 'report.html']) expect(existsSync(path.join(folder, 'reports', file))).toBe(true);
      // Installed from the tarball alone: no TypeScript loader and no source tree came with it.
      const [installed] = npxInstallsOf(tarballName);
      expect(existsSync(path.join(installed, 'node_modules', 'trade-freight-sandbox', 'build', 'cli', 'conform.mjs'))).toBe(true);
      expect(existsSync(path.join(installed, 'node_modules', 'tsx'))).toBe(false);
      expect(existsSync(path.join(installed, 'node_modules', 'trade-freight-sandbox', 'conformance', 'cli.ts'))).toBe(false);
      // Every subcommand of the installed `tfas` answers --help; `mock` without Prism (an optional peer,
      // not installed by npx) says what to install instead of failing on a missing module.
      const tfas = path.join(installed, 'node_modules', '.bin', 'tfas');
      for (const subcommand of ['sandbox', 'conform', 'certify-client', 'diff', 'mock', 'proxy', 'listen', 'trigger', 'resend']) {
        const help = await run(process.execPath, [tfas, subcommand, '--help'], { cwd: folder, timeoutMs: 60_000 });
        expect(help.code, `${subcommand}: ${help.output}`).toBe(0);
        expect(help.output, subcommand).toMatch(/usage/i);
      }
      const mock = await run(process.execPath, [tfas, 'mock', '--port', '0'], { cwd: folder, timeoutMs: 60_000 });
      expect(mock.code, mock.output).toBe(3);
      expect(mock.output).toContain('@stoplight/prism-cli is not installed beside this package');
    } finally {
      killGroup(sandbox);
      const forced = setTimeout(() => killGroup(sandbox, 'SIGKILL'), 10_000);
      await stopped;
      clearTimeout(forced);
    }
  }, 600_000);
});
