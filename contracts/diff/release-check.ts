// Spec 9.5: release notes use a template whose breaking-change guard section must be filled before merge.
// `npm run contract:release-check -- BASE HEAD [--notes FILE] [--date YYYY-MM-DD]` runs the diff and fails
// (exit 1) when a breaking change is not named in the notes' `## Breaking-change guard` section: a section
// that is missing, empty, says `None.`, or lacks a line naming the change's rule id and operation.
// `npm run contract:release-check -- --gate [--rev REV] [--notes FILE]` is the CI gate: for every version,
// REV (default HEAD~1) against the working tree, where a breaking change the guard does not name is "an
// unannounced breaking change within a version". Exit codes: 0 passed, 1 failed, 2 usage error or a side
// that is not a valid OpenAPI contract (refused before any comparison, naming the JSON pointer and why).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONTRACT_VERSIONS } from '../lib/bundle.js';
import { runAsyncCli } from '../lib/entry.js';
import { loadContract, parseDate, UsageError, type CliIo } from './cli.js';
import { diffContracts } from './diff.js';
import { REPO_ROOT } from './load.js';
import { countsLine, renderText } from './report.js';
import type { Change, DiffResult } from './types.js';

export const GUARD_HEADING = 'Breaking-change guard';
export const DEFAULT_NOTES = 'contracts/RELEASE-NOTES.md';

export interface GuardSection {
  /** The notes have a `## Breaking-change guard` heading. */
  found: boolean;
  /** The section's text with HTML comments (the template's instructions) removed, trimmed. */
  text: string;
  /** Its list items (`- ...`, `* ...`, `1. ...`), continuation lines joined. */
  entries: string[];
  /** The section says exactly `None.`. */
  saysNone: boolean;
}

