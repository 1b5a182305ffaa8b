// The release-notes guard (spec 9.5) and the CI gate built on it: within a version nothing breaks unless the
// guard of contracts/RELEASE-NOTES.md names it. The gate runs here against this repository (HEAD~1 against
// the working tree) and, to prove it can fail, against a throwaway repository with a breaking change.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, CONTRACTS_DIR } from '../lib/bundle.js';
import { checkGuard, describeGate, entryNames, guardEntries, main, readGuard, runGate, type GateOutcome } from './release-check.js';
import type { Change, DiffResult } from './types.js';

const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function sink() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), get text() { return text; } };
}

const change = (rule: string, operation: string, location = '', severity: Change['severity'] = 'breaking'): Change => ({ rule, severity, operation, location, message: `${rule} at ${operation}` });
const result = (changes: Change[]): Pick<DiffResult, 'changes'> => ({ changes });

const SIGNUP = change('operation-removed', 'POST /api/public/signup/sessions', 'operation');
const JOB = change('response-property-removed', 'GET /api/jobs/{id}', 'response 200 .result');
const notes = (guard: string) => `# Release notes\n\n## Summary\n\nSomething.\n\n## Breaking-change guard\n\n${guard}\n\n## Appendix\n\n- operation-removed: POST /api/public/signup/sessions (outside the guard, does not count)\n`;

describe('the breaking-change guard', () => {
  it('reads the section up to the next heading, without the HTML comments', async () => {
    const guard = readGuard(notes('<!-- - operation-removed: POST /api/public/signup/sessions (an example) -->\n- a: b\n  continued\n* c\n1. d'));
    expect(guard.found).toBe(true);
    expect(guard.entries).toEqual(['a: b continued', 'c', 'd']);
    expect(readGuard('# Notes\n\n## Breaking-change guard\n\nNone.\n').saysNone).toBe(true);
    expect(readGuard('# Notes\n').found).toBe(false);
  });

  it('fails with breaking changes when the section is missing', async () => {
    const check = checkGuard(result([SIGNUP]), '# Release notes\n\n## Summary\n\nNothing.\n');
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual(['1 breaking change and the notes have no "## Breaking-change guard" section']);
  });

  it('fails with breaking changes when the section is empty (comments only)', async () => {
    const check = checkGuard(result([SIGNUP]), notes('<!-- fill me -->'));
    expect(check.problems).toEqual(['1 breaking change and the guard section is empty']);
  });

  it('fails with breaking changes when the section says None.', async () => {
    expect(checkGuard(result([SIGNUP, JOB]), notes('None.')).problems).toEqual(['2 breaking changes but the guard says None.']);
  });

  it('fails when a breaking change is not named (rule id and operation both needed)', async () => {
    const check = checkGuard(result([SIGNUP, JOB]), notes('- operation-removed: POST /api/public/signup/sessions — reason: 4.7 — migration: use v1.2.0\n- response-property-removed: GET /api/jobs — wrong operation'));
    expect(check.ok).toBe(false);
    expect(check.unnamed).toEqual([JOB]);
    expect(check.problems).toEqual(['1 of 2 breaking changes not named in the guard']);
  });

  it('passes when every breaking change is named, whatever the warnings and info', async () => {
    const check = checkGuard(
      result([SIGNUP, JOB, change('operation-added', 'POST /api/compliance/check', 'operation', 'info')]),
      notes('- operation-removed: `POST /api/public/signup/sessions` — reason ... migration ...\n- response-property-removed: GET /api/jobs/{id} (response 200 .result) — reason ...'),
    );
    expect(check).toMatchObject({ ok: true, unnamed: [], problems: [] });
  });

  it('passes when nothing is breaking, noting a guard that is missing or empty', async () => {
    expect(checkGuard(result([change('operation-added', 'GET /x', 'operation', 'info')]), notes('None.'))).toMatchObject({ ok: true, notes: [] });
    expect(checkGuard(result([]), '# Notes\n')).toMatchObject({ ok: true, notes: ['the notes have no "## Breaking-change guard" section (it should say None.)'] });
  });

  it('matches the rule id as a whole word', async () => {
    expect(entryNames('operation-removed: GET /x', change('operation-removed', 'GET /x'))).toBe(true);
    expect(entryNames('webhook-operation-removed: GET /x', change('operation-removed', 'GET /x'))).toBe(false);
    expect(entryNames('operation-removed-later: GET /x', change('operation-removed', 'GET /x'))).toBe(false);
    expect(entryNames('operation-removed:   GET  /x', change('operation-removed', 'GET /x'))).toBe(true);
  });

  it('suggests one line per rule and operation', async () => {
    expect(guardEntries([JOB, { ...JOB, location: 'response 200 .error' }, SIGNUP])).toEqual([
      '- response-property-removed: GET /api/jobs/{id} (response 200 .result, response 200 .error) — reason: ... — migration: ...',
      '- operation-removed: POST /api/public/signup/sessions (operation) — reason: ... — migration: ...',
    ]);
  });

  it('contracts/RELEASE-NOTES.md is the template: every section, and a guard saying None. between releases', async () => {
    const template = readFileSync(path.join(CONTRACTS_DIR, 'RELEASE-NOTES.md'), 'utf8');
    for (const section of ['Release', 'Summary', 'Added', 'Changed', 'Deprecated', 'Removed', 'Breaking-change guard']) expect(template).toMatch(new RegExp(`^## ${section}$`, 'm'));
    for (const field of ['Version', 'Date', 'Sunset', 'Replacement', 'Migration']) expect(template).toContain(field);
    // The guard is filled only by the commit that makes a breaking change (the change under review, which the
    // gate below holds to it); once that change is in (HEAD~1), the next commit puts it back to None.
    const underReview = (await runGate()).some((outcome) => (outcome.check?.breaking.length ?? 0) > 0);
    const guard = readGuard(template);
    if (underReview) expect(guard).toMatchObject({ found: true, saysNone: false });
    else expect(guard).toMatchObject({ found: true, saysNone: true, entries: [] }); // the example lines sit in a comment
  });
});

