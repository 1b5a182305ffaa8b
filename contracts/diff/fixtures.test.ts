// Every rule of the change gate has a fixture: fixtures/contract-changes/<rule id>/ with base.yaml and
// head.yaml (a minimal pair differing only by the change the rule detects) and expected.yaml
// ({ rule, severity, date?, also? }). The pair must fire the rule with its severity and nothing else except
// the rules in `also`; each side compared with itself must yield nothing.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isObject, readYamlFile } from '../lib/bundle.js';
import { diffContracts, RULES } from './diff.js';
import { loadDiffInput, REPO_ROOT } from './load.js';
import { SEVERITIES, type Severity } from './types.js';

const FIXTURES = path.join(REPO_ROOT, 'fixtures', 'contract-changes');
const folders = existsSync(FIXTURES) ? readdirSync(FIXTURES, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort() : [];

interface Expected {
  rule: string;
  severity: Severity;
  date?: string;
  also: string[];
}

function readExpected(folder: string): Expected {
  const raw = readYamlFile(path.join(FIXTURES, folder, 'expected.yaml'));
  if (!isObject(raw) || typeof raw.rule !== 'string' || !SEVERITIES.includes(raw.severity as Severity)) throw new Error(`${folder}/expected.yaml needs { rule, severity }`);
  const rawDate = raw.date as unknown; // YAML may read an unquoted date as a string or (YAML 1.1 timestamps) a Date
  const date = rawDate === undefined ? undefined : rawDate instanceof Date ? rawDate.toISOString() : String(rawDate);
  const also = Array.isArray(raw.also) ? raw.also.map(String) : [];
  return { rule: raw.rule, severity: raw.severity as Severity, date: date && /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : date, also };
}

describe('the rule catalogue', () => {
  const ids = RULES.map((rule) => rule.id);
  it('has at least 60 rules with unique kebab-case ids, each described with a one-line example', () => {
    expect(RULES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z0-9]+)+$/);
      expect(SEVERITIES).toContain(rule.severity);
      expect(rule.detects.trim().length, rule.id).toBeGreaterThan(10);
      for (const side of [rule.example.before, rule.example.after]) expect(side.includes('\n'), `${rule.id} example is one line`).toBe(false);
    }
  });
  it('has a fixture folder for every rule, and every fixture folder names a rule', () => {
    expect(ids.filter((id) => !folders.includes(id)), 'rules without a fixture').toEqual([]);
    expect(folders.filter((folder) => !ids.includes(folder)), 'fixture folders naming no rule').toEqual([]);
  });
});

describe.each(folders)('fixture %s', (folder) => {
  const dir = path.join(FIXTURES, folder);
  const load = (side: string) => loadDiffInput(path.join(dir, `${side}.yaml`)).doc;
  const expected = readExpected(folder);
  const options = { date: expected.date ? new Date(`${expected.date}T00:00:00Z`) : new Date('2026-01-01T00:00:00Z') };

  it('fires its rule with its severity and nothing unexpected', () => {
    expect(expected.rule).toBe(folder);
    const rule = RULES.find((candidate) => candidate.id === folder);
    expect(rule?.severity, 'expected.yaml severity matches the rule').toBe(expected.severity);
    const result = diffContracts(load('base'), load('head'), { base: `${folder}/base.yaml`, head: `${folder}/head.yaml` }, options);
    const fired = result.changes.filter((change) => change.rule === folder);
    expect(fired.length, `${folder} fires; got ${JSON.stringify(result.changes.map((c) => c.rule))}`).toBeGreaterThan(0);
    for (const change of fired) expect(change.severity).toBe(expected.severity);
    const unexpected = result.changes.filter((change) => change.rule !== folder && !expected.also.includes(change.rule));
    expect(expected.also.filter((id) => !RULES.some((candidate) => candidate.id === id)), 'ids in also name rules').toEqual([]);
    expect(unexpected.map((change) => `${change.rule} ${change.operation} ${change.location}: ${change.message}`)).toEqual([]);
  });

  it('yields nothing comparing each side with itself', () => {
    for (const side of ['base', 'head']) {
      expect(diffContracts(load(side), load(side), undefined, options).changes.map((change) => `${side}: ${change.rule} ${change.operation} ${change.location}`)).toEqual([]);
    }
  });
});
