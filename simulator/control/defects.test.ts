// Defect injection as a feature: switched on at start (SIM_DEFECTS) or at run time (PUT /_sim/defects),
// validated against the catalogue, off by default, documented in the README. What each defect does is
// shown in defects.response.test.ts, defects.behaviour.test.ts and defects.delivery.test.ts.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDefects } from '../kernel/defects.js';
import type { TestSandbox } from '../testing/contract-client.js';
import { createTestDeps } from '../testing/kernel.js';
import { startSimulatorProcess } from '../testing/process.js';
import { DEFECT_CATALOGUE, DEFECT_IDS, DEFECTS_END, DEFECTS_START, renderDefectTable } from './defects.catalogue.js';
import { RESPONSE_DEFECTS } from './defects.middleware.js';
import { sandboxWith } from './defects.testing.js';

const SIMULATOR_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('the defect catalogue', () => {
  it('names each defect once, with an area and a description', () => {
    expect(new Set(DEFECT_IDS).size).toBe(DEFECT_CATALOGUE.length);
    for (const entry of DEFECT_CATALOGUE) {
      expect(entry.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(entry.description.length).toBeGreaterThan(10);
    }
  });

  it('has a hook for every id, and every hook names a catalogue id', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return sources(full);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !['defects.catalogue.ts', 'defects.testing.ts'].includes(entry.name) ? [full] : [];
      });
    const hooked = new Set<string>();
    for (const file of sources(SIMULATOR_DIR)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/defects\.has\('([^']+)'\)/g)) hooked.add(match[1]);
    }
    expect([...hooked].sort()).toEqual([...DEFECT_IDS].sort());
    expect(RESPONSE_DEFECTS.filter((id) => !DEFECT_IDS.includes(id))).toEqual([]);
  });

  it('is the table of the README, exactly', () => {
    const readme = readFileSync(path.join(SIMULATOR_DIR, 'README.md'), 'utf8');
    expect(readme.slice(readme.indexOf(DEFECTS_START), readme.indexOf(DEFECTS_END) + DEFECTS_END.length)).toBe(renderDefectTable());
  });
});

describe('switching defects', () => {
  it('reads SIM_DEFECTS as a comma-separated list, empty by default', () => {
    expect(loadConfig([], {}).defects).toEqual([]);
    expect(loadConfig([], { SIM_DEFECTS: ' limits.rate-limit-off, jobs.stuck-pending ,' }).defects).toEqual(['limits.rate-limit-off', 'jobs.stuck-pending']);
  });

  it('starts with no defect active unless asked', async () => {
    const deps = await createTestDeps();
    expect(deps.defects.active()).toEqual([]);
    expect(DEFECT_IDS.some((id) => deps.defects.has(id))).toBe(false);
  });

  it('refuses an unknown id at start, in the kernel and in the real process', async () => {
    await expect(createTestDeps({ config: { defects: ['limits.rate-limit-off', 'no.such-defect'] } })).rejects.toThrow(/unknown defect id\(s\): no\.such-defect/);
    expect(() => createDefects(['a.b'], ['a.c'])).toThrow(/a\.b/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-defects-'));
    await expect(startSimulatorProcess({ SIM_DEFECTS: 'limits.rate-limit-off,no.such-defect', SIM_DB: path.join(dir, 'store.json') })).rejects.toThrow(
      /exited with 1[\s\S]*SIM_DEFECTS: unknown defect id\(s\): no\.such-defect/,
    );
  }, 60_000);

  it('lists the catalogue and the active defects at GET /_sim/defects', async () => {
    sandbox = await sandboxWith(['webhooks.bad-signature', 'limits.rate-limit-off']);
    const res = await sandbox.admin('GET', '/_sim/defects');
    expect(res.status).toBe(200);
    expect(res.body.catalogue).toEqual(DEFECT_CATALOGUE);
    expect(res.body.active).toEqual(['webhooks.bad-signature', 'limits.rate-limit-off'].sort((a, b) => DEFECT_IDS.indexOf(a) - DEFECT_IDS.indexOf(b)));
  });

  it('switches defects on and off at run time with PUT /_sim/defects', async () => {
    sandbox = await sandboxWith([]);
    expect((await sandbox.call('GET', '/api/jobs')).body).toEqual({ jobs: [], count: 0 });
    const on = await sandbox.admin('PUT', '/_sim/defects', { active: ['jobs.list-count-missing'] });
    expect([on.status, on.body.active]).toEqual([200, ['jobs.list-count-missing']]);
    expect((await sandbox.call('GET', '/api/jobs', { unchecked: true })).body).toEqual({ jobs: [] });
    const off = await sandbox.admin('PUT', '/_sim/defects', { active: [] });
    expect(off.body.active).toEqual([]);
    expect((await sandbox.call('GET', '/api/jobs')).body).toEqual({ jobs: [], count: 0 });
  });

  it('refuses an unknown id at run time with 400 INVALID_REQUEST and changes nothing', async () => {
    sandbox = await sandboxWith(['limits.rate-limit-off']);
    const res = await sandbox.admin('PUT', '/_sim/defects', { active: ['jobs.stuck-pending', 'no.such-defect'] });
    expect([res.status, res.body.code, res.body.details?.field]).toEqual([400, 'INVALID_REQUEST', 'active']);
    expect(res.body.message).toMatch(/no\.such-defect/);
    expect((await sandbox.admin('GET', '/_sim/defects')).body.active).toEqual(['limits.rate-limit-off']);
    const malformed = await sandbox.admin('PUT', '/_sim/defects', { active: 'limits.rate-limit-off' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('keeps the active defects across a sandbox reset (a reset forgets records, not settings of the run)', async () => {
    sandbox = await sandboxWith(['limits.rate-limit-off']);
    expect((await sandbox.admin('POST', '/_sim/reset')).status).toBe(200);
    expect((await sandbox.admin('GET', '/_sim/defects')).body.active).toEqual(['limits.rate-limit-off']);
  });
});
