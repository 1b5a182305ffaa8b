// The bench's verdicts against issue 15's targets, and the table it prints. A target is a ratio measured
// in one run (or a start-up time, or a peak resident set), never a timed assertion in a unit test.
import { median, type Round } from './load.js';
import type { Scenario } from './scenarios.js';
import type { LargeInputResult } from './large-inputs.js';
import type { StoreGrowthResult } from './store-growth-scenario.js';

export interface ScenarioResult {
  scenario: Scenario;
  rounds: Record<string, Round[]>;
}

export interface Verdict {
  target: string;
  measured: string;
  /** null: reported, no target set by the issue. */
  pass: boolean | null;
}

/** Issue 15 item 2. */
export const TARGETS = {
  readVsPrism: 5,
  readVsReference: 0.3,
  writeVsPrism: 2,
  storeGrowth: 0.8,
  freshStartupMs: 1500,
  afterCrashStartupMs: 3000,
  largeInputRssMb: 600,
  /** `--baseline`: the simulator keeps at least this share of the other checkout's rate (issue 25: within 5 %). */
  vsBaseline: 0.95,
} as const;

const rate = (rounds: Round[] | undefined) => (rounds?.length ? median(rounds.map((r) => r.perSecond)) : NaN);
/** The median of round-by-round ratios: rounds alternate, so round i of both ran under the same drift. */
export const pairedRatio = (ours: Round[] | undefined, theirs: Round[] | undefined): number =>
  median((ours ?? []).map((r, i) => r.perSecond / (theirs?.[i]?.perSecond ?? NaN)).filter(Number.isFinite));
const peak = (rounds: Round[] | undefined) => Math.max(...(rounds ?? []).map((r) => r.rssMb));

export function judge(input: { baseline?: string; results: ScenarioResult[]; startup: { fresh: number; afterCrash: number | null }; storeGrowth: StoreGrowthResult | null; large: LargeInputResult[] | null }): Verdict[] {
  const verdicts: Verdict[] = [];
  const ratio = (r: ScenarioResult, other: string) => rate(r.rounds.simulator) / rate(r.rounds[other]);
  for (const r of input.results) {
    if (r.rounds.baseline) {
      const share = pairedRatio(r.rounds.simulator, r.rounds.baseline);
      const target = `${r.scenario.title}: at least ${TARGETS.vsBaseline * 100} % of the baseline${input.baseline ? ` ${input.baseline}` : ''} (median of the rounds' ratios)`;
      verdicts.push({ target, measured: `${(share * 100).toFixed(1)} %`, pass: share >= TARGETS.vsBaseline });
    }
    const vsPrism = ratio(r, 'prism');
    if (r.scenario.kind === 'read') {
      verdicts.push({ target: `${r.scenario.title}: at least ${TARGETS.readVsPrism}x Prism's mock`, measured: `${vsPrism.toFixed(2)}x`, pass: vsPrism >= TARGETS.readVsPrism });
      const vsRef = ratio(r, 'reference');
      verdicts.push({ target: `${r.scenario.title}: at least ${TARGETS.readVsReference * 100} % of the Koa+ajv app`, measured: `${(vsRef * 100).toFixed(0)} %`, pass: vsRef >= TARGETS.readVsReference });
    } else if (r.scenario.kind === 'write') {
      verdicts.push({ target: `${r.scenario.title}: at least ${TARGETS.writeVsPrism}x Prism's mock, every write fsynced`, measured: `${vsPrism.toFixed(2)}x`, pass: vsPrism >= TARGETS.writeVsPrism });
    } else {
      verdicts.push({ target: `${r.scenario.title}: compared with Prism's mock (no target)`, measured: `${vsPrism.toFixed(2)}x`, pass: null });
    }
  }
  if (input.storeGrowth) {
    verdicts.push({ target: `store growth: ${input.storeGrowth.records.toLocaleString('en')} records vs empty, at least ${TARGETS.storeGrowth}x`, measured: `${input.storeGrowth.ratio.toFixed(2)}x`, pass: input.storeGrowth.ratio >= TARGETS.storeGrowth });
  }
  verdicts.push({ target: `start-up to first answer, all three contracts, fresh store: under ${TARGETS.freshStartupMs} ms`, measured: `${input.startup.fresh.toFixed(0)} ms`, pass: input.startup.fresh < TARGETS.freshStartupMs });
  if (input.startup.afterCrash !== null) {
    verdicts.push({ target: `start-up after a crash on ${input.storeGrowth?.records.toLocaleString('en')} records: under ${TARGETS.afterCrashStartupMs} ms`, measured: `${input.startup.afterCrash.toFixed(0)} ms`, pass: input.startup.afterCrash < TARGETS.afterCrashStartupMs });
  }
  // Under the read load: what serving costs. The write scenarios store every record they create (a hundred
  // thousand jobs and more in a round), which a stateless mock never holds: their peaks are in the table,
  // next to the store-growth figures, and not compared with Prism's.
  const reads = input.results.filter((r) => r.scenario.kind === 'read');
  const simRss = Math.max(...reads.map((r) => peak(r.rounds.simulator)));
  const prismRss = Math.max(...reads.map((r) => peak(r.rounds.prism)));
  if (Number.isFinite(simRss) && Number.isFinite(prismRss)) verdicts.push({ target: "RSS under the read load below Prism's (peaks of the read scenarios)", measured: `${simRss.toFixed(0)} MB vs ${prismRss.toFixed(0)} MB`, pass: simRss < prismRss });
  for (const row of input.large ?? []) verdicts.push({ target: `large input ${row.name} (${describeInput(row)}) through to its job's end, peak RSS under ${TARGETS.largeInputRssMb} MB`, measured: `${row.status}, ${row.peakRssMb?.toFixed(0) ?? '?'} MB`, pass: row.pass });
  return verdicts;
}

