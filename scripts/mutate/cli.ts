// npm run conform:mutate — the conformance suite's mutation score against the simulator (README beside this
// file). Applies each mutation of mutations.ts, one at a time, to a private copy of the tree; starts the
// simulator from the copy; runs the whole suite in the simulator profile against it; records killed /
// survived / timeout / killed by start-up; writes reports/mutation/<timestamp>/mutation.json and
// mutation.md after every mutant, and exits 1 when the score is below --min-score.
//
//   npm run conform:mutate -- [--only ID|FAMILY,...] [--concurrency N] [--min-score 90] [--seed N] [--runs N]
//                             [--timeout-s N] [--resume reports/mutation/<ts>] [--list]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isEntryModule } from '../../contracts/lib/entry.js';
import { MUTATIONS } from './mutations.js';
import { MutationError, selectMutations, validateMutations, type Mutation } from './mutation.js';
import { renderMarkdown, renderTable, score, scoreLine, type MutationRecord } from './report.js';
import { killAllRunning, runBaseline, runMutant, type RunSettings } from './run-mutant.js';
import { copyTree, REPO_ROOT, type TreeCopy } from './tree.js';

export const DEFAULT_SEED = 20261121;

export interface MutateOptions {
  only?: string[];
  concurrency: number;
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
      concurrency: { type: 'string', default: '1' },
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

export interface MutateOutcome {
  record: MutationRecord;
  reportDir: string;
  exitCode: number;
}

/** Runs the selected mutations; `log` receives the progress lines and the final table. */
export async function mutate(options: MutateOptions, mutations: readonly Mutation[] = MUTATIONS, log: (line: string) => void = console.log): Promise<MutateOutcome> {
  const problems = validateMutations(mutations, REPO_ROOT);
  if (problems.length) throw new MutationError(`the mutation set does not fit the sources:\n  ${problems.join('\n  ')}`);
  const selected = selectMutations(mutations, options.only);

  const reportDir = path.resolve(REPO_ROOT, options.resume ?? options.reportDir ?? path.join('reports', 'mutation', new Date().toISOString().replace(/[:.]/g, '-')));
  mkdirSync(reportDir, { recursive: true });
  const previous: MutationRecord | undefined = options.resume && existsSync(path.join(reportDir, 'mutation.json')) ? JSON.parse(readFileSync(path.join(reportDir, 'mutation.json'), 'utf8')) : undefined;
  if (options.resume && !previous) throw new MutationError(`--resume: no mutation.json in ${reportDir}`);

  const trees: TreeCopy[] = [];
  const cleanup = () => trees.forEach((t) => t.remove());
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
    let baseline = previous?.baseline;
    if (!baseline) {
      log(`baseline: the unmutated simulator against the whole suite (seed ${options.settings.seed}, ${options.settings.runs} runs) ...`);
      baseline = await runBaseline(trees[0].dir, options.settings);
      log(`baseline: ${baseline.passed} passed, ${baseline.failed.length} failed, ${baseline.skipped} skipped in ${baseline.seconds} s`);
      if (baseline.failed.length) log(`baseline: these checks fail without any mutation and do not count as kills: ${baseline.failed.join(', ')}`);
    }
    const done = new Map((previous?.mutants ?? []).filter((m) => m.result).map((m) => [m.id, m.result!]));
    const record: MutationRecord = {
      schemaVersion: 1,
      startedAt: previous?.startedAt ?? new Date().toISOString(),
      settings: options.settings,
      baseline,
      mutants: selected.map((m) => ({ id: m.id, family: m.family, file: m.file, visible: m.visible, ...(m.survives ? { survives: m.survives } : {}), ...(done.has(m.id) ? { result: done.get(m.id) } : {}) })),
    };
    writeRecord(reportDir, record);
    const queue = selected.filter((m) => !done.has(m.id));
    if (done.size) log(`resuming ${reportDir}: ${record.mutants.length - queue.length} of ${record.mutants.length} already run`);
    let finished = record.mutants.length - queue.length;
    await Promise.all(
      trees.map(async (tree) => {
        for (let m = queue.shift(); m; m = queue.shift()) {
          const result = await runMutant(tree.dir, m, options.settings, baseline!);
          record.mutants.find((r) => r.id === m!.id)!.result = result;
          writeRecord(reportDir, record);
          finished++;
          const by = result.killedBy.length ? ` by ${result.killedBy.slice(0, 4).join(', ')}${result.killedBy.length > 4 ? ` +${result.killedBy.length - 4}` : ''}` : '';
          log(`[${finished}/${record.mutants.length}] ${m.id}: ${result.outcome}${by} (${result.seconds} s)`);
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
    .map((m) => `${m.id}  [${m.family}]  ${m.file}\n    ${m.visible}${m.survives ? `\n    survives (${m.survives.kind}): ${m.survives.why}` : ''}`)
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
    console.log(scoreLine(score(record)));
    process.exitCode = exitCode;
  } catch (error) {
    console.error(error instanceof MutationError ? error.message : error);
    process.exitCode = error instanceof MutationError ? 2 : 3;
  }
}

if (isEntryModule(import.meta.url)) await main();