/** Reads the guard section: from its `##` heading to the next heading of level 1 or 2. */
export function readGuard(markdown: string): GuardSection {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const heading = new RegExp(`^##\\s+${GUARD_HEADING}\\s*#*\\s*$`, 'i');
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return { found: false, text: '', entries: [], saysNone: false };
  let end = lines.findIndex((line, index) => index > start && /^#{1,2}\s/.test(line));
  if (end < 0) end = lines.length;
  const text = lines
    .slice(start + 1, end)
    .join('\n')
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .trim();
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    const item = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) entries.push(item[1]!.trim());
    else if (entries.length && line.trim() && /^\s/.test(line)) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return { found: true, text, entries, saysNone: text === 'None.' };
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Whether a guard entry names a change: its rule id as a whole word and its operation text. */
export function entryNames(entry: string, change: Pick<Change, 'rule' | 'operation'>): boolean {
  const escaped = change.rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (!new RegExp(`(^|[^a-z0-9-])${escaped}($|[^a-z0-9-])`).test(entry)) return false;
  return collapse(entry).includes(collapse(change.operation));
}

/** Why a breaking change is made and how clients move on, for its guard line. */
export interface GuardReason {
  reason: string;
  migration: string;
}

/** The guard line to write for a change (reason and migration left for the author unless given). */
export function guardEntry(change: Change, why: GuardReason = { reason: '...', migration: '...' }): string {
  return `- ${change.rule}: ${change.operation}${change.location ? ` (${change.location})` : ''} — reason: ${why.reason} — migration: ${why.migration}`;
}

export interface GuardCheck {
  ok: boolean;
  breaking: Change[];
  /** Breaking changes no guard entry names. */
  unnamed: Change[];
  /** Why the check failed, one line each. */
  problems: string[];
  /** Remarks that do not fail the check (a missing guard with nothing breaking, an entry naming nothing). */
  notes: string[];
}

export function checkGuard(result: Pick<DiffResult, 'changes'>, markdown: string | undefined): GuardCheck {
  const breaking = result.changes.filter((change) => change.severity === 'breaking');
  const guard = readGuard(markdown ?? '');
  const problems: string[] = [];
  const notes: string[] = [];
  let unnamed: Change[] = [];
  if (!breaking.length) {
    if (markdown === undefined) notes.push('no release notes given');
    else if (!guard.found) notes.push(`the notes have no "## ${GUARD_HEADING}" section (it should say None.)`);
    else if (!guard.text) notes.push('the guard section is empty (it should say None.)');
  } else {
    unnamed = breaking.filter((change) => !guard.entries.some((entry) => entryNames(entry, change)));
    const count = `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'}`;
    if (markdown === undefined) problems.push(`${count} and no release notes`);
    else if (!guard.found) problems.push(`${count} and the notes have no "## ${GUARD_HEADING}" section`);
    else if (!guard.text) problems.push(`${count} and the guard section is empty`);
    else if (guard.saysNone) problems.push(`${count} but the guard says None.`);
    else if (unnamed.length) problems.push(`${unnamed.length} of ${count} not named in the guard`);
  }
  if (guard.found && !guard.saysNone) {
    for (const entry of guard.entries) {
      if (!breaking.some((change) => entryNames(entry, change))) notes.push(`guard entry names no breaking change of this comparison: ${entry}`);
    }
  }
  return { ok: problems.length === 0, breaking, unnamed, problems, notes };
}

/** The guard lines for changes, one per rule and operation (the granularity the guard is matched at). */
export function guardEntries(changes: Change[], why?: (change: Change) => GuardReason): string[] {
  const seen = new Map<string, Change[]>();
  for (const change of changes) {
    const key = `${change.rule}\u0000${change.operation}`;
    seen.set(key, [...(seen.get(key) ?? []), change]);
  }
  return [...seen.values()].map((group) => guardEntry({ ...group[0]!, location: [...new Set(group.map((c) => c.location).filter(Boolean))].join(', ') }, why?.(group[0]!)));
}

export function describeCheck(check: GuardCheck): string {
  const lines: string[] = [];
  for (const problem of check.problems) lines.push(`FAIL: ${problem}`);
  if (check.problems.length && check.unnamed.length) {
    lines.push('', `Add to the "## ${GUARD_HEADING}" section of the release notes (with the reason and the migration):`, ...guardEntries(check.unnamed));
  }
  for (const note of check.notes) lines.push(`note: ${note}`);
  if (check.ok) lines.push(check.breaking.length ? `PASS: every breaking change (${check.breaking.length}) is named in the guard` : 'PASS: no breaking change');
  return lines.join('\n') + '\n';
}

// ------------------------------------------------------------------------------------------- CI gate

export interface GateOutcome {
  version: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped, or what failed. */
  reason?: string;
  result?: DiffResult;
  check?: GuardCheck;
  /** A side was not a contract (validate.ts): nothing was compared, and the gate exits 2, not 1. */
  notAContract?: true;
}

export interface GateOptions {
  /** A folder inside the git repository (default: this repository). */
  cwd?: string;
  /** The revision the working tree is compared with (default HEAD~1). */
  rev?: string;
  versions?: readonly string[];
  /** The release notes whose guard announces breaking changes (relative to the repository top). */
  notes?: string;
  date?: Date;
}

function git(cwd: string, ...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Within a version nothing may break unannounced: for each version, `REV:contracts/<v>/openapi.yaml` against
 * the working tree, judged by the release notes' guard. A version is skipped (with the reason) when REV does
 * not exist (a shallow clone, the first commit) or did not have that version yet.
 */
export async function runGate(options: GateOptions = {}): Promise<GateOutcome[]> {
  const cwd = options.cwd ?? REPO_ROOT;
  const rev = options.rev ?? 'HEAD~1';
  const top = git(cwd, 'rev-parse', '--show-toplevel');
  const versions = options.versions ?? CONTRACT_VERSIONS;
  if (!top) return versions.map((version) => ({ version, status: 'skipped', reason: `${cwd} is not in a git work tree` }));
  if (!git(top, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`)) {
    return versions.map((version) => ({ version, status: 'skipped', reason: `revision ${rev} does not exist (a shallow clone or the first commit)` }));
  }
  const notesFile = path.resolve(top, options.notes ?? DEFAULT_NOTES);
  const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8') : undefined;
  const outcomes: GateOutcome[] = [];
  for (const version of versions) outcomes.push(await gateVersion(version));
  return outcomes;

  async function gateVersion(version: string): Promise<GateOutcome> {
    const file = `contracts/${version}/openapi.yaml`;
    if (git(top!, 'cat-file', '-e', `${rev}:${file}`) === undefined) return { version, status: 'skipped', reason: `${file} does not exist at ${rev} (the version's first commit)` };
    if (!existsSync(path.join(top!, file))) return { version, status: 'failed', reason: `${file} exists at ${rev} but not in the working tree: a published version was removed` };
    // Not a contract on either side: the version fails saying where, before any comparison.
    let base, head;
    try {
      base = await loadContract('BASE', `${rev}:${file}`, top!);
      head = await loadContract('HEAD', file, top!);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return { version, status: 'failed', reason: error.message, notAContract: true };
    }
    const result = diffContracts(base.doc, head.doc, { base: base.label, head: head.label }, { date: options.date });
    const check = checkGuard(result, notes);
    return { version, status: check.ok ? 'passed' : 'failed', reason: check.problems.join('; ') || undefined, result, check };
  }
}

export function describeGate(outcomes: GateOutcome[], notes = DEFAULT_NOTES): string {
  const lines: string[] = [];
  for (const outcome of outcomes) {
    const counts = outcome.result ? ` (${countsLine(outcome.result)})` : '';
    lines.push(`${outcome.status.toUpperCase()} ${outcome.version}${counts}${outcome.reason ? `: ${outcome.reason}` : ''}`);
    if (outcome.status === 'failed' && outcome.check?.unnamed.length) {
      lines.push(`  an unannounced breaking change within a version; name it in the guard of ${notes} or undo it:`, ...guardEntries(outcome.check.unnamed).map((line) => `  ${line}`));
    }
  }
  return lines.join('\n') + '\n';
}

// ----------------------------------------------------------------------------------------------- CLI

export const USAGE = `Usage: npm run contract:release-check -- BASE HEAD [--notes FILE] [--date YYYY-MM-DD]
       npm run contract:release-check -- --gate [--rev REV] [--notes FILE] [--date YYYY-MM-DD]

Checks that every breaking change between BASE and HEAD is named in the "## ${GUARD_HEADING}" section
of the release notes (default ${DEFAULT_NOTES}): one line per change with its rule id and operation, e.g.
  - operation-removed: POST /api/public/signup/sessions — reason ... migration ...
or the literal None. when there is no breaking change. BASE and HEAD are as for contract:diff.

--gate compares REV (default HEAD~1) with the working tree for every contract version and fails on a
breaking change the guard does not name (an unannounced breaking change within a version); a version is
skipped when REV or its file does not exist.

Exit codes: 0 passed, 1 a breaking change is not named in the guard, 2 usage error or a side that is
            not a valid OpenAPI contract (a $ref pointing to nothing, a schema violation), named by pointer.
`;

export async function main(argv: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: { notes: { type: 'string' }, date: { type: 'string' }, gate: { type: 'boolean' }, rev: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      stdout.write(USAGE);
      return 0;
    }
    const date = values.date === undefined ? io.now?.() : parseDate(values.date);
    if (values.gate) {
      if (positionals.length) throw new UsageError('--gate takes no BASE and HEAD');
      const outcomes = await runGate({ cwd, rev: values.rev, notes: values.notes, date });
      stdout.write(describeGate(outcomes, values.notes ?? DEFAULT_NOTES));
      if (outcomes.some((outcome) => outcome.notAContract)) return 2;
      return outcomes.some((outcome) => outcome.status === 'failed') ? 1 : 0;
    }
    if (values.rev) throw new UsageError('--rev goes with --gate');
    if (positionals.length !== 2) throw new UsageError(`expected BASE and HEAD, got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`);
    const notesFile = path.resolve(cwd, values.notes ?? path.join(REPO_ROOT, DEFAULT_NOTES));
    if (!existsSync(notesFile)) throw new UsageError(`release notes ${values.notes ?? DEFAULT_NOTES} not found`);
    const base = await loadContract('BASE', positionals[0]!, cwd);
    const head = await loadContract('HEAD', positionals[1]!, cwd);
    const result = diffContracts(base.doc, head.doc, { base: base.label, head: head.label }, { date });
    const check = checkGuard(result, readFileSync(notesFile, 'utf8'));
    stdout.write(renderText(result, { severities: ['breaking'] }));
    stdout.write(describeCheck(check));
    return check.ok ? 0 : 1;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`release-check: ${error.message}\n\n${USAGE}`);
    return 2;
  }
}

runAsyncCli(import.meta.url, 'release-check', (argv) => main(argv));
