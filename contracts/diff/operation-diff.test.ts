// The operation and document rules: their fixtures, a version compared with itself, and v1.2.0 -> v1.3.0.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CONTRACTS_DIR, loadContract, readYamlFile, type OpenApiDocument } from '../lib/bundle.js';
import { diffContracts } from './diff.js';
import { operationRules } from './operation-diff.js';
import type { DiffResult } from './types.js';

// The schema differ is written separately; while it is missing, schemas are not compared (no schema rule).
vi.mock('./schema-diff.js', async (importOriginal) => {
  try {
    return await importOriginal();
  } catch {
    return { schemaRules: [], diffSchema: () => undefined };
  }
});

const FIXTURES = path.resolve(CONTRACTS_DIR, '..', 'fixtures', 'contract-changes');
const SHARED_DEPRECATION_RULES = ['deprecation-added', 'deprecation-incomplete', 'sunset-moved-earlier', 'removal-after-sunset', 'deprecation-withdrawn'];

interface Expected {
  rule: string;
  severity: string;
  date?: string;
  also?: string[];
}

function fixture(rule: string): { base: OpenApiDocument; head: OpenApiDocument; expected: Expected } {
  const dir = path.join(FIXTURES, rule);
  return {
    base: readYamlFile(path.join(dir, 'base.yaml')) as OpenApiDocument,
    head: readYamlFile(path.join(dir, 'head.yaml')) as OpenApiDocument,
    expected: readYamlFile(path.join(dir, 'expected.yaml')) as unknown as Expected,
  };
}

function summarize(result: DiffResult): string {
  const lines = [`${result.base} -> ${result.head}: ${result.counts.breaking} breaking, ${result.counts.warning} warning, ${result.counts.info} info`];
  for (const change of result.changes) lines.push(`  ${change.severity.padEnd(8)} ${change.rule.padEnd(34)} ${change.operation} | ${change.location} | ${change.message}`);
  return lines.join('\n');
}

describe('operation rules', () => {
  it('are at least 30, with unique kebab-case ids and a complete description', () => {
    expect(operationRules.length).toBeGreaterThanOrEqual(30);
    const ids = operationRules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of operationRules) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z0-9]+)+$/);
      expect(rule.detects.length).toBeGreaterThan(10);
      expect(rule.example.before).not.toContain('\n');
      expect(rule.example.after).not.toContain('\n');
    }
  });

  const ruleIds = [...operationRules.map((rule) => rule.id), ...SHARED_DEPRECATION_RULES];
  it.each(ruleIds)('%s has a fixture that fires it alone', (rule) => {
    expect(existsSync(path.join(FIXTURES, rule, 'expected.yaml')), `fixtures/contract-changes/${rule}/`).toBe(true);
    const { base, head, expected } = fixture(rule);
    expect(expected.rule).toBe(rule);
    const options = { date: new Date(`${expected.date ?? '2026-01-01'}T00:00:00Z`) };
    const result = diffContracts(base, head, { base: 'base', head: 'head' }, options);
    const fired = result.changes.filter((change) => change.rule === rule);
    expect(fired.length, summarize(result)).toBeGreaterThan(0);
    for (const change of fired) expect(change.severity).toBe(expected.severity);
    const allowed = new Set([rule, ...(expected.also ?? [])]);
    expect(result.changes.filter((change) => !allowed.has(change.rule)), summarize(result)).toEqual([]);
    expect(diffContracts(base, structuredClone(base), undefined, options).changes).toEqual([]);
    expect(diffContracts(head, structuredClone(head), undefined, options).changes).toEqual([]);
  });

  it('every operation fixture folder belongs to a known rule', () => {
    const known = new Set(ruleIds);
    const mine = readdirSync(FIXTURES).filter((dir) => known.has(dir));
    expect(mine.length).toBe(ruleIds.length);
  });
});