// ---------------------------------------------------------------------------------------------------------

const DOC = (paths: string) => `openapi: 3.1.0
info: { title: t, version: 1.0.0 }
paths:
  /a:
    get:
      operationId: getA
      responses: { '200': { description: ok } }
${paths}`;
const SIGNUP_PATH = `  /api/public/signup/sessions:
    post:
      operationId: createSignupSession
      responses: { '201': { description: created } }
`;

describe('npm run contract:release-check', () => {
  const dir = tempDir('release-check-');
  writeFileSync(path.join(dir, 'base.yaml'), DOC(SIGNUP_PATH));
  writeFileSync(path.join(dir, 'head.yaml'), DOC(''));
  const run = async (guard: string | undefined, args: string[] = ['base.yaml', 'head.yaml']) => {
    const file = path.join(dir, `notes-${Math.random().toString(36).slice(2)}.md`);
    writeFileSync(file, guard === undefined ? '# Release notes\n\n## Summary\n\nx\n' : notes(guard));
    const stdout = sink();
    const stderr = sink();
    const code = await main([...args, '--notes', file, '--date', '2026-03-01'], { cwd: dir, stdout, stderr });
    return { code, out: stdout.text, err: stderr.text };
  };

  it('fails when the guard is missing, empty or says None., and prints the lines to add', async () => {
    for (const guard of [undefined, '', '<!-- todo -->', 'None.']) {
      const { code, out } = await run(guard);
      expect(code, String(guard)).toBe(1);
      expect(out).toContain('FAIL: 1 breaking change');
      expect(out).toContain('- operation-removed: POST /api/public/signup/sessions (operation) — reason: ... — migration: ...');
    }
  });

  it('fails when the guard names another change only', async () => {
    const { code, out } = await run('- operation-removed: GET /a — reason x — migration y');
    expect(code).toBe(1);
    expect(out).toContain('FAIL: 1 of 1 breaking change not named in the guard');
    expect(out).toContain('note: guard entry names no breaking change of this comparison: operation-removed: GET /a');
  });

  it('passes when every breaking change is named', async () => {
    const { code, out } = await run('- operation-removed: POST /api/public/signup/sessions — reason: signup is archived — migration: use v1.2.0');
    expect(code).toBe(0);
    expect(out).toContain('PASS: every breaking change (1) is named in the guard');
  });

  it('passes when nothing is breaking', async () => {
    const { code, out } = await run('None.', ['head.yaml', 'base.yaml']);
    expect(code).toBe(0);
    expect(out).toContain('PASS: no breaking change');
  });

  it('answers usage errors with exit code 2', async () => {
    expect((await run('None.', ['base.yaml'])).code).toBe(2);
    expect((await run('None.', ['base.yaml', 'missing.yaml'])).code).toBe(2);
    const stderr = sink();
    expect(await main(['base.yaml', 'head.yaml', '--notes', 'nowhere.md'], { cwd: dir, stdout: sink(), stderr })).toBe(2);
    expect(stderr.text).toContain('release notes nowhere.md not found');
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('CI gate: no unannounced breaking change within a version (HEAD~1 against the working tree)', () => {
  let outcomes: GateOutcome[] | undefined;
  for (const version of CONTRACT_VERSIONS) {
    it(`contracts/${version}`, async (context) => {
      outcomes ??= await runGate();
      const outcome = outcomes.find((candidate) => candidate.version === version)!;
      if (outcome.status === 'skipped') context.skip(`gate not run for ${version}: ${outcome.reason}`);
      expect(outcome.status, describeGate([outcome])).toBe('passed');
    });
  }
});

function git(cwd: string, ...args: string[]) {
  return execFileSync('git', ['-c', 'user.name=gate test', '-c', 'user.email=gate@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The release notes with their guard put back to `None.` (its instructions comment kept). */
function asTemplate(notesText: string): string {
  const heading = notesText.indexOf('## Breaking-change guard');
  const commentEnd = notesText.indexOf('-->', heading) + 3;
  return `${notesText.slice(0, commentEnd)}\n\nNone.\n`;
}

/** A throwaway repository holding a copy of the contracts (components, versions, release notes). */
function contractsRepo(versions: readonly string[] = CONTRACT_VERSIONS): string {
  const dir = tempDir('contract-gate-');
  git(dir, 'init', '-q');
  for (const part of ['components', ...versions]) cpSync(path.join(CONTRACTS_DIR, part), path.join(dir, 'contracts', part), { recursive: true });
  // The template as it stands between releases (this repository's copy may name a change under review).
  writeFileSync(path.join(dir, 'contracts', 'RELEASE-NOTES.md'), asTemplate(readFileSync(path.join(CONTRACTS_DIR, 'RELEASE-NOTES.md'), 'utf8')));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'contracts');
  return dir;
}

const removeComplianceCheck = (dir: string) => {
  const root = path.join(dir, 'contracts', 'v1.3.0', 'openapi.yaml');
  const text = readFileSync(root, 'utf8');
  const cut = text.replace(/\n {2}\/api\/compliance\/check:\n {4}\$ref: [^\n]+/, '');
  expect(cut).not.toBe(text);
  writeFileSync(root, cut);
};

const HAS_GIT = spawnSync('git', ['--version']).status === 0;

describe.skipIf(!HAS_GIT)('the CI gate itself (throwaway git repositories)', () => {
  let repo = '';
  beforeAll(() => {
    repo = contractsRepo();
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'second commit');
  });

  it('passes an unchanged tree', async () => {
    expect((await runGate({ cwd: repo, date: new Date('2026-03-01T00:00:00Z') })).map((o) => o.status)).toEqual(['passed', 'passed', 'passed']);
  });

  it('fails on a breaking change within a version the guard does not name, and passes once it is named', async () => {
    removeComplianceCheck(repo);
    const outcomes = await runGate({ cwd: repo, date: new Date('2026-03-01T00:00:00Z') });
    expect(outcomes.map((o) => `${o.version} ${o.status}`)).toEqual(['v1.3.0 failed', 'v1.2.0 passed', 'v1.1.0 passed']);
    const failed = outcomes[0]!;
    expect(failed.reason).toContain('but the guard says None.');
    expect(failed.check!.unnamed.map((c) => `${c.rule} ${c.operation}`)).toContain('operation-removed POST /api/compliance/check');
    expect(describeGate(outcomes)).toContain('an unannounced breaking change within a version');

    const stdout = sink();
    expect(await main(['--gate', '--date', '2026-03-01'], { cwd: repo, stdout, stderr: sink() })).toBe(1);
    expect(stdout.text).toContain('FAILED v1.3.0');

    const notesFile = path.join(repo, 'contracts', 'RELEASE-NOTES.md');
    const announced = readFileSync(notesFile, 'utf8').replace(/\nNone\.\n$/, '\n' + guardEntries(failed.check!.breaking).join('\n') + '\n');
    writeFileSync(notesFile, announced);
    expect((await runGate({ cwd: repo, date: new Date('2026-03-01T00:00:00Z') })).map((o) => o.status)).toEqual(['passed', 'passed', 'passed']);
    expect(await main(['--gate', '--date', '2026-03-01'], { cwd: repo, stdout: sink(), stderr: sink() })).toBe(0);
  });

  it('refuses a working tree whose contract is not one (a dangling $ref): exit 2 naming the pointer, nothing compared', async () => {
    const other = contractsRepo(['v1.3.0']);
    git(other, 'commit', '-q', '--allow-empty', '-m', 'second commit');
    const root = path.join(other, 'contracts', 'v1.3.0', 'openapi.yaml');
    const text = readFileSync(root, 'utf8');
    const broken = text.replace(/\n {2}\/api\/compliance\/check:\n {4}\$ref: [^\n]+/, '\n  /api/compliance/check:\n    $ref: "#/components/pathItems/NoSuchPath"');
    expect(broken).not.toBe(text);
    writeFileSync(root, broken);
    const [outcome] = await runGate({ cwd: other, versions: ['v1.3.0'], date: new Date('2026-03-01T00:00:00Z') });
    expect(outcome).toMatchObject({ status: 'failed', notAContract: true });
    expect(outcome!.result).toBeUndefined();
    expect(outcome!.reason).toContain('HEAD contracts/v1.3.0/openapi.yaml is not a valid OpenAPI contract');
    expect(outcome!.reason).toContain('at #/paths/~1api~1compliance~1check: $ref "#/components/pathItems/NoSuchPath" points to nothing');
    const stdout = sink();
    expect(await main(['--gate', '--date', '2026-03-01'], { cwd: other, stdout, stderr: sink() })).toBe(2);
    expect(stdout.text).toContain('FAILED v1.3.0');
  });

  it('fails when a committed change breaks a version (HEAD~1 against HEAD, clean tree)', async () => {
    const other = contractsRepo(['v1.3.0']);
    removeComplianceCheck(other);
    git(other, 'commit', '-qam', 'drop the compliance check');
    const [outcome] = await runGate({ cwd: other, versions: ['v1.3.0'], date: new Date('2026-03-01T00:00:00Z') });
    expect(outcome!.status).toBe('failed');
  });

  it('skips, saying why, when HEAD~1 or the version at HEAD~1 does not exist', async () => {
    const first = contractsRepo(['v1.3.0']);
    expect(await runGate({ cwd: first, versions: ['v1.3.0'] })).toEqual([{ version: 'v1.3.0', status: 'skipped', reason: 'revision HEAD~1 does not exist (a shallow clone or the first commit)' }]);
    mkdirSync(path.join(first, 'contracts', 'v1.2.0'));
    cpSync(path.join(CONTRACTS_DIR, 'v1.2.0', 'openapi.yaml'), path.join(first, 'contracts', 'v1.2.0', 'openapi.yaml'));
    git(first, 'add', '-A');
    git(first, 'commit', '-qm', 'add v1.2.0');
    const outcomes = await runGate({ cwd: first, versions: ['v1.3.0', 'v1.2.0'] });
    expect(outcomes.map((o) => o.status)).toEqual(['passed', 'skipped']);
    expect(outcomes[1]!.reason).toBe("contracts/v1.2.0/openapi.yaml does not exist at HEAD~1 (the version's first commit)");
    expect((await runGate({ cwd: tempDir('not-git-') }))[0]).toMatchObject({ status: 'skipped', reason: expect.stringContaining('is not in a git work tree') });
  });
});
