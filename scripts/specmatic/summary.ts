// The cross-check's summary: Specmatic's totals, the missed expectations explained family by family, and
// what is left to look at (unexplained answers, and failures on answers with the expected status).
import { EXPLANATIONS, explainFailure, JUNIT_EXPLANATIONS } from './explanations.js';
import type { JunitFailure, JunitSummary } from './junit.js';
import type { RecordedExchange } from './recording-proxy.js';

export interface Group {
  operation: string;
  expected: number;
  status: number;
  /** The explaining family's id; undefined for a deviation. */
  family?: string;
  kind?: string;
  cause: string;
  count: number;
  example: RecordedExchange;
}

export interface SummaryInput {
  generative: boolean;
  filter?: string;
  seconds: number;
  exit: number | string;
  junit?: JunitSummary;
  exchanges: number;
  groups: Group[];
  otherFailures: JunitFailure[];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderSummary(input: SummaryInput) {
  const { junit, groups, otherFailures } = input;
  const explained = groups.filter((g) => g.family);
  const unexplainedGroups = groups.filter((g) => !g.family);
  const missed = groups.reduce((n, g) => n + g.count, 0);
  // A failure on an answer with the expected status is explained only by a family of JUNIT_EXPLANATIONS.
  const otherExplained = otherFailures.map((f) => ({ f, family: explainFailure(f) }));
  const otherUnexplained = otherExplained.filter((x) => !x.family).map((x) => x.f);
  const unexplained = unexplainedGroups.reduce((n, g) => n + g.count, 0) + otherUnexplained.length;
  const byFamily = EXPLANATIONS.map((e) => ({ e, count: explained.filter((g) => g.family === e.id).reduce((n, g) => n + g.count, 0) })).filter((x) => x.count > 0);
  const lines = [
    `# Specmatic contract test against the simulator (v1.3.0${input.generative ? ', generative' : ''}${input.filter ? `, filter ${input.filter}` : ''})`,
    '',
    junit
      ? `Specmatic: ${junit.tests} tests, ${junit.tests - junit.failures - junit.errors} passed, ${junit.failures} failed, ${junit.errors} errors, ${junit.skipped} skipped, in ${input.seconds} s (exit ${input.exit}).`
      : `Specmatic wrote no JUnit report (exit ${input.exit}, after ${input.seconds} s): see specmatic.log.`,
    `Requests seen by the recording proxy: ${input.exchanges}; answered with another status than the test expected: ${missed}.`,
    '',
    '## Explained: the spec refuses what Specmatic sent',
    '',
    '| family | kind | answers | why |',
    '|---|---|--:|---|',
    ...byFamily.map(({ e, count }) => `| \`${e.id}\` | ${e.kind} | ${count} | ${cell(e.why)} |`),
    ...JUNIT_EXPLANATIONS.map((e) => ({ e, count: otherExplained.filter((x) => x.family === e).length }))
      .filter((x) => x.count > 0)
      .map(({ e, count }) => `| \`${e.id}\` | ${e.kind} | ${count} | ${cell(e.why)} |`),
    '',
    `## Unexplained: ${unexplained}`,
    '',
  ];
  if (unexplainedGroups.length) {
    lines.push('| operation | expected | answered | cause | count | example request body |', '|---|--:|--:|---|--:|---|');
    for (const g of unexplainedGroups) lines.push(`| ${g.operation} | ${g.expected} | ${g.status} | ${cell(g.cause)} | ${g.count} | \`${cell(g.example.requestBody.slice(0, 160))}\` |`);
    lines.push('');
  }
  if (otherUnexplained.length) {
    lines.push('Failures on answers with the expected status (body or header mismatches):', '');
    const counts = new Map<string, number>();
    for (const f of otherUnexplained) counts.set(`${f.api} | ${f.breadcrumb}`, (counts.get(`${f.api} | ${f.breadcrumb}`) ?? 0) + 1);
    for (const [key, count] of counts) lines.push(`- ${key} (${count}): ${cell(otherUnexplained.find((f) => `${f.api} | ${f.breadcrumb}` === key)!.message.slice(0, 300))}`);
    lines.push('');
  }
  // A JUnit error is Specmatic failing on its own (an exception while it judged): inconclusive, not a deviation.
  if (junit?.errors) {
    lines.push(`## Inconclusive: ${junit.errors} (Specmatic's own exceptions; re-run with \`--filter\` on the operation to see what it compared)`, '');
    for (const e of junit.errorDetails) lines.push(`- ${e.api}: ${cell(e.message)}`);
    lines.push('');
  }
  if (!unexplainedGroups.length && !otherUnexplained.length) lines.push('None: every failed Specmatic test is a request the spec refuses.', '');
  return {
    markdown: lines.join('\n'),
    json: { tests: junit?.tests, failures: junit?.failures, errors: junit?.errors, seconds: input.seconds, exit: input.exit, missed, unexplained, families: Object.fromEntries(byFamily.map(({ e, count }) => [e.id, count])) },
  };
}
