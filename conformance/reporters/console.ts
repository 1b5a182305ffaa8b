// The console reporter: progress while the suite runs (one updating line on a terminal, one line per check
// otherwise), then a table per area, the failures grouped by cause (one line per cause with its count and
// check ids; the JSON and HTML reports keep every failure in full), the totals, the seed and the replay
// command. Colour only on a terminal (and never with NO_COLOR).
import { coverageLine } from './coverage.js';
import type { Check } from '../harness/check.js';
import type { RunHooks } from '../harness/runner.js';
import type { CheckResult, RunReport, Verdict } from '../harness/types.js';
import { groupFailuresByCause, type FailureCause } from './causes.js';
import { formatDuration, groupByArea, oneLine, runDurationMs, runReplay, shardLine, totalsLine, certified, type RunContext } from './format.js';

export interface ConsoleStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ConsoleReporterOptions {
  stream: ConsoleStream;
  /** Progress as one updating line (default: the stream is a terminal). */
  tty?: boolean;
  /** ANSI colours (default: on a terminal without NO_COLOR). */
  color?: boolean;
  /** No progress and no table: failures, totals, seed and replay only. */
  quiet?: boolean;
}

export interface ConsoleReporter extends Required<RunHooks> {
  /** Clears the progress line and prints the summary. */
  finish(report: RunReport, context?: RunContext & { reportFiles?: string[] }): void;
}

type Paint = (code: string, text: string) => string;
const ansi: Paint = (code, text) => `\x1b[${code}m${text}\x1b[0m`;
const plain: Paint = (_code, text) => text;
const VERDICT_COLOUR: Record<Verdict, string> = { passed: '32', failed: '31', skipped: '33' };
const CLEAR_LINE = '\r\x1b[2K';

export function createConsoleReporter(options: ConsoleReporterOptions): ConsoleReporter {
  const { stream } = options;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const color = options.color ?? (tty && !process.env.NO_COLOR);
  const paint = color ? ansi : plain;
  const quiet = Boolean(options.quiet);
  let progressShown = false;

  const clearProgress = () => {
    if (progressShown) stream.write(CLEAR_LINE);
    progressShown = false;
  };

  return {
    onCheckStart(check: Check, index: number, total: number) {
      if (quiet || !tty) return;
      // Some terminals report no width (0): assume 100 columns then.
      const width = (stream.columns && stream.columns >= 40 ? stream.columns : 100) - 1;
      stream.write(CLEAR_LINE + oneLine(`[${index + 1}/${total}] ${check.id} ...`, width));
      progressShown = true;
    },
    onCheckEnd(result: CheckResult, index: number, total: number) {
      if (quiet) return;
      if (tty) {
        // On a terminal, only failures leave a line behind; the rest is the updating progress line.
        if (result.verdict !== 'failed') return;
        clearProgress();
        stream.write(`${paint('31', '✗')} ${result.id} ${paint('2', `(${plural(result.failures.length, 'failure')})`)}\n`);
        return;
      }
      const detail = result.verdict === 'failed' ? ` (${plural(result.failures.length, 'failure')})` : result.verdict === 'skipped' ? `: ${oneLine(result.reason ?? '', 160)}` : '';
      stream.write(`[${index + 1}/${total}] ${result.id} ${result.verdict}${detail} ${formatDuration(result.durationMs)}\n`);
    },
    finish(report, context = {}) {
      clearProgress();
      stream.write(renderConsoleSummary(report, { ...context, color, quiet }));
    },
  };
}

export function renderConsoleSummary(report: RunReport, options: RunContext & { color?: boolean; quiet?: boolean; reportFiles?: string[] } = {}): string {
  const paint = options.color ? ansi : plain;
  const out: string[] = [''];
  if (!options.quiet) out.push(...table(report.results, paint), '');

  const failed = report.results.filter((result) => result.verdict === 'failed');
  if (failed.length) {
    // One line per cause (causes.ts): the reports files keep every failure with its request and response.
    const causes = groupFailuresByCause(failed);
    const failureCount = causes.reduce((sum, cause) => sum + cause.count, 0);
    const where = options.reportFiles?.length ? 'every failure in full in the reports below' : 'every failure in full in the JSON and HTML reports';
    out.push(paint('1', `Failures by cause: ${plural(failureCount, 'failure')} in ${plural(failed.length, 'check')}, ${plural(causes.length, 'cause')} (${where})`));
    for (const cause of causes) out.push(causeLine(cause, paint));
    out.push(`  ${paint('2', `replay the failed checks: ${report.replay} --only ${failed.map((result) => result.id).join(',')}`)}`);
    out.push('');
  }

  const verdict = certified(report) ? paint('32;1', 'CERTIFIED') : paint('31;1', 'NOT CERTIFIED');
  out.push(`${totalsLine(report.totals)} in ${formatDuration(runDurationMs(report))}: ${verdict}`);
  const { target } = report;
  out.push(`target ${target.baseUrl}, contract ${target.contract}, profile ${target.profile}, runs ${target.runs}${options.only?.length ? `, only ${options.only.join(',')}` : ''}`);
  const part = shardLine(report, options);
  if (part) out.push(options.shard ? `${part} (merge the shards' reports with --merge)` : part);
  out.push(`seed ${target.seed}; replay: ${runReplay(report, options)}`);
  if (options.coverage) out.push(coverageLine(options.coverage));
  for (const note of report.notes ?? []) out.push(paint('33', `note: ${note}`));
  if (options.reportFiles?.length) out.push(`reports: ${options.reportFiles.join(', ')}`);
  return out.join('\n') + '\n';
}

function table(results: CheckResult[], paint: Paint): string[] {
  const idWidth = Math.max(5, ...results.map((result) => result.id.length));
  const lines = [paint('2', `  ${'check'.padEnd(idWidth)}  ${'verdict'.padEnd(7)}  ${'duration'.padStart(9)}  failures`)];
  for (const group of groupByArea(results)) {
    lines.push(paint('1', `${group.area} (${totalsLine(group.totals)})`));
    for (const result of group.results) {
      const verdict = paint(VERDICT_COLOUR[result.verdict], result.verdict.padEnd(7));
      const failures = String(result.failures.length).padStart(8);
      const reason = result.verdict === 'skipped' && result.reason ? `  ${paint('2', oneLine(result.reason, 100))}` : '';
      lines.push(`  ${result.id.padEnd(idWidth)}  ${verdict}  ${formatDuration(result.durationMs).padStart(9)}  ${failures}${reason}`);
    }
  }
  return lines;
}

/** Check ids shown on a cause's line before "and N more". */
const IDS_SHOWN = 6;

function causeLine(cause: FailureCause, paint: Paint): string {
  const status = cause.status !== undefined ? ` (HTTP ${cause.status})` : '';
  const shown = cause.checkIds.slice(0, IDS_SHOWN).join(', ');
  const more = cause.checkIds.length > IDS_SHOWN ? `, and ${cause.checkIds.length - IDS_SHOWN} more` : '';
  const checks = cause.checkIds.length === 1 ? shown : `${cause.checkIds.length} checks: ${shown}${more}`;
  return `  ${paint('31', `${cause.count}×`)} [${cause.rule}] ${oneLine(cause.message, 200)}${status} ${paint('2', `— ${checks}`)}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
