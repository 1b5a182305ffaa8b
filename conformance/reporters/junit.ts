// JUnit XML for CI: one <testsuite> per area, one <testcase> per check (classname = area, name = check id),
// a <failure> whose type is the first rule broken and whose text lists every failure with its request and
// response excerpts, and <skipped message=reason/> for checks the profile or target could not run and for
// those a --max-duration left not run (JUnit has no "not run": the message starts with it).
import type { CheckResult, Failure, RunReport } from '../harness/types.js';
import { shardLabel } from '../harness/shard.js';
import { displayBody, groupByArea, oneLine, redactExchange, runDurationMs, truncate, xmlSafe, type RunContext } from './format.js';

function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\n\r\t]/g, (c) => XML_ENTITIES[c]!);
}

/** Text content: newlines and tabs kept as they are. */
function escapeXmlText(text: string): string {
  return xmlSafe(text).replace(/[&<>]/g, (c) => XML_ENTITIES[c]!).replace(/\r/g, '&#13;');
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');
}

function failureText(failure: Failure): string {
  const lines = [`[${failure.rule}] ${failure.message}`];
  if (failure.exchange) {
    const { request, response } = redactExchange(failure.exchange);
    lines.push(`  request:  ${request.method} ${request.url}`);
    if (request.body) lines.push(indent(truncate(displayBody(undefined, request.body), 600), '    '));
    lines.push(`  response: ${response.status}${response.headers['content-type'] ? ` (${response.headers['content-type']})` : ''}`);
    const body = displayBody(response.body, response.text);
    if (body) lines.push(indent(truncate(body, 1200), '    '));
  }
  if (failure.seed !== undefined) lines.push(`  seed: ${failure.seed}`);
  if (failure.counterexample) lines.push(`  counterexample: ${truncate(failure.counterexample, 800)}`);
  if (failure.replay) lines.push(`  replay: ${failure.replay}`);
  return lines.join('\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

function testcase(result: CheckResult): string {
  const open = `    <testcase${attrs({ classname: result.area, name: result.id, time: seconds(result.durationMs) })}`;
  if (result.verdict === 'skipped' || result.verdict === 'not run') return `${open}>\n      <skipped${attrs({ message: result.reason ?? 'skipped' })}/>\n    </testcase>`;
  if (result.verdict === 'passed') return `${open}/>`;
  const [first] = result.failures;
  const more = result.failures.length > 1 ? ` (+${result.failures.length - 1} more)` : '';
  const message = first ? oneLine(first.message, 400) + more : 'failed';
  const body = result.failures.map(failureText).join('\n\n');
  return [
    `${open}>`,
    `      <failure${attrs({ message, type: first?.rule ?? 'failed' })}>${escapeXmlText(`${result.title}\n\n${body}`)}</failure>`,
    `    </testcase>`,
  ].join('\n');
}

export function renderJUnit(report: RunReport, context: RunContext = {}): string {
  const { totals, target } = report;
  const properties: Record<string, string> = {
    baseUrl: target.baseUrl,
    contract: target.contract,
    profile: target.profile,
    seed: String(target.seed),
    runs: String(target.runs),
    replay: report.replay,
    ...(report.server ? { server: report.server } : {}),
    ...(context.only?.length ? { only: context.only.join(',') } : {}),
    ...(context.shard ? { shard: shardLabel(context.shard), selectedChecks: String(context.shard.selection.length) } : {}),
    ...(context.merged ? { mergedFromShards: String(context.merged.shards) } : {}),
  };
  const propertyXml = [
    '    <properties>',
    ...Object.entries(properties).map(([name, value]) => `      <property${attrs({ name, value })}/>`),
    '    </properties>',
  ].join('\n');
  const suites = groupByArea(report.results).map((group) =>
    [
      `  <testsuite${attrs({ name: group.area, tests: group.results.length, failures: group.totals.failed, errors: 0, skipped: group.totals.skipped + (group.totals.notRun ?? 0), time: seconds(group.durationMs), timestamp: report.startedAt.replace(/\.\d+Z$/, '').replace(/Z$/, '') })}>`,
      propertyXml,
      ...group.results.map(testcase),
      '  </testsuite>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: `conformance ${target.contract} (${target.profile}) ${target.baseUrl}`, tests: report.results.length, failures: totals.failed, errors: 0, skipped: totals.skipped + (totals.notRun ?? 0), time: seconds(runDurationMs(report)), timestamp: report.startedAt })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
