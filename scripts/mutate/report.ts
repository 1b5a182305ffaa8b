// The mutation run's record (mutation.json, rewritten after every mutant so an interrupted run can resume)
// and its summaries: the console table and mutation.md, by mutant, by rule of the spec inventory, by area
// (spec section), and the inventory's coverage by the mutation set.
import { contractOf, isHeld, specRules, type RuleKind, type SpecRule } from '../../conformance/spec-rules/index.js';
import type { Mutation } from './mutation.js';
import type { BaselineResult, MutantResult, RunSettings } from './run-mutant.js';

/** rule-keyed: each mutant runs the checks holding its rules; whole-suite: each mutant runs every check. */
export type RunMode = 'rule-keyed' | 'whole-suite';

type MutantEntry = Pick<Mutation, 'id' | 'family' | 'file' | 'visible' | 'survives' | 'rules' | 'sandboxDefined'> & {
  /** The checks the mutant ran (rule-keyed mode). */
  checks?: string[];
  result?: MutantResult;
};

/** Held rules of the inventory a source edit can break, with and without a mutation in the whole set. */
export interface Coverage {
  /** Held rules of contract v1.3.0, the contract a mutation run targets. */
  held: number;
  /** Held rules of another contract (signup, v1.2.0): their checks are not in a v1.3.0 run. */
  otherContract: string[];
  /** Held rules a reviewed list (not-breakable.ts) says no source edit can break, with why. */
  notBreakable: Array<{ id: string; why: string }>;
  breakable: number;
  withMutation: number;
  /** Breakable held rules no mutation names. */
  without: string[];
}

export interface MutationRecord {
  schemaVersion: 2;
  startedAt: string;
  finishedAt?: string;
  mode: RunMode;
  /** In rule-keyed mode settings.checks is what the baseline ran: the union of the selected mutants' checks. */
  settings: RunSettings;
  baseline: BaselineResult;
  /** Every mutation selected for the run, with its result once it has one. */
  mutants: MutantEntry[];
  coverage?: Coverage;
}

export interface Score {
  killed: number;
  survived: number;
  /** Survivors whose note says the behaviour does not change (`equivalent`): not mutants of behaviour, left
   * out of the percentage and listed. */
  equivalent: number;
  timeout: number;
  startup: number;
  pending: number;
  /** killed / (killed + survived), in percent; null before any of them. */
  percent: number | null;
}

const isEquivalent = (m: MutantEntry) => m.result?.outcome === 'survived' && m.survives?.kind === 'equivalent';

function scoreOf(mutants: MutantEntry[]): Score {
  const count = (o: string) => mutants.filter((m) => m.result?.outcome === o).length;
  const equivalent = mutants.filter(isEquivalent).length;
  const killed = count('killed');
  const survived = count('survived') - equivalent;
  return {
    killed,
    survived,
    equivalent,
    timeout: count('timeout'),
    startup: count('startup'),
    pending: mutants.filter((m) => !m.result).length,
    percent: killed + survived === 0 ? null : Math.round((1000 * killed) / (killed + survived)) / 10,
  };
}

/** The rule score: the mutants that break a sentence of the spec. Timeouts, start-up failures and equivalent
 * mutants are shown beside it, not in it: none says anything about the checks. */
export function score(record: MutationRecord): Score {
  return scoreOf(record.mutants.filter((m) => !m.sandboxDefined));
}

/** The mutants that break only sandbox-defined behaviour, scored apart. */
export function sandboxScore(record: MutationRecord): Score {
  return scoreOf(record.mutants.filter((m) => m.sandboxDefined));
}

export function scoreLine(s: Score, what = 'mutation score'): string {
  const pct = s.percent === null ? 'n/a' : `${s.percent} %`;
  return `${what} ${pct}: ${s.killed} killed, ${s.survived} survived (score = killed / (killed + survived)); also ${s.equivalent} equivalent, ${s.startup} killed by start-up, ${s.timeout} timed out${s.pending ? `, ${s.pending} not run` : ''}`;
}

export interface RuleRow {
  id: string;
  section: string;
  kind: RuleKind;
  mutations: Array<{ id: string; outcome: string; /** killed by one of this rule's own checks */ byOwnChecks: boolean }>;
  /** killed: every mutant naming it that ran was killed (equivalents aside); survived: one survived;
   * equivalent: its only mutants change no behaviour; else not run. */
  verdict: 'killed' | 'survived' | 'equivalent' | 'not run';
}

