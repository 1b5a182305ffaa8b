// Defect injection as a feature: switched on at start (SIM_DEFECTS) or at run time (PUT /_sim/defects),
// validated against the catalogue, off by default, documented in the README. What each defect does is
// shown in defects.response.test.ts, defects.behaviour.test.ts and defects.delivery.test.ts.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDomains } from '../domains/index.js';
import { createDefects, type DefectEntry } from '../kernel/defects.js';
import { describeEntry } from '../kernel/deviations.js';
import type { TestSandbox } from '../testing/contract-client.js';
import { createTestDeps } from '../testing/kernel.js';
import { startSimulatorProcess } from '../testing/process.js';
import { DEFECT_CATALOGUE, DEFECT_IDS, DEFECTS_END, DEFECTS_ONLY, DEFECTS_START, renderDefectTable, renderVariantTable, VARIANT_CATALOGUE, VARIANTS_END, VARIANTS_START } from './defects.catalogue.js';
import { sandboxWith } from './defects.testing.js';

const SIMULATOR_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The simulator's production sources: no tests, no test support, not the catalogue that gathers the lists. */
function productionSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(SIMULATOR_DIR, 'testing') ? [] : productionSources(full);
    const support = entry.name.endsWith('.test.ts') || entry.name.endsWith('.testing.ts') || entry.name === 'defects.catalogue.ts';
    return entry.name.endsWith('.ts') && !support ? [full] : [];
  });
}

/** A source without its comment lines: a comment naming an id (or `defects.has('<id>')`) is not a hook. */
const codeOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');