describe('matching and judging', () => {
  const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra }) as unknown as OpenApiDocument;
  const getJob = (name: string, extra: Record<string, unknown> = {}) => ({
    get: { operationId: 'getJob', parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'OK' } }, ...extra },
  });
  const notice = { since: '2026-01-01', sunset: '2026-06-01', replacement: 'GET /api/v2/jobs/{id}', migration: 'Use v2.' };

  it('matches operations by path template with parameter names normalized', () => {
    const result = diffContracts(doc({ '/api/jobs/{id}': getJob('id') }), doc({ '/api/jobs/{jobId}': getJob('jobId') }));
    expect(result.changes).toEqual([]);
  });

  it('judges a removal against the base deprecation and the date', () => {
    const base = doc({ '/api/jobs/{id}': getJob('id', { deprecated: true, 'x-deprecation': notice }), '/api/v2/jobs/{id}': getJob('id') });
    const head = doc({ '/api/v2/jobs/{id}': getJob('id') });
    const early = diffContracts(base, head, undefined, { date: new Date('2026-05-01T00:00:00Z') });
    expect(early.changes.map((c) => c.rule)).toEqual(['operation-removed']);
    expect(early.changes[0].message).toContain('has not passed');
    const late = diffContracts(base, head, undefined, { date: new Date('2026-06-02T00:00:00Z') });
    expect(late.changes.map((c) => c.rule)).toEqual(['removal-after-sunset']);
  });

  it('reads document-level security and reports a lost alternative as breaking', () => {
    const schemes = { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, key: { type: 'apiKey', in: 'header', name: 'x-api-key' }, org: { type: 'apiKey', in: 'header', name: 'x-org-id' } } } };
    const base = doc({ '/api/jobs/{id}': getJob('id', { security: [{ bearer: [] }, { key: [], org: [] }] }) }, schemes);
    const head = doc({ '/api/jobs/{id}': getJob('id') }, { ...schemes, security: [{ bearer: [] }] });
    const result = diffContracts(base, head);
    expect(result.changes.map((c) => `${c.rule} ${c.location}`)).toEqual(['security-requirement-added security key + org']);
  });

  it('pairs a parameter moved to another location instead of reporting a removal and an addition', () => {
    const with_ = (where: string) => doc({ '/api/jobs': { get: { parameters: [{ name: 'tenant', in: where, schema: { type: 'string' } }], responses: { '200': { description: 'OK' } } } } });
    expect(diffContracts(with_('query'), with_('header')).changes.map((c) => c.rule)).toEqual(['parameter-location-changed']);
  });
});

describe('the real contract versions', () => {
  it.each(['v1.3.0', 'v1.2.0', 'v1.1.0'])('%s compared with itself has no change', (version) => {
    const base = loadContract(version);
    const head = loadContract(version);
    const started = performance.now();
    const result = diffContracts(base, head, { base: version, head: version });
    const elapsed = performance.now() - started;
    console.log(`${version} vs ${version}: ${result.changes.length} changes in ${elapsed.toFixed(1)} ms`);
    expect(result.changes).toEqual([]);
    expect(elapsed).toBeLessThan(2000);
  });

  it('v1.1.0 -> v1.2.0: additions only', () => {
    const result = diffContracts(loadContract('v1.1.0'), loadContract('v1.2.0'), { base: 'v1.1.0', head: 'v1.2.0' });
    console.log(summarize(result));
    expect(result.changes.filter((c) => c.rule.startsWith('operation-') && c.rule !== 'operation-added')).toEqual([]);
  });

  it('v1.2.0 -> v1.3.0: signup and ship audit removed (breaking), advanced trade added (info)', () => {
    const base = loadContract('v1.2.0');
    const head = loadContract('v1.3.0');
    const started = performance.now();
    const result = diffContracts(base, head, { base: 'v1.2.0', head: 'v1.3.0' });
    const elapsed = performance.now() - started;
    console.log(`${summarize(result)}\n(${elapsed.toFixed(1)} ms)`);

    const removed = result.changes.filter((c) => c.rule === 'operation-removed').map((c) => c.operation);
    const added = result.changes.filter((c) => c.rule === 'operation-added').map((c) => c.operation);
    expect(result.changes.find((c) => c.rule === 'operation-removed')?.severity).toBe('breaking');
    for (const op of removed) expect(op).toMatch(/^(GET|POST) \/api\/(public\/signup\/|ship\/audit|ship\/shipments\/)/);
    expect(removed).toEqual(expect.arrayContaining(['POST /api/public/signup/sessions', 'GET /api/ship/audit', 'GET /api/ship/shipments/{shipmentId}']));
    expect(removed.filter((op) => op.includes('/signup/')).length).toBe(6); // create, get, verify-email, verify-magic-link, resend, provision
    for (const op of added) expect(op).toMatch(/^(GET|POST) \/api\/(trade\/classify|compliance\/check)/);
    expect(added).toEqual(expect.arrayContaining(['POST /api/trade/classify', 'POST /api/compliance/check']));
    expect(result.changes.find((c) => c.rule === 'operation-added')?.severity).toBe('info');
    expect(result.counts.breaking).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(2000);
    // Landed cost moved in the root document only; it is the same operation.
    expect([...removed, ...added].some((op) => op.includes('landed-cost'))).toBe(false);
  });
});
