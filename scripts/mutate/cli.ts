// npm run conform:mutate — the conformance suite's mutation score against the simulator (README beside this
// file). Applies each mutation of mutations.ts, one at a time, to a private copy of the tree; starts the
// simulator from the copy; runs against it the checks that hold the spec rules the mutation breaks (the
// rule-keyed run; --whole-suite runs every check instead) in the simulator profile; records killed /
// survived / timeout / killed by start-up; writes reports/mutation/<timestamp>/mutation.json and
// mutation.md (by mutant, by rule, by area, inventory coverage) after every mutant, and exits 1 when the rule
// score is below --min-score.
//
//   npm run conform:mutate -- [--only ID|FAMILY,...] [--concurrency 2] [--whole-suite] [--min-score 90] [--seed N]
//                             [--runs N] [--timeout-s N] [--resume reports/mutation/<ts>] [--list]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isEntryModule } from '../../contracts/lib/entry.js';
import { estimateOf, loadBaseline } from '../../conformance/harness/budget.js';
import { MUTATIONS } from './mutations.js';
import { checksOf, MutationError, selectMutations, validateMutations, type Mutation } from './mutation.js';
import { NOT_BREAKABLE, validateNotBreakable } from './not-breakable.js';
import { coverage, renderMarkdown, renderTable, score, scoreLine, type MutationRecord, type RunMode } from './report.js';
import { killAllRunning, runBaseline, runMutant, stopSuiteWorkers, type BaselineResult, type RunSettings } from './run-mutant.js';
import { copyTree, REPO_ROOT, type TreeCopy } from './tree.js';

export const DEFAULT_SEED = 20261121;

export interface MutateOptions {
  only?: string[];
  concurrency: number;
  mode: RunMode;
  minScore: number;
  settings: RunSettings;
  resume?: string;
  reportDir?: string;
  list: boolean;
}

export function parseMutateArgs(argv: string[]): MutateOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      only: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      'whole-suite': { type: 'boolean', default: false },
      'min-score': { type: 'string', default: '90' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      runs: { type: 'string', default: '15' },
      'timeout-s': { type: 'string', default: '300' },
      resume: { type: 'string' },
      'report-dir': { type: 'string' },
      list: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new MutationError(`--${name} must be an integer >= ${min}, not ${value}`);
    return n;
  };
  return {
    only: values.only?.split(',').map((s) => s.trim()).filter(Boolean),
    concurrency: int('concurrency', values.concurrency, 1),
    mode: values['whole-suite'] ? 'whole-suite' : 'rule-keyed',
    minScore: Number(values['min-score']),
    settings: { seed: int('seed', values.seed, 0), runs: int('runs', values.runs, 1), timeoutMs: int('timeout-s', values['timeout-s'], 10) * 1000, requestTimeoutMs: 15_000 },
    resume: values.resume,
    reportDir: values['report-dir'],
    list: values.list,
  };
}

function writeRecord(dir: string, record: MutationRecord) {
  writeFileSync(path.join(dir, 'mutation.json'), JSON.stringify(record, null, 2) + '\n');
  writeFileSync(path.join(dir, 'mutation.md'), renderMarkdown(record));
}

/** The milliseconds the suite's request budget (conformance/budget/baseline.json) expects the checks to take
 *  at `runs`; a check it does not know counts as 5 s. Only an order: the longest mutants start first. */
export function expectedMs(checks: readonly string[], runs: number): number {
  const budget = loadBaseline();
  return checks.reduce((sum, id) => sum + (estimateOf(budget, id, runs)?.ms ?? 5_000), 0);
}

/** Splits checks into `parts` groups of about equal expected time (longest first, each to the lightest group). */
export function splitChecks(checks: readonly string[], parts: number, runs: number): string[][] {
  const groups = Array.from({ length: Math.max(1, Math.min(parts, checks.length)) }, () => ({ ms: 0, checks: [] as string[] }));
  const weighed = checks.map((id) => ({ id, ms: expectedMs([id], runs) })).sort((a, b) => b.ms - a.ms || a.id.localeCompare(b.id));
  for (const { id, ms } of weighed) {
    const lightest = groups.reduce((a, b) => (b.ms < a.ms ? b : a));
    lightest.ms += ms;
    lightest.checks.push(id);
  }
  return groups.map((g) => g.checks.sort());
}

