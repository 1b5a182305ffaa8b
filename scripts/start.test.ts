import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../contracts/lib/prism.js';
import { buildSimulator, SIMULATOR_BUNDLE, simulatorBundleIsStale } from './build-simulator.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'start-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start (scripts/start.mjs)', () => {
  it('runs the simulator from its bundle: the banner, a contract route answering in the envelope, a clean stop', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SIM_DB: path.join(dir, 'store.mdb'), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      for (const deadline = Date.now() + 60_000; !out.includes('base URL'); await new Promise((r) => setTimeout(r, 25))) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${out}`);
      }
      const res = await fetch(`http://127.0.0.1:${port}/api/jobs/0b7e3c1a-5d2f-4e6a-8b9c-1d2e3f4a5b6c`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_TOKEN');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  // Restart time (issue 30 item 4): these were nearly half of spawn to first answer, for uploads, bodies,
  // packets and builds a start does not need (simulator/kernel/deferred-loads.ts).
  it('loads exceljs, koa-body, pdfkit, the PostgreSQL client and esbuild only on first use, not while it starts', async () => {
    await buildSimulator();
    const meta = JSON.parse(readFileSync(`${SIMULATOR_BUNDLE}.meta.json`, 'utf8')) as { outputs: Record<string, { imports?: Array<{ path: string; kind: string }> }> };
    const imports = Object.values(meta.outputs).flatMap((output) => output.imports ?? []);
    const deferred = imports.filter((i) => ['exceljs', 'koa-body', 'pdfkit', 'postgres'].includes(i.path));
    // Each is imported, and only dynamically (the PostgreSQL client from two places: the store, SIM_STORE=local).
    expect([...new Set(deferred.map((i) => i.path))].sort()).toEqual(['exceljs', 'koa-body', 'pdfkit', 'postgres']);
    expect(deferred.every((i) => i.kind === 'dynamic-import')).toBe(true);
    expect(readFileSync(path.join(ROOT, 'scripts', 'build-simulator.mjs'), 'utf8')).not.toMatch(/^import .* from 'esbuild'/m);
  });

  it('finds the bundle stale once one of its sources is newer, and fresh again after a build', async () => {
    await buildSimulator();
    expect(simulatorBundleIsStale()).toBe(false);
    const source = path.join(ROOT, 'simulator', 'kernel', 'ids.ts');
    const { atime, mtime } = statSync(source);
    try {
      utimesSync(source, atime, new Date(Date.now() + 60_000));
      expect(simulatorBundleIsStale()).toBe(true);
    } finally {
      utimesSync(source, atime, mtime);
    }
    await buildSimulator({ force: true });
    expect(simulatorBundleIsStale()).toBe(false);
  });
});