export function formatReport(input: {
  machine: string;
  options: { seconds: number; rounds: number; warmup: number; connections: number };
  results: ScenarioResult[];
  verdicts: Verdict[];
  storeGrowth: StoreGrowthResult | null;
  large: LargeInputResult[] | null;
  startups: Record<string, number>;
}): string {
  const lines = [
    `${input.options.rounds} alternating rounds of ${input.options.seconds} s after ${input.options.warmup} s warm-up, ${input.options.connections} keep-alive connections (autocannon); ${input.machine}`,
    '',
    '| scenario | server | req/s (median) | per round | p50 ms | p99 ms | server CPU µs/req | peak RSS MB |',
    '|---|---|--:|---|--:|--:|--:|--:|',
  ];
  const row = (title: string, who: string, rs: Round[]) =>
    lines.push(`| ${title} | ${who} | ${rate(rs).toFixed(0)} | ${rs.map((r) => r.perSecond.toFixed(0)).join(', ')} | ${median(rs.map((r) => r.p50)).toFixed(0)} | ${median(rs.map((r) => r.p99)).toFixed(0)} | ${median(rs.map((r) => r.cpuUsPerRequest)).toFixed(0)} | ${peak(rs).toFixed(0)} |`);
  for (const r of input.results) for (const [who, rs] of Object.entries(r.rounds)) row(r.scenario.title, who, rs);
  if (input.storeGrowth) {
    row('POST /api/sima/batch, empty store', 'simulator', input.storeGrowth.empty);
    row(`POST /api/sima/batch, ${input.storeGrowth.records.toLocaleString('en')} records`, 'simulator', input.storeGrowth.large);
  }
  lines.push('', `start-up to first answer: ${Object.entries(input.startups).map(([who, ms]) => `${who} ${ms.toFixed(0)} ms`).join(', ')}${input.storeGrowth ? `; simulator after a crash on ${input.storeGrowth.records.toLocaleString('en')} records ${input.storeGrowth.afterCrashStartupMs.toFixed(0)} ms` : ''}`);
  if (input.large?.length) {
    lines.push('', '| large input | endpoint | size | to 202 s | to job end s | job | peak RSS MB |', '|---|---|---|--:|--:|---|--:|');
    for (const l of input.large) lines.push(`| ${l.name} | ${l.endpoint} | ${describeInput(l)} | ${l.acceptedS ?? '-'} | ${l.doneS ?? '-'} | ${l.status} | ${l.peakRssMb?.toFixed(0) ?? '-'} |`);
  }
  lines.push('');
  for (const v of input.verdicts) lines.push(`${v.pass === null ? 'INFO' : v.pass ? 'PASS' : 'FAIL'}  ${v.target}: ${v.measured}`);
  return lines.join('\n');
}

const describeInput = (l: LargeInputResult) => `${l.sizeMb ? `${l.sizeMb.toFixed(0)} MB, ` : ''}${l.rows.toLocaleString('en')} rows`;
