import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { childElements, parseXml, textOf } from '../../conformance/reporters/reports.testing.js';
import { CHANGES_DATE, CHANGES_FILE, compareV12V13, renderChangeRules, renderChanges, RULES_FILE } from '../../scripts/generate-change-docs.js';
import { bundleContract, CONTRACTS_DIR } from '../lib/bundle.js';
import { main } from './cli.js';
import { REPO_ROOT } from './load.js';
import { checkGuard } from './release-check.js';
import { countsLine, JSON_REPORT_SCHEMA_VERSION, NO_BREAKING_CASE, renderJson, renderJUnit, renderMarkdown, renderReport, renderText } from './report.js';
import type { Change, DiffResult } from './types.js';

const HOSTILE = `<script>alert("x&y")</script> | pipe`;

function result(changes: Change[]): DiffResult {
  const counts = { breaking: 0, warning: 0, info: 0 };
  for (const change of changes) counts[change.severity]++;
  return { base: 'contracts/v1.2.0', head: 'contracts/v1.3.0', date: '2026-03-01', changes, counts };
}

const SYNTHETIC = result([
  { rule: 'operation-removed', severity: 'breaking', operation: 'POST /api/public/signup/sessions', location: '', message: 'removed; it was never deprecated' },
  { rule: 'response-property-removed', severity: 'breaking', operation: 'GET /api/jobs/{id}', location: 'response 200 .result', message: `property removed ${HOSTILE}`, before: { type: 'object' } },
  { rule: 'response-property-removed', severity: 'breaking', operation: 'GET /api/jobs', location: 'response 200 .jobs[].result', message: 'property removed' },
  { rule: 'response-enum-value-added', severity: 'warning', operation: 'GET /api/jobs', location: 'response 200 .jobs[].status', message: 'new value "PAUSED"\nsecond line', after: 'PAUSED' },
  { rule: 'operation-added', severity: 'info', operation: 'POST /api/compliance/check', location: '', message: 'new operation' },
  { rule: 'request-property-added', severity: 'info', operation: 'POST /api/trade/landed-cost', location: 'request body application/json .note', message: 'new optional property' },
]);

const EMPTY = result([]);
const NOT_BREAKING = result(SYNTHETIC.changes.filter((change) => change.severity !== 'breaking'));