/** The baseline of a rule-keyed run, its checks split over the tree copies and run side by side (each
 *  against its own fresh simulator), merged as one result; a whole-suite baseline runs in one tree. */
async function splitBaseline(treeDirs: string[], settings: RunSettings): Promise<BaselineResult> {
  if (!settings.checks || treeDirs.length < 2) return runBaseline(treeDirs[0], settings);
  const parts = splitChecks(settings.checks, treeDirs.length, settings.runs);
  const results = await Promise.all(parts.map((checks, i) => runBaseline(treeDirs[i], { ...settings, checks })));
  return {
    failed: results.flatMap((r) => r.failed).sort(),
    reasons: Object.assign({}, ...results.map((r) => r.reasons ?? {})),
    passed: results.reduce((n, r) => n + r.passed, 0),
    skipped: results.reduce((n, r) => n + r.skipped, 0),
    seconds: Math.max(...results.map((r) => r.seconds)),
  };
}

export interface MutateOutcome {
  record: MutationRecord;
  reportDir: string;
  exitCode: number;
}

/** Runs the selected mutations; `log` receives the progress lines and the final table. */
export async function mutate(options: MutateOptions, mutations: readonly Mutation[] = MUTATIONS, log: (line: string) => void = console.log): Promise<MutateOutcome> {
  const problems = [...validateMutations(mutations, REPO_ROOT), ...validateNotBreakable(NOT_BREAKABLE, mutations)];
  if (problems.length) throw new MutationError(`the mutation set does not fit the sources:\n  ${problems.join('\n  ')}`);
  const selected = selectMutations(mutations, options.only);

  const reportDir = path.resolve(REPO_ROOT, options.resume ?? options.reportDir ?? path.join('reports', 'mutation', new Date().toISOString().replace(/[:.]/g, '-')));
  mkdirSync(reportDir, { recursive: true });
  const previous: MutationRecord | undefined = options.resume && existsSync(path.join(reportDir, 'mutation.json')) ? JSON.parse(readFileSync(path.join(reportDir, 'mutation.json'), 'utf8')) : undefined;
  if (options.resume && !previous) throw new MutationError(`--resume: no mutation.json in ${reportDir}`);
  if (previous && (previous.schemaVersion !== 2 || previous.mode !== options.mode)) throw new MutationError(`--resume: ${reportDir} is a ${previous.mode ?? 'whole-suite (schema 1)'} run; resume it with the same mode`);
  // Rule-keyed: each mutant runs the checks holding its rules; the baseline runs their union once.
  const checksFor = (m: Mutation) => (options.mode === 'rule-keyed' ? checksOf(m) : options.settings.checks);
  const settings: MutateOptions['settings'] = options.mode === 'rule-keyed' ? { ...options.settings, checks: [...new Set(selected.flatMap((m) => checksOf(m)))].sort() } : options.settings;

  const trees: TreeCopy[] = [];
  const cleanup = () => {
    stopSuiteWorkers();
    trees.forEach((t) => t.remove());
  };
  const interrupted = (signal: NodeJS.Signals) => {
    killAllRunning();
    cleanup();
    log(`interrupted (${signal}): resume with --resume ${path.relative(REPO_ROOT, reportDir)}`);
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    for (let i = 0; i < options.concurrency; i++) trees.push(copyTree(REPO_ROOT));
    // A previous baseline serves when it ran every check this run's mutants will run.
    const covered = !settings.checks || (previous?.settings.checks !== undefined ? settings.checks.every((c) => previous.settings.checks!.includes(c)) : !!previous);
    let baseline = covered ? previous?.baseline : undefined;
    if (!baseline) {
      log(`baseline: the unmutated simulator against ${settings.checks ? `the ${settings.checks.length} checks of the selected mutants` : 'the whole suite'} (seed ${settings.seed}, ${settings.runs} runs) ...`);
      baseline = await splitBaseline(trees.map((t) => t.dir), settings);
      log(`baseline: ${baseline.passed} passed, ${baseline.failed.length} failed, ${baseline.skipped} skipped in ${baseline.seconds} s`);
      if (baseline.failed.length) log(`baseline: these checks fail without any mutation and do not count as kills: ${baseline.failed.join(', ')}`);
    }
    const done = new Map((previous?.mutants ?? []).filter((m) => m.result).map((m) => [m.id, m.result!]));
    const record: MutationRecord = {
      schemaVersion: 2,
      startedAt: previous?.startedAt ?? new Date().toISOString(),
      mode: options.mode,
      settings: covered && previous ? { ...settings, checks: previous.settings.checks } : settings,
      baseline,
      mutants: selected.map((m) => ({
        id: m.id,
        family: m.family,
        file: m.file,
        visible: m.visible,
        rules: m.rules,
        ...(m.sandboxDefined ? { sandboxDefined: m.sandboxDefined } : {}),
        ...(options.mode === 'rule-keyed' ? { checks: checksOf(m) } : {}),
        ...(m.survives ? { survives: m.survives } : {}),
        ...(done.has(m.id) ? { result: done.get(m.id) } : {}),
      })),
      coverage: coverage(mutations, NOT_BREAKABLE),
    };
    writeRecord(reportDir, record);
    // Longest first (by the checks' expected time), so that the run does not end waiting on one long mutant.
    const cost = new Map(selected.map((m) => [m.id, expectedMs(checksFor(m) ?? [], options.settings.runs)]));
    const queue = selected.filter((m) => !done.has(m.id)).sort((a, b) => cost.get(b.id)! - cost.get(a.id)!);
    if (done.size) log(`resuming ${reportDir}: ${record.mutants.length - queue.length} of ${record.mutants.length} already run`);
    let finished = record.mutants.length - queue.length;
    await Promise.all(
      trees.map(async (tree) => {
        for (let m = queue.shift(); m; m = queue.shift()) {
          const result = await runMutant(tree.dir, m, { ...options.settings, checks: checksFor(m) }, baseline!);
          record.mutants.find((r) => r.id === m!.id)!.result = result;
          writeRecord(reportDir, record);
          finished++;
          const by = result.killedBy.length ? ` by ${result.killedBy.slice(0, 4).join(', ')}${result.killedBy.length > 4 ? ` +${result.killedBy.length - 4}` : ''}` : '';
          const phases = result.phases ? `: simulator ${result.phases.simulatorS} s, suite ${result.phases.suiteS} s of which checks ${result.phases.checksS} s` : '';
          log(`[${finished}/${record.mutants.length}] ${m.id}: ${result.outcome}${by} (${result.seconds} s${phases})`);
        }
      }),
    );
    record.finishedAt = new Date().toISOString();
    writeRecord(reportDir, record);
    const s = score(record);
    log('');
    log(renderTable(record));
    log(`report: ${path.relative(REPO_ROOT, reportDir)}/mutation.json and mutation.md`);
    const below = s.percent !== null && s.percent < options.minScore;
    if (below) log(`below the minimum score ${options.minScore} %`);
    return { record, reportDir, exitCode: below ? 1 : 0 };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    cleanup();
  }
}

export function listMutations(mutations: readonly Mutation[], only?: string[]): string {
  return selectMutations(mutations, only)
    .map((m) => `${m.id}  [${m.family}]  ${m.file}\n    ${m.visible}\n    ${m.sandboxDefined ? `sandbox-defined: ${m.sandboxDefined.why}` : `rules: ${m.rules.join(', ')}`}\n    checks: ${checksOf(m).join(', ')}${m.survives ? `\n    survives (${m.survives.kind}): ${m.survives.why}` : ''}`)
    .join('\n');
}

async function main() {
  let options: MutateOptions;
  try {
    options = parseMutateArgs(process.argv.slice(2));
    if (options.list) {
      console.log(listMutations(MUTATIONS, options.only));
      console.log(`${selectMutations(MUTATIONS, options.only).length} mutations`);
      return;
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  try {
    const { exitCode, record } = await mutate(options);
    console.log(scoreLine(score(record), `${record.mode} rule score`));
    process.exitCode = exitCode;
  } catch (error) {
    console.error(error instanceof MutationError ? error.message : error);
    process.exitCode = error instanceof MutationError ? 2 : 3;
  }
}

if (isEntryModule(import.meta.url)) await main();
