// The mutation machinery (not the mutation set's run, which takes half an hour: `npm run conform:mutate`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUTATIONS } from './mutations.js';
import { contractOf, specRules } from '../../conformance/spec-rules/index.js';
import { applyMutation, checksOf, MutationError, mutatedText, selectMutations, validateMutations, type Mutation } from './mutation.js';
import { NOT_BREAKABLE, validateNotBreakable } from './not-breakable.js';
import { areaRows, coverage, ruleRows, sandboxScore, score, type MutationRecord } from './report.js';
import { expectedMs, splitChecks } from './cli.js';
import { runBaseline, runMutant, type RunSettings } from './run-mutant.js';
import { copyTree, REPO_ROOT, type TreeCopy } from './tree.js';

const mutation = (over: Partial<Mutation> = {}): Mutation => ({
  id: 'auth.example',
  family: 'auth',
  file: 'simulator/example.ts',
  find: 'a === b',
  replace: 'a !== b',
  visible: 'spec 5: an example',
  rules: ['5.4.scope.ship-upload'],
  ...over,
});

describe('a mutation applied to a file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mutate-unit-'));
    mkdirSync(path.join(dir, 'simulator'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('changes exactly the snippet and puts the file back when restored', () => {
    const original = 'const x = 1;\nif (a === b) go();\nconst y = 2;\n';
    writeFileSync(path.join(dir, 'simulator/example.ts'), original);
    const restore = applyMutation(dir, mutation());
    expect(readFileSync(path.join(dir, 'simulator/example.ts'), 'utf8')).toBe('const x = 1;\nif (a !== b) go();\nconst y = 2;\n');
    restore();
    expect(readFileSync(path.join(dir, 'simulator/example.ts'), 'utf8')).toBe(original);
  });

  it('refuses a snippet that is not in the file, or is there twice', () => {
    expect(() => mutatedText('nothing here', mutation())).toThrow(MutationError);
    expect(() => mutatedText('a === b; a === b', mutation())).toThrow(/occurs 2 times/);
  });

  it('keeps $ patterns of the replacement literal', () => {
    expect(mutatedText('x = a === b', mutation({ replace: '`$&${y}`' }))).toBe('x = `$&${y}`');
  });

  it("refuses files outside the simulator's sources and files that do not exist", () => {
    expect(() => applyMutation(dir, mutation({ file: 'conformance/checks/auth.ts' }))).toThrow(/only the simulator's sources/);
    expect(() => applyMutation(dir, mutation({ file: 'contracts/components/schemas/uploads.yaml' }))).toThrow(/only the simulator's sources/);
    expect(() => applyMutation(dir, mutation({ file: 'simulator/missing.ts' }))).toThrow(/no file/);
  });
});

describe('the mutation set', () => {
  it('fits the current simulator sources: unique ids, known families, each snippet exactly once', () => {
    expect(validateMutations(MUTATIONS, REPO_ROOT)).toEqual([]);
  });

  it('says for each mutation why a client sees it', () => {
    expect(MUTATIONS.filter((m) => !/spec \d/.test(m.visible)).map((m) => m.id)).toEqual([]);
  });

  it('names for each mutation the inventory rules it breaks, or says it is sandbox-defined', () => {
    expect(MUTATIONS.filter((m) => !m.rules.length && !m.sandboxDefined).map((m) => m.id)).toEqual([]);
    expect(MUTATIONS.filter((m) => !checksOf(m).length).map((m) => m.id)).toEqual([]);
  });

  it('refuses rule ids the inventory does not have, rules no check holds, and a mutation naming neither rules nor sandboxDefined', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mutate-rules-'));
    try {
      mkdirSync(path.join(dir, 'simulator'));
      writeFileSync(path.join(dir, 'simulator/example.ts'), 'if (a === b) go();\n');
      expect(validateMutations([mutation()], dir)).toEqual([]);
      expect(validateMutations([mutation({ rules: ['5.4.no-such-rule'] })], dir)).toEqual(['auth.example: unknown rule id 5.4.no-such-rule (not in conformance/spec-rules)']);
      const unheld = specRules.find((r) => r.id === '5.4.scopes.not-enforced-mostly')!;
      expect(validateMutations([mutation({ rules: [unheld.id] })], dir)[0]).toMatch(/not held by any check/);
      expect(validateMutations([mutation({ rules: [] })], dir)[0]).toMatch(/names no rule/);
      expect(validateMutations([mutation({ rules: ['3.5.signup.created-pending'] })], dir)[0]).toMatch(/v1.2.0 suite/);
      expect(validateMutations([mutation({ rules: [], sandboxDefined: { why: 'the sandbox says so', checks: ['auth.scope-denied'] } })], dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives a mutant the union of its rules' checks", () => {
    const checks = checksOf(mutation({ rules: ['5.4.scope.ship-upload', '7.scope-denied', '4.1.token.missing-key'] }));
    expect(checks).toEqual(['auth.missing-api-key', 'auth.scope-denied', 'operations.exchangeIntegrationToken.rejects-invalid-input']);
  });

  it('selects by id, family or rule id and refuses an --only that matches nothing', () => {
    expect(selectMutations(MUTATIONS, ['webhooks']).every((m) => m.family === 'webhooks')).toBe(true);
    expect(selectMutations(MUTATIONS, ['auth.scope-check-needs-two-missing']).map((m) => m.id)).toEqual(['auth.scope-check-needs-two-missing']);
    expect(() => selectMutations(MUTATIONS, ['no-such-family'])).toThrow(MutationError);
    expect(selectMutations(MUTATIONS, ['5.4.scope.ship-upload']).map((m) => m.id)).toEqual(['auth.scope-check-needs-two-missing', 'auth.scope-denied-without-provided']);
  });
});

describe('the score', () => {
  const entry = (id: string, outcome: 'killed' | 'survived' | 'timeout' | 'startup' | undefined, over: Partial<MutationRecord['mutants'][number]> = {}): MutationRecord['mutants'][number] => ({
    id,
    family: 'auth',
    file: 'f',
    visible: 'v',
    rules: ['5.4.scope.ship-upload'],
    ...(outcome ? { result: { id, outcome, killedBy: outcome === 'killed' ? ['auth.scope-denied'] : [], seconds: 1 } } : {}),
    ...over,
  });
  const record = (mutants: MutationRecord['mutants']): MutationRecord => ({
    schemaVersion: 2,
    startedAt: '',
    mode: 'rule-keyed',
    settings: { seed: 1, runs: 1, timeoutMs: 1, requestTimeoutMs: 1 },
    baseline: { failed: [], passed: 1, skipped: 0, seconds: 1 },
    mutants,
  });

  it('is killed / (killed + survived), with timeouts, start-up failures and equivalent mutants beside it', () => {
    const r = record([
      entry('a.1', 'killed'),
      entry('a.2', 'killed'),
      entry('a.3', 'killed'),
      entry('a.4', 'survived'),
      entry('a.5', 'timeout'),
      entry('a.6', 'startup'),
      entry('a.7', undefined),
      entry('a.8', 'survived', { survives: { kind: 'equivalent', why: 'unreachable' } }),
    ]);
    expect(score(r)).toEqual({ killed: 3, survived: 1, equivalent: 1, timeout: 1, startup: 1, pending: 1, percent: 75 });
  });

  it('leaves sandbox-defined mutants out of the rule score and scores them apart', () => {
    const r = record([entry('a.1', 'killed'), entry('a.2', 'survived', { rules: [], sandboxDefined: { why: 'w', checks: ['auth.scope-denied'] } })]);
    expect(score(r).percent).toBe(100);
    expect(sandboxScore(r)).toMatchObject({ killed: 0, survived: 1, percent: 0 });
  });

  it("reports by rule whether a mutant was killed by the rule's own checks, and by area", () => {
    const r = record([entry('a.1', 'killed', { rules: ['5.4.scope.ship-upload', '4.1.token.missing-key'] }), entry('a.2', 'survived', { rules: ['4.1.token.missing-key'] })]);
    const rows = ruleRows(r);
    expect(rows.map((row) => [row.id, row.verdict])).toEqual([
      ['4.1.token.missing-key', 'survived'],
      ['5.4.scope.ship-upload', 'killed'],
    ]);
    expect(rows[0].mutations).toEqual([
      { id: 'a.1', outcome: 'killed', byOwnChecks: false },
      { id: 'a.2', outcome: 'survived', byOwnChecks: false },
    ]);
    expect(rows[1].mutations).toEqual([{ id: 'a.1', outcome: 'killed', byOwnChecks: true }]);
    expect(areaRows(r).map((a) => [a.section, a.mutants, a.score.percent])).toEqual([
      ['4.1', 2, 50],
      ['5.4', 1, 100],
    ]);
  });

  it('counts held rules with and without a mutation, apart from the reviewed not-breakable ones', () => {
    const held = specRules.filter((rule) => 'checks' in rule && contractOf(rule) === 'v1.3.0');
    const c = coverage([{ rules: [held[0].id] }], { [held[1].id]: 'why' });
    expect(c).toMatchObject({ held: held.length, breakable: held.length - 1, withMutation: 1 });
    expect(c.without).toHaveLength(held.length - 2);
    expect(c.notBreakable).toEqual([{ id: held[1].id, why: 'why' }]);
  });

  it('refuses a not-breakable entry a mutation names, or that is not a held rule', () => {
    expect(validateNotBreakable({ '5.4.scope.ship-upload': 'no' }, [{ id: 'm', rules: ['5.4.scope.ship-upload'] }])).toEqual(['not-breakable: 5.4.scope.ship-upload is named by m: a mutation breaks it']);
    expect(validateNotBreakable({ '5.4.scopes.not-enforced-mostly': 'no' }, [])[0]).toMatch(/not held/);
    expect(validateNotBreakable(NOT_BREAKABLE, MUTATIONS)).toEqual([]);
  });
});

describe('the baseline split over the tree copies', () => {
  const checks = ['jobs.lifecycle-model', 'ship.finding-model', 'auth.scope-denied', 'auth.token-exchange', 'pagination.defaults', 'trade.feed-lifecycle-model', 'no.such-check'];

  it('gives every check to exactly one group', () => {
    const groups = splitChecks(checks, 2, 15);
    expect(groups).toHaveLength(2);
    expect(groups.flat().sort()).toEqual([...checks].sort());
  });

  it('balances the groups by the checks\' expected time: the two longest checks land apart', () => {
    const [a, b] = splitChecks(checks, 2, 15);
    expect(a.includes('jobs.lifecycle-model')).not.toBe(b.includes('jobs.lifecycle-model'));
    expect(a.includes('jobs.lifecycle-model')).not.toBe(a.includes('ship.finding-model'));
    const heavier = Math.max(expectedMs(a, 15), expectedMs(b, 15));
    expect(heavier).toBeLessThan(expectedMs(checks, 15));
  });

  it('makes no more groups than checks, and counts a check the budget does not know as 5 s', () => {
    expect(splitChecks(['auth.scope-denied'], 2, 15)).toEqual([['auth.scope-denied']]);
    expect(expectedMs(['no.such-check'], 15)).toBe(5_000);
  });
});

describe('a targeted run against a tree copy', () => {
  const settings: RunSettings = { seed: 20261121, runs: 5, timeoutMs: 120_000, requestTimeoutMs: 15_000, checks: ['auth.scope-denied'] };
  let tree: TreeCopy;
  beforeAll(() => {
    tree = copyTree(REPO_ROOT, 'mutate-unit');
  });
  afterAll(() => tree?.remove());

  it('passes the check unmutated, fails it with the mutation, and leaves the copy as it was', async () => {
    const baseline = await runBaseline(tree.dir, settings);
    expect(baseline.failed).toEqual([]);
    expect(baseline.passed).toBe(1);
    const known = MUTATIONS.find((m) => m.id === 'auth.scope-check-needs-two-missing')!;
    const before = readFileSync(path.join(tree.dir, known.file), 'utf8');
    const result = await runMutant(tree.dir, known, settings, baseline);
    expect(result.outcome).toBe('killed');
    expect(result.killedBy).toEqual(['auth.scope-denied']);
    expect(readFileSync(path.join(tree.dir, known.file), 'utf8')).toBe(before);
  }, 150_000);
});