describe('text report', () => {
  const text = renderText(SYNTHETIC);
  it('groups by severity, breaking first, one aligned line per change, counts at the end', async () => {
    const lines = text.split('\n');
    const headings = lines.filter((line) => /^(Breaking|Warning|Info) \(\d+\)$/.test(line));
    expect(headings).toEqual(['Breaking (3)', 'Warning (1)', 'Info (2)']);
    const removed = lines.find((line) => line.includes('POST /api/public/signup/sessions'))!;
    expect(removed).toMatch(/^ {2}operation-removed +POST \/api\/public\/signup\/sessions +- +removed; it was never deprecated$/);
    // Columns line up: every change line has its operation at the same offset.
    const changeLines = lines.filter((line) => line.startsWith('  '));
    expect(changeLines).toHaveLength(6);
    expect(new Set(changeLines.map((line) => line.search(/ (GET|POST) \//)))).toHaveProperty('size', 1);
    expect(text).toContain('new value "PAUSED" second line'); // one line per change
    expect(lines.filter(Boolean).at(-1)).toBe('3 breaking, 1 warning, 2 info');
  });
  it('has no colour codes unless asked, and colours severities when asked', async () => {
    expect(text).not.toContain('\x1b[');
    expect(renderText(SYNTHETIC, { color: true })).toContain('\x1b[1;31mBreaking (3)\x1b[0m');
  });
  it('says so when nothing changed', async () => {
    expect(renderText(EMPTY)).toContain('No changes.');
    expect(renderText(EMPTY)).toContain('0 breaking, 0 warnings, 0 info');
  });
});

describe('markdown report', () => {
  const markdown = renderMarkdown(SYNTHETIC);
  it('starts with a summary line with the counts, then a table per severity, breaking first', async () => {
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('### Contract changes');
    expect(lines[2]).toBe(':x: **Breaking changes.** 3 breaking, 1 warning, 2 info: `contracts/v1.2.0` → `contracts/v1.3.0` (deprecations judged on 2026-03-01).');
    const headings = lines.filter((line) => line.startsWith('#### '));
    expect(headings).toEqual(['#### Breaking (3)', '#### Warning (1)', '#### Info (2)']);
    expect(lines.filter((line) => line === '| Rule | Operation | Location | Message |')).toHaveLength(3);
    expect(markdown).toContain('| `operation-removed` | `POST /api/public/signup/sessions` | - | removed; it was never deprecated |');
  });
  it('keeps every row one table row: pipes escaped, newlines folded, no raw HTML', async () => {
    const rows = markdown.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(6);
    expect(markdown).not.toContain('<script>');
    expect(markdown).toContain('&lt;script>');
    expect(markdown).toContain('new value "PAUSED" second line');
  });
  it('says when nothing is breaking, and when nothing changed', async () => {
    expect(renderMarkdown(NOT_BREAKING)).toContain(':white_check_mark: **No breaking change.** 0 breaking, 1 warning, 2 info');
    expect(renderMarkdown(NOT_BREAKING)).not.toContain('#### Breaking');
    expect(renderMarkdown(EMPTY)).toContain('No changes.');
  });
});

describe('json report', () => {
  it('is the DiffResult with a schema version', async () => {
    const parsed = JSON.parse(renderJson(SYNTHETIC));
    expect(parsed.schemaVersion).toBe(JSON_REPORT_SCHEMA_VERSION);
    const { schemaVersion, ...rest } = parsed;
    expect(schemaVersion).toBe(1);
    expect(rest).toEqual(SYNTHETIC);
  });
});

describe('junit report', () => {
  const root = parseXml(renderJUnit(SYNTHETIC));
  const suites = childElements(root, 'testsuite');
  const cases = childElements(suites[0]!, 'testcase');
  it('is well-formed: one testsuite, one testcase per rule that fired', async () => {
    expect(root.name).toBe('testsuites');
    expect(suites).toHaveLength(1);
    expect(cases.map((c) => c.attributes.name)).toEqual(['operation-removed', 'response-property-removed', 'response-enum-value-added', 'operation-added', 'request-property-added']);
    expect(suites[0]!.attributes).toMatchObject({ tests: '5', failures: '2', errors: '0', skipped: '0' });
    expect(root.attributes).toMatchObject({ tests: '5', failures: '2' });
  });
  it('has one failure per breaking change, with the change in its message and text, escaped', async () => {
    const failures = childElements(cases[1]!, 'failure');
    expect(failures).toHaveLength(2);
    expect(failures[0]!.attributes.type).toBe('response-property-removed');
    expect(failures[0]!.attributes.message).toBe(`GET /api/jobs/{id} response 200 .result: property removed ${HOSTILE}`);
    expect(textOf(failures[0]!)).toContain('before: {"type":"object"}');
    expect(childElements(cases[0]!, 'failure')).toHaveLength(1);
  });
  it('lists warnings and info in system-out without failing them', async () => {
    expect(childElements(cases[2]!, 'failure')).toHaveLength(0);
    expect(textOf(childElements(cases[2]!, 'system-out')[0]!)).toBe('[warning] response-enum-value-added  GET /api/jobs  response 200 .jobs[].status: new value "PAUSED" second line');
    expect(cases[2]!.attributes.classname).toBe('contract-diff.warning');
  });
  it('adds a passing testcase when nothing is breaking (and only then)', async () => {
    expect(cases.some((c) => c.attributes.name === NO_BREAKING_CASE)).toBe(false);
    const calm = childElements(childElements(parseXml(renderJUnit(NOT_BREAKING)), 'testsuite')[0]!, 'testcase');
    expect(calm.at(-1)!.attributes.name).toBe(NO_BREAKING_CASE);
    expect(calm.flatMap((c) => childElements(c, 'failure'))).toHaveLength(0);
    const empty = parseXml(renderJUnit(EMPTY));
    expect(childElements(childElements(empty, 'testsuite')[0]!, 'testcase').map((c) => c.attributes.name)).toEqual([NO_BREAKING_CASE]);
  });
  it('survives control characters in messages', async () => {
    const odd = result([{ rule: 'operation-removed', severity: 'breaking', operation: 'GET /x', location: '', message: 'bell \u0007 and \uD800 lone' }]);
    expect(() => parseXml(renderJUnit(odd))).not.toThrow();
  });
});

describe('renderReport', () => {
  it('picks the renderer by format', async () => {
    expect(renderReport(SYNTHETIC, 'text')).toBe(renderText(SYNTHETIC));
    expect(renderReport(SYNTHETIC, 'markdown')).toBe(renderMarkdown(SYNTHETIC));
    expect(renderReport(SYNTHETIC, 'json')).toBe(renderJson(SYNTHETIC));
    expect(renderReport(SYNTHETIC, 'junit')).toBe(renderJUnit(SYNTHETIC));
    expect(countsLine(SYNTHETIC)).toBe('3 breaking, 1 warning, 2 info');
  });
});

// ------------------------------------------------------------------------------------------------ the CLI

function sink(isTTY = false) {
  let text = '';
  return { isTTY, write: (chunk: string) => (text += chunk), get text() { return text; } };
}

async function run(argv: string[], options: { tty?: boolean; env?: Record<string, string | undefined> } = {}) {
  const stdout = sink(options.tty);
  const stderr = sink();
  const code = await main(argv, { cwd: REPO_ROOT, stdout, stderr, env: options.env ?? {} });
  return { code, out: stdout.text, err: stderr.text };
}

const V12_V13 = ['contracts/v1.2.0', 'contracts/v1.3.0', '--date', CHANGES_DATE];
const WARNING_PAIR = ['fixtures/contract-changes/operation-id-changed/base.yaml', 'fixtures/contract-changes/operation-id-changed/head.yaml'];
const temp = mkdtempSync(path.join(os.tmpdir(), 'contract-diff-cli-'));
/** The v1.3.0 contract as one JSON document (local refs only), to edit. */
const bundleJson = () => JSON.stringify(bundleContract(path.join(CONTRACTS_DIR, 'v1.3.0', 'openapi.yaml')));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('npm run contract:diff', () => {
  it('prints the text report and exits 1 on breaking changes (default --fail-on breaking)', async () => {
    const { code, out, err } = await run(V12_V13);
    expect(code).toBe(1);
    expect(err).toBe('');
    expect(out).toMatch(/^Contract changes contracts\/v1.2.0 -> contracts\/v1.3.0 \(deprecations judged on 2026-11-01\)/);
    expect(out).toMatch(/\n {2}operation-removed +POST \/api\/public\/signup\/sessions +operation +/);
    expect(out.indexOf('Breaking (')).toBeLessThan(out.indexOf('Info ('));
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ breaking, \d+ warnings?, \d+ info$/);
  });

  it('exits 0 with nothing at or above --fail-on', async () => {
    expect((await run([...V12_V13, '--fail-on', 'none'])).code).toBe(0);
    expect((await run(['contracts/v1.3.0', 'contracts/v1.3.0'])).code).toBe(0);
    expect((await run(WARNING_PAIR)).code).toBe(0);
    expect((await run([...WARNING_PAIR, '--fail-on', 'warning'])).code).toBe(1);
    expect((await run([...WARNING_PAIR, '--fail-on', 'breaking'])).code).toBe(0);
  });

  it('writes every format to standard output', async () => {
    const json = JSON.parse((await run([...V12_V13, '--format', 'json'])).out);
    expect(json).toMatchObject({ schemaVersion: 1, base: 'contracts/v1.2.0', head: 'contracts/v1.3.0', date: '2026-11-01' });
    expect(json.counts.breaking).toBe(json.changes.filter((c: { severity: string }) => c.severity === 'breaking').length);
    const junit = parseXml((await run([...V12_V13, '--format', 'junit'])).out);
    expect(childElements(childElements(junit, 'testsuite')[0]!, 'testcase').map((c) => c.attributes.name)).toContain('operation-removed');
    expect((await run([...V12_V13, '--format', 'markdown'])).out).toMatch(/^### Contract changes\n\n:x: \*\*Breaking changes\.\*\*/);
  });

  it('with --out writes the report to the file and the text report to standard output', async () => {
    const file = path.join(temp, 'nested', 'diff.xml');
    const { code, out } = await run([...V12_V13, '--format', 'junit', '--out', file]);
    expect(code).toBe(1);
    expect(() => parseXml(readFileSync(file, 'utf8'))).not.toThrow();
    expect(out).toContain('Breaking (');
    expect(out).toContain(`wrote junit report to ${file}`);
  });

  it('colours only on a terminal without NO_COLOR', async () => {
    expect((await run(V12_V13)).out).not.toContain('\x1b[');
    expect((await run(V12_V13, { tty: true })).out).toContain('\x1b[');
    expect((await run(V12_V13, { tty: true, env: { NO_COLOR: '1' } })).out).not.toContain('\x1b[');
    expect((await run([...V12_V13, '--out', path.join(temp, 'r.txt')], { tty: true })).out).toContain('\x1b['); // the file gets none
    expect(readFileSync(path.join(temp, 'r.txt'), 'utf8')).not.toContain('\x1b[');
  });

  it('answers usage errors with exit code 2 and the usage text', async () => {
    for (const argv of [[], ['contracts/v1.3.0'], ['a', 'b', 'c'], [...V12_V13, '--fail-on', 'error'], [...V12_V13, '--format', 'html'], ['contracts/v1.2.0', 'contracts/v1.3.0', '--date', '2026-02-30'], ['contracts/v1.2.0', 'contracts/v1.3.0', '--date', '1 May'], [...V12_V13, '--colour'], ['contracts/v1.2.0', 'nowhere/openapi.yaml']]) {
      const { code, err } = await run(argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toContain('Usage: npm run contract:diff');
    }
    expect((await run(['contracts/v1.2.0', 'nowhere/openapi.yaml'])).err).toContain('cannot load HEAD nowhere/openapi.yaml');
    expect(await run(['--help'])).toMatchObject({ code: 0, err: '' });
  });

  it('refuses a side whose $ref points to nothing with exit 2, naming where the $ref sits, before comparing', async () => {
    // The issue 30 case: HEAD's response schema is a dangling $ref. Compared, it read as "any value" and
    // came out as two breaking changes (exit 1); it is no contract, whichever side it is on.
    const bundle = path.join(temp, 'v13.json');
    const dangling = path.join(temp, 'dangling.json');
    const doc = JSON.parse(bundleJson());
    writeFileSync(bundle, JSON.stringify(doc));
    doc.paths['/api/jobs/{id}'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/NoSuchSchema' };
    writeFileSync(dangling, JSON.stringify(doc));
    for (const argv of [[bundle, dangling], [dangling, bundle]]) {
      const { code, out, err } = await run(argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(out).toBe(''); // nothing was compared
      expect(err).toContain('is not a valid OpenAPI contract');
      expect(err).toContain('at #/paths/~1api~1jobs~1{id}/get/responses/200/content/application~1json/schema: $ref "#/components/schemas/NoSuchSchema" points to nothing');
    }
    expect((await run([bundle, bundle])).code).toBe(0);
  });

  it('refuses a side that breaks the OpenAPI schema with exit 2, naming the pointer and the reason', async () => {
    const doc = JSON.parse(bundleJson());
    doc.paths['/api/jobs/{id}'].get.responses = 'none';
    const invalid = path.join(temp, 'invalid.json');
    writeFileSync(invalid, JSON.stringify(doc));
    const { code, err } = await run(['contracts/v1.3.0', invalid]);
    expect(code).toBe(2);
    expect(err).toContain(`HEAD ${invalid} is not a valid OpenAPI contract`);
    expect(err).toContain('at #/paths/~1api~1jobs~1{id}/get/responses: must be object');
  });

  it('reads REV:path from git', async (context) => {
    if (spawnSync('git', ['rev-parse', '--verify', 'HEAD'], { cwd: REPO_ROOT }).status !== 0) context.skip('not a git checkout');
    const { code, out } = await run(['HEAD:contracts/v1.3.0/openapi.yaml', 'HEAD:contracts/v1.3.0/openapi.yaml']);
    expect(code).toBe(0);
    expect(out).toContain('No changes.');
  });

  // What it costs is measured by `npm run bench:gate` (a ratio from one run, not a wall-clock bound here).
  it('compares v1.3.0 with itself and finds no change', async () => {
    const { code, out } = await run(['contracts/v1.3.0', 'contracts/v1.3.0']);
    expect(code).toBe(0);
    expect(out).toContain('No changes.');
  });

  it('runs as tfas-contract-diff (bin.js) from another directory, forwarding the exit code', async () => {
    const bin = path.join(REPO_ROOT, 'contracts', 'diff', 'bin.js');
    const child = spawnSync(process.execPath, [bin, path.join(CONTRACTS_DIR, 'v1.2.0'), path.join(CONTRACTS_DIR, 'v1.3.0'), '--format', 'json'], { cwd: temp, encoding: 'utf8' });
    expect(child.status).toBe(1);
    expect(JSON.parse(child.stdout).schemaVersion).toBe(1);
    expect(spawnSync(process.execPath, [bin, '--fail-on', 'x'], { cwd: temp, encoding: 'utf8' }).status).toBe(2);
  });
});

// --------------------------------------------------------------------------------------- generated docs

describe('generated documents (regenerate with npm run contract:docs)', () => {
  it('contracts/CHANGE-RULES.md is current', async () => {
    expect(existsSync(RULES_FILE)).toBe(true);
    expect(readFileSync(RULES_FILE, 'utf8')).toBe(renderChangeRules());
  });

  it('contracts/CHANGES-v1.2.0-v1.3.0.md is current, and does not depend on today\'s date', async () => {
    expect(readFileSync(CHANGES_FILE, 'utf8')).toBe(renderChanges());
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2031-07-04T12:00:00Z'));
      expect(renderChanges(compareV12V13())).toBe(readFileSync(CHANGES_FILE, 'utf8'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('CHANGES-v1.2.0-v1.3.0.md names every breaking change of the comparison in its guard', async () => {
    const { result } = compareV12V13();
    const check = checkGuard(result, readFileSync(CHANGES_FILE, 'utf8'));
    expect(check.breaking.length).toBeGreaterThan(0);
    expect(check).toMatchObject({ ok: true, unnamed: [], notes: [] });
  });
});