/** One row per inventory rule the run's mutants name, in the inventory's order. */
export function ruleRows(record: MutationRecord, rules: readonly SpecRule[] = specRules): RuleRow[] {
  return rules
    .map((rule) => {
      const named = record.mutants.filter((m) => m.rules.includes(rule.id));
      const own = new Set(isHeld(rule) ? rule.checks : []);
      const mutations = named.map((m) => ({ id: m.id, outcome: m.result?.outcome ?? 'not run', byOwnChecks: !!m.result?.killedBy.some((c) => own.has(c)) }));
      const counted = named.filter((m) => m.result && !isEquivalent(m) && (m.result.outcome === 'killed' || m.result.outcome === 'survived'));
      const verdict: RuleRow['verdict'] = counted.some((m) => m.result!.outcome === 'survived') ? 'survived' : counted.length ? 'killed' : named.some(isEquivalent) ? 'equivalent' : 'not run';
      return { id: rule.id, section: rule.section, kind: rule.kind, mutations, verdict };
    })
    .filter((row) => row.mutations.length);
}

export interface AreaRow {
  section: string;
  rules: number;
  mutants: number;
  score: Score;
}

/** By spec section: the distinct mutants naming a rule of the section (a mutant naming rules of two sections
 * counts in both). */
export function areaRows(record: MutationRecord, rules: readonly SpecRule[] = specRules): AreaRow[] {
  const sectionOf = new Map(rules.map((r) => [r.id, r.section]));
  const sections = [...new Set(rules.map((r) => r.section))];
  return sections
    .map((section) => {
      const mutants = record.mutants.filter((m) => m.rules.some((id) => sectionOf.get(id) === section));
      const named = new Set(mutants.flatMap((m) => m.rules.filter((id) => sectionOf.get(id) === section)));
      return { section, rules: named.size, mutants: mutants.length, score: scoreOf(mutants) };
    })
    .filter((row) => row.mutants);
}

/** The inventory's held rules against the whole mutation set (not only the run's selection). */
export function coverage(mutations: readonly Pick<Mutation, 'rules'>[], notBreakable: Readonly<Record<string, string>>, rules: readonly SpecRule[] = specRules): Coverage {
  const held = rules.filter(isHeld).filter((r) => contractOf(r) === 'v1.3.0');
  const named = new Set(mutations.flatMap((m) => m.rules));
  const breakable = held.filter((r) => !(r.id in notBreakable));
  return {
    held: held.length,
    otherContract: rules.filter(isHeld).filter((r) => contractOf(r) !== 'v1.3.0').map((r) => r.id),
    notBreakable: held.filter((r) => r.id in notBreakable).map((r) => ({ id: r.id, why: notBreakable[r.id] })),
    breakable: breakable.length,
    withMutation: breakable.filter((r) => named.has(r.id)).length,
    without: breakable.filter((r) => !named.has(r.id)).map((r) => r.id),
  };
}

const survivorReason = (m: MutantEntry) => (m.survives ? `${m.survives.kind}: ${m.survives.why}` : 'UNEXPLAINED: add a `survives` note or a check');
const rulesOf = (m: MutantEntry) => (m.sandboxDefined ? `(sandbox-defined: ${m.sandboxDefined.why})` : m.rules.join(', '));

export function renderTable(record: MutationRecord): string {
  const rows = record.mutants.map((m) => [m.id, m.result?.outcome ?? 'not run', m.result ? `${m.result.seconds.toFixed(1)} s` : '', m.result?.killedBy.slice(0, 3).join(', ') + (m.result && m.result.killedBy.length > 3 ? ` +${m.result.killedBy.length - 3}` : '') || '']);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), 8));
  const lines = rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3]}`);
  const survivors = record.mutants.filter((m) => m.result?.outcome === 'survived');
  const sandbox = sandboxScore(record);
  const rulesRun = ruleRows(record);
  return [
    ...lines,
    '',
    ...(survivors.length ? ['Survivors:', ...survivors.map((m) => `  ${m.id} breaks ${rulesOf(m)}: ${survivorReason(m)}`), ''] : []),
    `rules named by the run's mutants: ${rulesRun.length} (${rulesRun.filter((r) => r.verdict === 'killed').length} killed, ${rulesRun.filter((r) => r.verdict === 'survived').length} with a survivor)`,
    ...(record.coverage ? [`inventory coverage: ${record.coverage.withMutation} of ${record.coverage.breakable} held v1.3.0 rules a source edit can break have a mutation (${record.coverage.notBreakable.length} held rules reviewed as not breakable by a source edit)`] : []),
    ...(sandbox.killed + sandbox.survived + sandbox.pending ? [scoreLine(sandbox, 'sandbox-defined mutants (not in the rule score)')] : []),
    scoreLine(score(record), `${record.mode} rule score`),
  ].join('\n');
}

