// The console reporter: the run plan before the first request (plan.ts), progress while the suite runs (a
// progress bar with the time left on a terminal, drawn by cli-progress; one line per check otherwise: CI
// logs, pipes), then a summary that fits one screen whatever the number of failures: the areas with a
// failure, the failures grouped by cause (causes.ts; the ten most frequent, the rest counted), the totals,
// the seed and the replay command. Every check and every failure is in the HTML and JSON reports. Colour
// only on a terminal (and never with NO_COLOR).
import { MultiBar, type SingleBar } from 'cli-progress';
import { coverageLine } from './coverage.js';
import { specRulesLine, specRulesOfRun } from './spec-rules.js';
import type { Check } from '../harness/check.js';
import type { RunPlan } from '../harness/budget.js';
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
  /** Progress as a bar (default: the stream is a terminal). */
  tty?: boolean;
  /** ANSI colours (default: on a terminal without NO_COLOR). */
  color?: boolean;
  /** No progress and no area lines: failures, totals, seed and replay only. */
  quiet?: boolean;
  /** The run plan: each check's share of the expected time weighs the bar and its time left. */
  plan?: Pick<RunPlan, 'weights'>;
  /** The clock (tests). */
  now?: () => number;
}

export interface ConsoleReporter extends Required<RunHooks> {
  /** Removes the progress bar and prints the summary. */
  finish(report: RunReport, context?: RunContext & { reportFiles?: string[] }): void;
  /** Removes the progress bar (the run could not finish). */
  close(): void;
}

type Paint = (code: string, text: string) => string;
const ansi: Paint = (code, text) => `\x1b[${code}m${text}\x1b[0m`;
const plain: Paint = (_code, text) => text;
const VERDICT_COLOUR: Record<Verdict, string> = { passed: '32', failed: '31', skipped: '33', 'not run': '35' };

/** The width the summary cuts its lines to when the stream does not say (or says less than 60). */
const DEFAULT_WIDTH = 120;
const widthOf = (stream: ConsoleStream) => (stream.columns && stream.columns >= 60 ? stream.columns : DEFAULT_WIDTH) - 1;

export function createConsoleReporter(options: ConsoleReporterOptions): ConsoleReporter {
  const { stream } = options;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const color = options.color ?? (tty && !process.env.NO_COLOR);
  const paint = color ? ansi : plain;
  const quiet = Boolean(options.quiet);
  const now = options.now ?? (() => performance.now());
  const weightOf = (id: string) => options.plan?.weights[id] ?? 1;

  // The bar moves by each check's weight (its expected time), so that the time left is not a count of checks
  // when one check takes a minute and the next a second.
  let bars: MultiBar | undefined;
  let bar: SingleBar | undefined;
  let totalWeight = 0;
  let doneWeight = 0;
  /** Checks ended so far: with the second tenant's lane (runner.ts) they end out of their order. */
  let doneChecks = 0;
  let started = 0;
  let notRunShown = false;

  const timeLeft = (): string => {
    const elapsed = now() - started;
    if (doneWeight <= 0) return '…';
    return formatDuration(Math.max(0, ((totalWeight - doneWeight) * elapsed) / doneWeight));
  };

  const close = () => {
    bars?.stop();
    bars = undefined;
    bar = undefined;
  };

  return {
    onCheckStart(check: Check, index: number, total: number) {
      if (quiet || !tty) return;
      if (!bars) {
        started = now();
        bars = new MultiBar(
          {
            stream: stream as NodeJS.WriteStream,
            format: `{bar} {done}/{checks} checks | {elapsed} | time left {left} | {check}`,
            barsize: 24,
            hideCursor: true,
            clearOnComplete: true,
            linewrap: false,
            forceRedraw: true,
            autopadding: true,
          },
          { barCompleteChar: '█', barIncompleteChar: '░', format: '' },
        );
      }
      if (!bar) {
        totalWeight = 0;
        // The checks of the run are not known here one by one: the plan's weights of the whole selection, or one per check.
        totalWeight = options.plan ? Object.values(options.plan.weights).reduce((sum, weight) => sum + weight, 0) : total;
        bar = bars.create(totalWeight, 0, { done: 0, checks: total, elapsed: '0 ms', left: '…', check: '' });
      }
      bar.update(doneWeight, { done: doneChecks, checks: total, elapsed: formatDuration(now() - started), left: timeLeft(), check: oneLine(check.id, 48) });
      // Drawn now rather than at the next tick of cli-progress's timer: a check may start and end within one.
      bars.update();
    },
    onCheckEnd(result: CheckResult, index: number, total: number) {
      doneChecks++;
      if (quiet) return;
      if (tty) {
        doneWeight += weightOf(result.id);
        bar?.update(doneWeight, { done: doneChecks, elapsed: formatDuration(now() - started), left: timeLeft() });
        // On a terminal, failures and a run's end leave a line above the bar; the rest is the bar.
        if (result.verdict === 'failed') bars?.log(`${paint('31', '✗')} ${result.id} ${paint('2', `(${plural(result.failures.length, 'failure')})`)}\n`);
        bars?.update();
        return;
      }
      if (result.verdict === 'not run') {
        // The run's end: one line for every check left, not one each.
        const left = total - doneChecks + 1;
        if (!notRunShown) stream.write(`[${doneChecks}/${total}] ${oneLine(result.reason ?? 'not run', 160)}: ${left === 1 ? 'the check left is' : `the ${left} checks left are`} not run\n`);
        notRunShown = true;
        return;
      }
      const detail = result.verdict === 'failed' ? ` (${plural(result.failures.length, 'failure')})` : result.verdict === 'skipped' ? `: ${oneLine(result.reason ?? '', 160)}` : '';
      stream.write(`[${doneChecks}/${total}] ${result.id} ${result.verdict}${detail} ${formatDuration(result.durationMs)}\n`);
    },
    finish(report, context = {}) {
      close();
      stream.write(renderConsoleSummary(report, { ...context, color, quiet, width: widthOf(stream) + 1 }));
    },
    close,
  };
}

