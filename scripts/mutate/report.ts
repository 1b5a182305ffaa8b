// The mutation run's record (mutation.json, rewritten after every mutant so an interrupted run can resume)
// and its summaries: the console table and mutation.md.
import type { Mutation } from './mutation.js';
import type { BaselineResult, MutantResult, RunSettings } from './run-mutant.js';

export interface MutationRecord {
  schemaVersion: 1;
  startedAt: string;
  finishedAt?: string;
  settings: RunSettings;
  baseline: BaselineResult;
  /** Every mutation selected for the run, with its result once it has one. */
  mutants: Array<Pick<Mutation, 'id' | 'family' | 'file' | 'visible' | 'survives'> & { result?: MutantResult }>;
}

export interface Score {
  killed: number;
  survived: number;
  timeout: number;
  startup: number;
  pending: number;
  /** killed / (killed + survived), in percent; null before any of them. */
  percent: number | null;
}

/** The score counts what the suite decided over HTTP: timeouts and start-up failures are shown beside it. */
export function score(record: MutationRecord): Score {
  const count = (o: string) => record.mutants.filter((m) => m.result?.outcome === o).length;
  const killed = count('killed');
  const survived = count('survived');
  return {
    killed,
    survived,
    timeout: count('timeout'),
    startup: count('startup'),
    pending: record.mutants.filter((m) => !m.result).length,
    percent: killed + survived === 0 ? null : Math.round((1000 * killed) / (killed + survived)) / 10,
  };
}

export function scoreLine(s: Score): string {
  const pct = s.percent === null ? 'n/a' : `${s.percent} %`;
  return `mutation score ${pct}: ${s.killed} killed, ${s.survived} survived (score = killed / (killed + survived)); also ${s.startup} killed by start-up, ${s.timeout} timed out${s.pending ? `, ${s.pending} not run` : ''}`;
}

const survivorReason = (m: MutationRecord['mutants'][number]) => (m.survives ? `${m.survives.kind}: ${m.survives.why}` : 'UNEXPLAINED: add a `survives` note or a check');

export function renderTable(record: MutationRecord): string {
  const rows = record.mutants.map((m) => [m.id, m.result?.outcome ?? 'not run', m.result ? `${m.result.seconds.toFixed(1)} s` : '', m.result?.killedBy.slice(0, 3).join(', ') + (m.result && m.result.killedBy.length > 3 ? ` +${m.result.killedBy.length - 3}` : '') || '']);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), 8));
  const lines = rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3]}`);
  const survivors = record.mutants.filter((m) => m.result?.outcome === 'survived');
  return [
    ...lines,
    '',
    ...(survivors.length ? ['Survivors:', ...survivors.map((m) => `  ${m.id} (${m.file}): ${survivorReason(m)}`), ''] : []),
    scoreLine(score(record)),
  ].join('\n');
}

export function renderMarkdown(record: MutationRecord): string {
  const s = score(record);
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const byOutcome = (o: string) => record.mutants.filter((m) => m.result?.outcome === o);
  return [
    '# Mutation run',
    '',
    `${scoreLine(s)}.`,
    '',
    `Seed ${record.settings.seed}, ${record.settings.runs} runs, simulator profile, contract v1.3.0; started ${record.startedAt}${record.finishedAt ? `, finished ${record.finishedAt}` : ' (not finished)'}.`,
    `Baseline (unmutated): ${record.baseline.passed} passed, ${record.baseline.failed.length} failed${record.baseline.failed.length ? ` (${record.baseline.failed.join(', ')}: not counted as kills)` : ''}, ${record.baseline.skipped} skipped, ${record.baseline.seconds} s.`,
    '',
    '## Survivors',
    '',
    ...(byOutcome('survived').length ? ['| mutation | file | why it survives |', '|---|---|---|', ...byOutcome('survived').map((m) => `| ${m.id} | ${m.file} | ${cell(survivorReason(m))} |`)] : ['None.']),
    '',
    ...(byOutcome('timeout').length + byOutcome('startup').length
      ? ['## Timeouts and start-up failures', '', ...[...byOutcome('timeout'), ...byOutcome('startup')].map((m) => `- ${m.id}: ${m.result!.outcome}`), '']
      : []),
    '## Every mutant',
    '',
    '| mutation | outcome | seconds | killed by |',
    '|---|---|---|---|',
    ...record.mutants.map((m) => `| ${m.id} | ${m.result?.outcome ?? 'not run'} | ${m.result?.seconds ?? ''} | ${cell(m.result?.killedBy.join(', ') ?? '')} |`),
    '',
  ].join('\n');
}
