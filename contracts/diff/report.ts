// Renders a DiffResult: text for a terminal or a CI log, Markdown for a pull-request comment, JSON for
// machines, JUnit XML for CI test views. Every renderer lists breaking changes first, then warnings, then info.
import { SEVERITIES, type Change, type DiffResult, type Severity } from './types.js';

export const REPORT_FORMATS = ['text', 'markdown', 'json', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Bumped when a field of the JSON report changes meaning or disappears; new fields do not bump it. */
export const JSON_REPORT_SCHEMA_VERSION = 1;

const SEVERITY_TITLE: Record<Severity, string> = { breaking: 'Breaking', warning: 'Warning', info: 'Info' };

function bySeverity(result: DiffResult): Array<{ severity: Severity; changes: Change[] }> {
  return SEVERITIES.map((severity) => ({ severity, changes: result.changes.filter((change) => change.severity === severity) }));
}

/** `2 breaking, 1 warning, 5 info`. */
export function countsLine(result: DiffResult): string {
  const { breaking, warning, info } = result.counts;
  return `${breaking} breaking, ${warning} ${warning === 1 ? 'warning' : 'warnings'}, ${info} info`;
}

/** What a location reads as when a rule gives none (a whole operation added or removed). */
const where = (change: Change) => change.location || '-';

// ---------------------------------------------------------------------------------------------- text

export interface TextOptions {
  /** ANSI colours (the CLI turns them on only on a terminal without NO_COLOR). */
  color?: boolean;
  /** The severities whose changes are listed (default all); the counts always cover every change. */
  severities?: Severity[];
}

const SEVERITY_COLOUR: Record<Severity, string> = { breaking: '31', warning: '33', info: '36' };

/** Severity headings, one line per change (`rule  operation  location  message`, columns aligned), counts. */
export function renderText(result: DiffResult, options: TextOptions = {}): string {
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines = [`Contract changes ${result.base} -> ${result.head} (deprecations judged on ${result.date})`, ''];
  if (!result.changes.length) lines.push('No changes.', '');
  const widths = {
    rule: Math.max(0, ...result.changes.map((c) => c.rule.length)),
    operation: Math.max(0, ...result.changes.map((c) => c.operation.length)),
    location: Math.min(60, Math.max(0, ...result.changes.map((c) => where(c).length))),
  };
  for (const { severity, changes } of bySeverity(result)) {
    if (!changes.length || (options.severities && !options.severities.includes(severity))) continue;
    lines.push(paint(`1;${SEVERITY_COLOUR[severity]}`, `${SEVERITY_TITLE[severity]} (${changes.length})`));
    for (const change of changes) {
      const cells = [paint(SEVERITY_COLOUR[severity], change.rule.padEnd(widths.rule)), change.operation.padEnd(widths.operation), where(change).padEnd(widths.location), flat(change.message)];
      lines.push(`  ${cells.join('  ')}`.trimEnd());
    }
    lines.push('');
  }
  lines.push(paint(result.counts.breaking ? '1;31' : '1', countsLine(result)));
  return lines.join('\n') + '\n';
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

// ------------------------------------------------------------------------------------------ markdown

/** A table cell of prose: one line, pipes and backslashes escaped, no raw HTML; code spans kept. */
function cell(text: string): string {
  return flat(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;') || ' ';
}

/** A table cell as a code span (a table still needs its pipes escaped inside one). */
const code = (text: string) => (flat(text) ? `\`${flat(text).replace(/`/g, "'").replace(/\|/g, '\\|')}\`` : '-');

/** For a pull-request comment: a summary line with the counts, then a table per severity, breaking first. */
export function renderMarkdown(result: DiffResult, options: { title?: string } = {}): string {
  const verdict = result.counts.breaking ? ':x: **Breaking changes.**' : ':white_check_mark: **No breaking change.**';
  const lines = [
    `### ${options.title ?? 'Contract changes'}`,
    '',
    `${verdict} ${countsLine(result)}: ${code(result.base)} → ${code(result.head)} (deprecations judged on ${result.date}).`,
    '',
  ];
  if (!result.changes.length) lines.push('No changes.', '');
  for (const { severity, changes } of bySeverity(result)) {
    if (!changes.length) continue;
    lines.push(`#### ${SEVERITY_TITLE[severity]} (${changes.length})`, '', '| Rule | Operation | Location | Message |', '|---|---|---|---|');
    for (const change of changes) lines.push(`| ${code(change.rule)} | ${code(change.operation)} | ${code(change.location)} | ${cell(change.message)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------- json

type JsonDiffReport = DiffResult & { schemaVersion: number };

function toJsonReport(result: DiffResult): JsonDiffReport {
  return { schemaVersion: JSON_REPORT_SCHEMA_VERSION, ...result };
}

export function renderJson(result: DiffResult): string {
  return JSON.stringify(toJsonReport(result), null, 2) + '\n';
}

// --------------------------------------------------------------------------------------------- junit

/** Drops characters XML 1.0 does not allow (control characters, lone surrogates). */
function xmlSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

const ATTRIBUTE_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };
const attribute = (text: string) => xmlSafe(text).replace(/[&<>"'\n\r\t]/g, (c) => ATTRIBUTE_ENTITIES[c]!);
const text = (value: string) => xmlSafe(value).replace(/[&<>]/g, (c) => ATTRIBUTE_ENTITIES[c]!).replace(/\r/g, '&#13;');

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${attribute(String(value))}"`)
    .join('');
}

/** `GET /api/jobs  query.limit: message`, the detail line of one change. */
function changeLine(change: Change): string {
  return `${change.operation}  ${where(change)}: ${flat(change.message)}`;
}

/** The name of the always-present testcase that passes when nothing is breaking. */
export const NO_BREAKING_CASE = 'no-breaking-changes';

/**
 * One testsuite; one testcase per rule that fired (classname = its severity, name = the rule id): a rule
 * with breaking changes carries one <failure> per change, a warning or info rule lists its changes in
 * <system-out>. When nothing is breaking, a passing testcase `no-breaking-changes` says so.
 */
export function renderJUnit(result: DiffResult): string {
  const rules = new Map<string, Change[]>();
  for (const change of result.changes) rules.set(change.rule, [...(rules.get(change.rule) ?? []), change]);
  const cases: string[] = [];
  let failed = 0;
  for (const [rule, changes] of rules) {
    const severity = changes[0]!.severity;
    const open = `    <testcase${attrs({ classname: `contract-diff.${severity}`, name: rule, time: '0' })}>`;
    if (severity === 'breaking') {
      failed++;
      const failures = changes.map(
        (change) =>
          `      <failure${attrs({ message: `${change.operation} ${where(change)}: ${flat(change.message)}`, type: rule })}>${text(failureBody(change))}</failure>`,
      );
      cases.push([open, ...failures, '    </testcase>'].join('\n'));
    } else {
      cases.push([open, `      <system-out>${text(changes.map((change) => `[${severity}] ${rule}  ${changeLine(change)}`).join('\n'))}</system-out>`, '    </testcase>'].join('\n'));
    }
  }
  if (!result.counts.breaking) cases.push(`    <testcase${attrs({ classname: 'contract-diff', name: NO_BREAKING_CASE, time: '0' })}/>`);
  const name = `contract diff ${result.base} -> ${result.head}`;
  const properties = ['    <properties>', ...Object.entries({ base: result.base, head: result.head, date: result.date, breaking: result.counts.breaking, warning: result.counts.warning, info: result.counts.info }).map(([key, value]) => `      <property${attrs({ name: key, value })}/>`), '    </properties>'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name, tests: cases.length, failures: failed, errors: 0, skipped: 0, time: '0' })}>`,
    `  <testsuite${attrs({ name, tests: cases.length, failures: failed, errors: 0, skipped: 0, time: '0' })}>`,
    ...properties,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function failureBody(change: Change): string {
  const lines = [`${change.operation}`, `location: ${where(change)}`, change.message];
  if (change.before !== undefined) lines.push(`before: ${JSON.stringify(change.before)}`);
  if (change.after !== undefined) lines.push(`after:  ${JSON.stringify(change.after)}`);
  return lines.join('\n');
}

// -------------------------------------------------------------------------------------------- choose

export function renderReport(result: DiffResult, format: ReportFormat, options: TextOptions = {}): string {
  switch (format) {
    case 'text':
      return renderText(result, options);
    case 'markdown':
      return renderMarkdown(result);
    case 'json':
      return renderJson(result);
    case 'junit':
      return renderJUnit(result);
  }
}
