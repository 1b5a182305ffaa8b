// The change gate's command line: `npm run contract:diff -- BASE HEAD [options]` (or `tfas-contract-diff`).
// Compares two contract documents and prints or writes a report. Exit codes: 0 no change at or above
// --fail-on, 1 at least one, 2 usage error (bad option, or BASE/HEAD that cannot be loaded), 3 a crash.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runAsyncCli } from '../lib/entry.js';
import { diffContracts } from './diff.js';
import { loadDiffInput, type DiffInput } from './load.js';
import { countsLine, renderReport, renderText, REPORT_FORMATS, type ReportFormat } from './report.js';
import type { DiffResult } from './types.js';
import { contractProblems, describeProblems } from './validate.js';

export const EXIT = { ok: 0, changes: 1, usage: 2 } as const;

export const FAIL_ON = ['breaking', 'warning', 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout?: OutputStream;
  stderr?: OutputStream;
  /** Where relative BASE, HEAD and --out resolve (default: the process's working directory). */
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** "Today" when --date is not given. */
  now?: () => Date;
}

export const USAGE = `Usage: npm run contract:diff -- BASE HEAD [options]
       tfas-contract-diff BASE HEAD [options]

Classifies every change between two OpenAPI contract documents as breaking, warning or info (spec 9).
BASE and HEAD are each a contract root file (bundled on the fly), a version folder (its openapi.yaml), a
single-file bundle (YAML or JSON), or REV:path, read from git at that revision
(e.g. origin/main:contracts/v1.3.0/openapi.yaml).

Options:
  --date YYYY-MM-DD                  the day deprecation sunsets are judged on (default: today, UTC)
  --fail-on breaking|warning|none    exit 1 when a change at or above this severity is found (default: breaking)
  --format text|markdown|json|junit  report format (default: text)
  --out FILE                         write the report to FILE; the text report still goes to standard output
  -h, --help                         this text

Exit codes: 0 nothing at or above --fail-on, 1 changes at or above --fail-on, 2 usage error or an input
            that cannot be loaded or is not a valid OpenAPI contract (a $ref pointing to nothing, a
            schema violation: each named by its JSON pointer), 3 the comparison itself failed (a bug).
`;

export class UsageError extends Error {}

/** A strict calendar date (`2026-03-01`), as midnight UTC. */
export function parseDate(text: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = new Date(`${text}T00:00:00Z`);
  if (!match || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw new UsageError(`--date ${text} is not a date (YYYY-MM-DD)`);
  return date;
}

/** Whether a result has a change at or above the --fail-on threshold. */
export function exceeds(result: DiffResult, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  if (failOn === 'warning') return result.counts.breaking + result.counts.warning > 0;
  return result.counts.breaking > 0;
}

function choice<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got ${value})`);
  return value as T;
}

/** Loads BASE or HEAD, turning a load failure into a usage error that names the argument. */
export function loadSide(name: string, spec: string, cwd: string): DiffInput {
  try {
    return loadDiffInput(spec, cwd);
  } catch (error) {
    throw new UsageError(`cannot load ${name} ${spec}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * Loads BASE or HEAD and refuses it unless it is a contract (validate.ts): compared as it is, a dangling
 * `$ref` reads as "any value" and invents breaking changes. Both sides are checked before any comparison.
 */
export async function loadContract(name: string, spec: string, cwd: string): Promise<DiffInput> {
  const side = loadSide(name, spec, cwd);
  const problems = await contractProblems(side.doc);
  if (problems.length) throw new UsageError(`${name} ${spec} is not a valid OpenAPI contract (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${describeProblems(problems)}`);
  return side;
}

export interface DiffSettings {
  base: string;
  head: string;
  date?: Date;
  failOn: FailOn;
  format: ReportFormat;
  out?: string;
}

export function parseCli(argv: string[]): DiffSettings | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        date: { type: 'string' },
        'fail-on': { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 2) throw new UsageError(`expected BASE and HEAD, got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`);
  return {
    base: positionals[0]!,
    head: positionals[1]!,
    date: values.date === undefined ? undefined : parseDate(values.date),
    failOn: choice('fail-on', values['fail-on'], FAIL_ON, 'breaking'),
    format: choice('format', values.format, REPORT_FORMATS, 'text'),
    out: values.out,
  };
}

export async function main(argv: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  try {
    const settings = parseCli(argv);
    if (settings === 'help') {
      stdout.write(USAGE);
      return EXIT.ok;
    }
    const base = await loadContract('BASE', settings.base, cwd);
    const head = await loadContract('HEAD', settings.head, cwd);
    const result = diffContracts(base.doc, head.doc, { base: base.label, head: head.label }, { date: settings.date ?? io.now?.() });
    const color = Boolean(stdout.isTTY) && !env.NO_COLOR;
    if (settings.out) {
      const target = path.resolve(cwd, settings.out);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, renderReport(result, settings.format));
      stdout.write(renderText(result, { color }));
      stdout.write(`wrote ${settings.format} report to ${settings.out}\n`);
    } else {
      stdout.write(renderReport(result, settings.format, { color: settings.format === 'text' && color }));
    }
    const failed = exceeds(result, settings.failOn);
    if (failed && settings.format !== 'text' && !settings.out) stderr.write(`contract-diff: ${countsLine(result)} (fail-on ${settings.failOn})\n`);
    return failed ? EXIT.changes : EXIT.ok;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`contract-diff: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
}

runAsyncCli(import.meta.url, 'contract-diff', (argv) => main(argv));