/** Causes shown by name; the others are counted (the HTML report lists them all). */
export const CAUSES_SHOWN = 10;
/** Areas with a failure (or checks not run) shown one per line; the rest on one line. */
const AREAS_SHOWN = 8;
/** Failed checks named in the replay command before it names none (the ids are in report.json). */
const REPLAY_IDS = 8;
const NOTES_SHOWN = 3;

/**
 * The summary: at most about 36 lines whatever the run (a line per area with a failure up to 8, 10 causes,
 * 3 notes), each bounded line cut to `width`. Only the replay commands are never cut: they are pasted.
 */
export function renderConsoleSummary(report: RunReport, options: RunContext & { color?: boolean; quiet?: boolean; reportFiles?: string[]; width?: number } = {}): string {
  const paint = options.color ? ansi : plain;
  const width = (options.width && options.width >= 60 ? options.width : DEFAULT_WIDTH) - 1;
  const out: string[] = [''];
  if (!options.quiet) out.push(...areaLines(report.results, paint, width), '');

  const failed = report.results.filter((result) => result.verdict === 'failed');
  const html = options.reportFiles?.find((file) => file.endsWith('.html'));
  const json = options.reportFiles?.find((file) => file.endsWith('.json') && !file.endsWith('coverage.json'));
  if (failed.length) {
    // One line per cause (causes.ts): the report files keep every failure with its request and response.
    const causes = groupFailuresByCause(failed);
    const failureCount = causes.reduce((sum, cause) => sum + cause.count, 0);
    const where = options.reportFiles?.length ? 'every failure in full in the reports below' : 'every failure in full in the JSON and HTML reports';
    out.push(paint('1', oneLine(`Failures by cause: ${plural(failureCount, 'failure')} in ${plural(failed.length, 'check')}, ${plural(causes.length, 'cause')} (${where})`, width)));
    for (const cause of causes.slice(0, CAUSES_SHOWN)) out.push(causeLine(cause, paint, width));
    if (causes.length > CAUSES_SHOWN) {
      const rest = causes.slice(CAUSES_SHOWN);
      out.push(paint('2', oneLine(`  … and ${plural(rest.length, 'more cause')} (${plural(rest.reduce((sum, cause) => sum + cause.count, 0), 'failure')}): "Failures by cause" in ${html ?? 'the HTML report'}`, width)));
    }
    const ids = failed.length <= REPLAY_IDS ? failed.map((result) => result.id).join(',') : undefined;
    out.push(`  ${paint('2', ids ? `replay the failed checks: ${report.replay} --only ${ids}` : `replay one failed check: ${report.replay} --only ${failed[0]!.id} (the ${failed.length} failed checks' ids are in ${json ?? 'the JSON report'})`)}`);
    out.push('');
  }
  const skipped = report.results.filter((result) => result.verdict === 'skipped');
  if (skipped.length) out.push(paint('33', oneLine(`${plural(skipped.length, 'check')} skipped (not covered by the verdict): ${reasonsLine(skipped)}`, width)));
  if (report.stopped) out.push(paint('35', oneLine(`${plural(report.stopped.notRun, 'check')} not run: --max-duration reached; a run that did not run every check certifies nothing`, width)));

  const verdict = certified(report) ? paint('32;1', 'CERTIFIED') : paint('31;1', 'NOT CERTIFIED');
  out.push(`${totalsLine(report.totals)} in ${formatDuration(runDurationMs(report))}: ${verdict}`);
  const { target } = report;
  out.push(`target ${target.baseUrl}, contract ${target.contract}, profile ${target.profile}, runs ${target.runs}${options.only?.length ? `, only ${oneLine(options.only.join(','), 60)}` : ''}`);
  const part = shardLine(report, options);
  if (part) out.push(options.shard ? `${part} (merge the shards' reports with --merge)` : part);
  out.push(`seed ${target.seed}; replay: ${runReplay(report, options)}`);
  if (options.coverage) out.push(coverageLine(options.coverage));
  out.push(oneLine(specRulesLine(specRulesOfRun(report).totals), width));
  const notes = report.notes ?? [];
  for (const note of notes.slice(0, NOTES_SHOWN)) out.push(paint('33', oneLine(`note: ${note}`, width)));
  if (notes.length > NOTES_SHOWN) out.push(paint('33', `note: ${notes.length - NOTES_SHOWN} more notes in the reports`));
  if (options.reportFiles?.length) out.push(`reports: ${options.reportFiles.join(', ')}`);
  return out.join('\n') + '\n';
}

/** One line per area with a failed or not-run check (up to AREAS_SHOWN), then one line for the others. */
function areaLines(results: CheckResult[], paint: Paint, width: number): string[] {
  const groups = groupByArea(results);
  const troubled = groups.filter((group) => group.totals.failed || group.totals.notRun);
  const nameWidth = Math.max(4, ...troubled.slice(0, AREAS_SHOWN).map((group) => group.area.length));
  const lines = troubled.slice(0, AREAS_SHOWN).map((group) => {
    const failedIds = group.results.filter((result) => result.verdict === 'failed').map((result) => result.id);
    const colour = group.totals.failed ? VERDICT_COLOUR.failed : VERDICT_COLOUR['not run'];
    const line = `${group.area.padEnd(nameWidth)}  ${totalsLine(group.totals)}${failedIds.length ? `: ${failedIds.join(', ')}` : ''}`;
    const cut = line.length <= width ? line : `${line.slice(0, width - 1)}…`;
    return paint(colour, cut.slice(0, nameWidth)) + cut.slice(nameWidth);
  });
  const rest = groups.filter((group) => !troubled.slice(0, AREAS_SHOWN).includes(group));
  if (rest.length) {
    const label = troubled.length ? 'other areas' : 'areas';
    lines.push(oneLine(`${label}: ${rest.map((group) => `${group.area} ${group.totals.passed}/${group.results.length}`).join(', ')} (passed/checks)`, width));
  }
  return lines;
}

/** The skip reasons, most frequent first: "needs --webhook-url (5), needs --second-api-key (2)". */
function reasonsLine(skipped: CheckResult[]): string {
  const counts = new Map<string, number>();
  for (const result of skipped) counts.set(oneLine(result.reason ?? 'skipped', 80), (counts.get(oneLine(result.reason ?? 'skipped', 80)) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `${reason} (${count})`)
    .join('; ');
}

/** Check ids (and operations) shown on a cause's line before "and N more". */
const IDS_SHOWN = 3;

function causeLine(cause: FailureCause, paint: Paint, width: number): string {
  const status = cause.status !== undefined ? ` (HTTP ${cause.status})` : '';
  const more = (items: string[]) => `${items.slice(0, IDS_SHOWN).join(', ')}${items.length > IDS_SHOWN ? `, +${items.length - IDS_SHOWN}` : ''}`;
  const where = [cause.operations.length > 1 ? `${cause.operations.length} operations` : cause.operations[0], cause.checkIds.length === 1 ? cause.checkIds[0] : `${cause.checkIds.length} checks: ${more(cause.checkIds)}`].filter(Boolean).join('; ');
  const head = `  ${cause.count}× [${cause.rule}] `;
  // The line never wraps: when it would, where it happened gives up to a third of the room, the message the rest.
  let tail = ` — ${where}`;
  const room = Math.max(30, width - head.length - status.length);
  if (cause.message.length + tail.length > room && tail.length > room / 3) tail = ` ${oneLine(`— ${where}`, Math.max(10, Math.floor(room / 3)) - 1)}`;
  const message = oneLine(cause.message, Math.max(10, room - tail.length));
  return `  ${paint('31', `${cause.count}×`)} [${cause.rule}] ${message}${status}${paint('2', tail)}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