const isDefectEntry = (value: unknown): value is DefectEntry =>
  typeof value === 'object' && value !== null && !('apply' in value) && ['id', 'area', 'description'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string');

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

  it('makes every entry act through rows, hook rules, a response rewrite or a kernel hook, and names only catalogue ids', async () => {
    // Issue 25: a domain's deviation is data (machine rows, rules at hook points, ResponseDefects); only the
    // kernel's own seams still read an id with `defects.has('<id>')` (kernel/http, kernel/uploads).
    const hooked = new Set<string>();
    for (const file of productionSources(SIMULATOR_DIR)) {
      for (const match of codeOf(file).matchAll(/defects\.has\('([^']+)'\)/g)) hooked.add(match[1]);
    }
    const deps = await createTestDeps();
    try {
      const responseDefects = createDomains(deps).responseDefects.map((d) => d.id);
      const asData = DEFECT_CATALOGUE.filter((e) => (e.machine?.length ?? 0) > 0 || (e.hooks?.length ?? 0) > 0).map((e) => e.id);
      expect([...hooked].filter((id) => !DEFECT_IDS.includes(id))).toEqual([]);
      expect(responseDefects.filter((id) => !DEFECT_IDS.includes(id))).toEqual([]);
      expect([...new Set([...hooked, ...responseDefects, ...asData])].sort()).toEqual([...DEFECT_IDS].sort());
    } finally {
      deps.scheduler.stop();
      await deps.store.close();
    }
  });

  it('leaves no entry id in a domain\'s code: domains decide at hook points and by their tables', () => {
    const domains = path.join(SIMULATOR_DIR, 'domains');
    const reading = productionSources(domains).filter((file) => /defects\.(has|isOn)\(/.test(codeOf(file)));
    expect(reading.map((file) => path.relative(SIMULATOR_DIR, file))).toEqual([]);
  });

  it('consults every hook point a domain declares somewhere in its production code (no dead point)', () => {
    const sources = productionSources(SIMULATOR_DIR);
    const deciding = sources.filter((file) => !file.endsWith('.defects.ts') && !file.endsWith('.hooks.ts')).map(codeOf).join('\n');
    const unused = sources
      .filter((file) => file.endsWith('.hooks.ts'))
      .flatMap((file) => [...codeOf(file).matchAll(/^\s*(\w+): hookPoint</gm)].map((m) => `${path.basename(file)} ${m[1]}`))
      .filter((point) => !new RegExp(`\\.${point.split(' ')[1]}\\b`).test(deciding));
    expect(unused).toEqual([]);
  });

  it('declares each id in exactly one <domain>.defects.ts list, and the catalogue gathers every list', async () => {
    const declaredIn = new Map<string, string[]>();
    const files = productionSources(SIMULATOR_DIR).filter((file) => file.endsWith('.defects.ts'));
    // One list file per domain (and the kernel), named after its folder: <domain>/<domain>.defects.ts.
    expect(files.length).toBeGreaterThan(1);
    expect(files.filter((file) => path.basename(file) !== `${path.basename(path.dirname(file))}.defects.ts`)).toEqual([]);
    for (const file of files) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!Array.isArray(value) || !value.every(isDefectEntry)) continue;
        for (const entry of value) declaredIn.set(entry.id, [...(declaredIn.get(entry.id) ?? []), `${path.basename(file)} ${name}`]);
      }
    }
    const notOnce = DEFECT_IDS.filter((id) => declaredIn.get(id)?.length !== 1).map((id) => `${id}: ${declaredIn.get(id)?.join(', ') ?? 'no list'}`);
    expect(notOnce).toEqual([]);
    expect([...declaredIn.keys()].filter((id) => !DEFECT_IDS.includes(id))).toEqual([]);
  });

  it('is the table of the README, exactly: the defects in one table, the variants in another', () => {
    const readme = readFileSync(path.join(SIMULATOR_DIR, 'README.md'), 'utf8');
    expect(readme.slice(readme.indexOf(DEFECTS_START), readme.indexOf(DEFECTS_END) + DEFECTS_END.length)).toBe(renderDefectTable());
    expect(readme.slice(readme.indexOf(VARIANTS_START), readme.indexOf(VARIANTS_END) + VARIANTS_END.length)).toBe(renderVariantTable());
    expect(renderDefectTable()).not.toMatch(new RegExp(VARIANT_CATALOGUE.map((v) => `\`${v.id.replace(/\./g, '\\.')}\``).join('|')));
  });

  it('splits into defects and variants: every entry is one or the other, and each variant cites the spec sentence leaving its choice open', () => {
    expect(DEFECTS_ONLY.length + VARIANT_CATALOGUE.length).toBe(DEFECT_CATALOGUE.length);
    expect(VARIANT_CATALOGUE.length).toBeGreaterThanOrEqual(25);
    // "spec N.N" then the quoted words (spec 9.3's additive rule, 3.3's "not shown", 8.5's expiry...).
    expect(VARIANT_CATALOGUE.filter((v) => !/^spec \d+(\.\d+)?\b.*"[^"]{8,}"/.test(v.spec ?? '')).map((v) => v.id)).toEqual([]);
    expect(DEFECTS_ONLY.filter((d) => d.spec !== undefined).map((d) => d.id)).toEqual([]);
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
    await expect(startSimulatorProcess({ SIM_DEFECTS: 'limits.rate-limit-off,no.such-defect', SIM_DB: path.join(dir, 'store.mdb') })).rejects.toThrow(
      /exited with 1[\s\S]*SIM_DEFECTS: unknown defect id\(s\): no\.such-defect/,
    );
  }, 60_000);

  it('lists the catalogue and the active defects at GET /_sim/defects', async () => {
    sandbox = await sandboxWith(['webhooks.bad-signature', 'limits.rate-limit-off']);
    const res = await sandbox.admin('GET', '/_sim/defects');
    expect(res.status).toBe(200);
    expect(res.body.catalogue).toEqual(DEFECT_CATALOGUE.map(describeEntry));
    // Variants are listed beside the defects, with their kind and spec citation.
    const variant = res.body.catalogue.find((entry: { id: string }) => entry.id === 'jobs.list-oldest-first');
    expect(variant).toMatchObject({ kind: 'variant', spec: expect.stringMatching(/^spec 4\.1/) });
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

  it('switches a variant like a defect, at start and at run time, beside defects', async () => {
    expect(loadConfig([], { SIM_DEFECTS: 'idempotency.expires-after-1h,limits.rate-limit-off' }).defects).toEqual(['idempotency.expires-after-1h', 'limits.rate-limit-off']);
    sandbox = await sandboxWith(['idempotency.expires-after-1h']);
    expect((await sandbox.admin('GET', '/_sim/status')).body.idempotencyKeyTtlSeconds).toBe(3600);
    const both = await sandbox.admin('PUT', '/_sim/defects', { active: ['limits.rate-limit-off', 'auth.token-lifetime-1800'] });
    expect([both.status, both.body.active]).toEqual([200, ['limits.rate-limit-off', 'auth.token-lifetime-1800'].sort((a, b) => DEFECT_IDS.indexOf(a) - DEFECT_IDS.indexOf(b))]);
    expect((await sandbox.admin('GET', '/_sim/status')).body.idempotencyKeyTtlSeconds).toBe(86_400);
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