export function renderMarkdown(record: MutationRecord): string {
  const s = score(record);
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const byOutcome = (o: string) => record.mutants.filter((m) => m.result?.outcome === o);
  const sandbox = record.mutants.filter((m) => m.sandboxDefined);
  const pct = (x: Score) => (x.percent === null ? 'n/a' : `${x.percent} %`);
  const rows = ruleRows(record);
  const baselineChecks = record.settings.checks?.length ? `${record.settings.checks.length} checks (the union of the mutants' checks)` : 'the whole suite';
  return [
    '# Mutation run',
    '',
    `${scoreLine(s, `${record.mode} rule score`)}.`,
    '',
    `Mode ${record.mode}: ${record.mode === 'rule-keyed' ? "each mutant ran only the checks that hold the rules it breaks (the union of the rules' `checks` in conformance/spec-rules)" : 'each mutant ran the whole suite'}. Seed ${record.settings.seed}, ${record.settings.runs} runs, simulator profile, contract v1.3.0; started ${record.startedAt}${record.finishedAt ? `, finished ${record.finishedAt}` : ' (not finished)'}.`,
    `Baseline (unmutated, ${baselineChecks}): ${record.baseline.passed} passed, ${record.baseline.failed.length} failed${record.baseline.failed.length ? ` (${record.baseline.failed.join(', ')}: not counted as kills)` : ''}, ${record.baseline.skipped} skipped, ${record.baseline.seconds} s.`,
    '',
    '## Survivors',
    '',
    ...(byOutcome('survived').length
      ? ['| mutation | rules it breaks | file | why it survives |', '|---|---|---|---|', ...byOutcome('survived').map((m) => `| ${m.id} | ${cell(rulesOf(m))} | ${m.file} | ${cell(survivorReason(m))} |`)]
      : ['None.']),
    '',
    ...(byOutcome('timeout').length + byOutcome('startup').length
      ? ['## Timeouts and start-up failures', '', ...[...byOutcome('timeout'), ...byOutcome('startup')].map((m) => `- ${m.id}: ${m.result!.outcome}`), '']
      : []),
    '## By area (spec section)',
    '',
    'A mutant naming rules of two sections counts in both.',
    '',
    '| section | rules named | mutants | killed | survived | equivalent | score |',
    '|---|---|---|---|---|---|---|',
    ...areaRows(record).map((a) => `| ${a.section} | ${a.rules} | ${a.mutants} | ${a.score.killed} | ${a.score.survived} | ${a.score.equivalent} | ${pct(a.score)} |`),
    '',
    '## By rule',
    '',
    "killed: every mutant naming the rule that ran was killed; (own) marks a mutant killed by one of the rule's own checks, (other) one killed only by a check of another rule it names.",
    '',
    '| rule | section | kind | verdict | mutations |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${r.section} | ${r.kind} | ${r.verdict} | ${cell(r.mutations.map((m) => `${m.id}: ${m.outcome}${m.outcome === 'killed' ? (m.byOwnChecks ? ' (own)' : ' (other)') : ''}`).join('; '))} |`),
    '',
    ...(sandbox.length
      ? [
          '## Sandbox-defined mutants (not in the rule score)',
          '',
          `${scoreLine(sandboxScore(record), 'sandbox-defined')}.`,
          '',
          '| mutation | outcome | why it is sandbox-defined |',
          '|---|---|---|',
          ...sandbox.map((m) => `| ${m.id} | ${m.result?.outcome ?? 'not run'} | ${cell(m.sandboxDefined!.why)} |`),
          '',
        ]
      : []),
    ...(record.coverage
      ? [
          '## Inventory coverage',
          '',
          `${record.coverage.held} held rules of contract v1.3.0 (besides ${record.coverage.otherContract.length} held by another contract's suite, which a v1.3.0 run does not run: ${record.coverage.otherContract.join(', ')}); ${record.coverage.notBreakable.length} reviewed as not breakable by a source edit (scripts/mutate/not-breakable.ts); of the other ${record.coverage.breakable}, ${record.coverage.withMutation} have at least one mutation in the set and ${record.coverage.without.length} have none.`,
          '',
          ...(record.coverage.without.length ? ['Held rules a source edit can break without a mutation:', '', ...record.coverage.without.map((id) => `- ${id}`), ''] : []),
          ...(record.coverage.notBreakable.length ? ['Held rules reviewed as not breakable by a source edit:', '', ...record.coverage.notBreakable.map((r) => `- ${r.id}: ${cell(r.why)}`), ''] : []),
        ]
      : []),
    '## Every mutant',
    '',
    '| mutation | rules | outcome | seconds | checks run | killed by |',
    '|---|---|---|---|---|---|',
    ...record.mutants.map((m) => `| ${m.id} | ${cell(m.sandboxDefined ? '(sandbox-defined)' : m.rules.join(', '))} | ${m.result?.outcome ?? 'not run'} | ${m.result?.seconds ?? ''} | ${m.checks?.length ?? 'all'} | ${cell(m.result?.killedBy.join(', ') ?? '')} |`),
    '',
  ].join('\n');
}
