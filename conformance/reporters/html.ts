// The certification report: one self-contained HTML file (inline CSS, no external assets, no script) with
// the target, the overall verdict (CERTIFIED only when nothing failed and every check ran), the failures by
// cause first (causes.ts: one row per rule broken the same way, with its operations and checks), a table
// per area, then the first failures of each failed check with the rule it broke, its request and response
// (secrets masked, bodies pretty-printed and cut), the counterexample and replay command of property
// failures (the rest counted, every one in report.json), the skipped checks with their reasons and the
// checks a --max-duration left not run. Its size grows with the checks and the causes, not the failures.
import { coverageSectionHtml } from './coverage.js';
import { specRulesSectionHtml } from './spec-rules.js';
import type { CheckResult, Failure, RunReport } from '../harness/types.js';
import { groupFailuresByCause, type FailureCause } from './causes.js';
import { certified, displayBody, formatDuration, groupByArea, redactExchange, runDurationMs, runReplay, shardLine, totalsLine, truncate, type RunContext } from './format.js';

/** Failures shown in full per check; the rest are counted (all of them are in the JSON report). */
export const MAX_FAILURES_PER_CHECK = 5;
const MAX_BODY_CHARS = 4000;
/** Check ids and operations named in a cause's row before "and N more". */
const CAUSE_ITEMS_SHOWN = 12;
/** The JSON report's file name beside this one (cli.ts REPORT_FILES), for the links to every failure. */
const JSON_FILE = 'report.json';

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

/** A fragment id safe in a URL and unique per check. */
function anchor(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_.:-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function headerBlock(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function exchangeHtml(failure: Failure): string {
  if (!failure.exchange) return '';
  const { request, response, operation, durationMs } = redactExchange(failure.exchange);
  const requestText = [`${request.method} ${request.url}`, headerBlock(request.headers), request.body !== undefined ? `\n${truncate(displayBody(undefined, request.body), MAX_BODY_CHARS)}` : '']
    .filter(Boolean)
    .join('\n');
  const responseBody = displayBody(response.body, response.text);
  const responseText = [`HTTP ${response.status}`, headerBlock(response.headers), responseBody ? `\n${truncate(responseBody, MAX_BODY_CHARS)}` : ''].filter(Boolean).join('\n');
  return `
      <div class="exchange">
        <div><h5>Request${operation ? ` <span class="op">${escapeHtml(operation.operationId)}</span>` : ''}</h5><pre>${escapeHtml(requestText)}</pre></div>
        <div><h5>Response <span class="status s${Math.floor(response.status / 100)}">${escapeHtml(response.status)}</span> <span class="muted">${escapeHtml(durationMs)} ms</span></h5><pre>${escapeHtml(responseText)}</pre></div>
      </div>`;
}

function failureHtml(failure: Failure, open: boolean): string {
  const headline = failure.message.split('\n')[0]!.slice(0, 300);
  const property =
    failure.seed !== undefined || failure.counterexample || failure.replay
      ? `
      <dl class="property">
        ${failure.seed !== undefined ? `<dt>Seed</dt><dd><code>${escapeHtml(failure.seed)}</code></dd>` : ''}
        ${failure.counterexample ? `<dt>Counterexample</dt><dd><pre>${escapeHtml(truncate(failure.counterexample, MAX_BODY_CHARS))}</pre></dd>` : ''}
        ${failure.replay ? `<dt>Replay</dt><dd><pre class="cmd">${escapeHtml(failure.replay)}</pre></dd>` : ''}
      </dl>`
      : '';
  return `
    <details class="failure"${open ? ' open' : ''}>
      <summary><span class="rule">${escapeHtml(failure.rule)}</span> ${escapeHtml(headline)}</summary>
      ${headline === failure.message ? '' : `<p class="message">${escapeHtml(failure.message)}</p>`}${property}${exchangeHtml(failure)}
    </details>`;
}

function failedCheckHtml(result: CheckResult, report: RunReport, jsonFile: string | undefined): string {
  const shown = result.failures.slice(0, MAX_FAILURES_PER_CHECK);
  const hidden = result.failures.length - shown.length;
  const replay = `${report.replay} --only ${result.id}`;
  return `
  <article class="check" id="${anchor('check', result.id)}">
    <h3><code>${escapeHtml(result.id)}</code> <span class="muted">${escapeHtml(result.area)}</span></h3>
    <p>${escapeHtml(result.title)}. ${result.failures.length} failure${result.failures.length === 1 ? '' : 's'}, ${escapeHtml(formatDuration(result.durationMs))}, ${escapeHtml(result.requests)} request${result.requests === 1 ? '' : 's'}.</p>
    <p class="replay">Replay this check: <code>${escapeHtml(replay)}</code></p>
    ${shown.map((failure, index) => failureHtml(failure, index === 0)).join('')}
    ${hidden > 0 ? `<p class="more">… and ${hidden} more failure${hidden === 1 ? '' : 's'} of this check: all ${result.failures.length} are in ${jsonFile ? `<a href="${escapeHtml(jsonFile)}">${escapeHtml(jsonFile)}</a>` : 'the JSON report'} (the result with id <code>${escapeHtml(result.id)}</code>).</p>` : ''}
  </article>`;
}

const verdictClass = (result: CheckResult) => result.verdict.replace(' ', '-');

/** The causes, most frequent first: the rule, the first message, where it was seen, with links to the checks. */
function causesHtml(causes: FailureCause[], failedCount: number, jsonFile: string | undefined): string {
  const list = (items: string[], item: (value: string) => string) =>
    `${items.slice(0, CAUSE_ITEMS_SHOWN).map(item).join(', ')}${items.length > CAUSE_ITEMS_SHOWN ? ` <span class="muted">and ${items.length - CAUSE_ITEMS_SHOWN} more</span>` : ''}`;
  const failures = causes.reduce((sum, cause) => sum + cause.count, 0);
  const rows = causes
    .map(
      (cause) => `
      <tr>
        <td class="num">${cause.count}</td>
        <td><span class="rule">${escapeHtml(cause.rule)}</span>${cause.status !== undefined ? ` <span class="status s${Math.floor(cause.status / 100)}">${escapeHtml(cause.status)}</span>` : ''}<div>${escapeHtml(truncate(cause.message, 600))}</div></td>
        <td>${cause.operations.length ? list(cause.operations, (operation) => `<code>${escapeHtml(operation)}</code>`) : '<span class="muted">-</span>'}</td>
        <td>${list(cause.checkIds, (id) => `<a href="#${anchor('check', id)}"><code>${escapeHtml(id)}</code></a>`)}</td>
      </tr>`,
    )
    .join('');
  return `<section id="causes"><h2>Failures by cause <span class="muted">${failures} failure${failures === 1 ? '' : 's'} in ${failedCount} check${failedCount === 1 ? '' : 's'}, ${causes.length} cause${causes.length === 1 ? '' : 's'}: the same rule broken the same way (ids, times and the operation aside) is one cause. The first ${MAX_FAILURES_PER_CHECK} failures of each check are shown below; every failure is in ${jsonFile ? `<a href="${escapeHtml(jsonFile)}">${escapeHtml(jsonFile)}</a>` : 'the JSON report'}.</span></h2>
  <table class="causes"><colgroup><col class="c-num"><col><col class="c-ops"><col class="c-ops"></colgroup>
  <thead><tr><th class="num">Failures</th><th>Rule and first message</th><th>Operations</th><th>Checks</th></tr></thead><tbody>${rows}
  </tbody></table>
</section>`;
}

function areaHtml(group: ReturnType<typeof groupByArea>[number]): string {
  const rows = group.results
    .map((result) => {
      const id = result.verdict === 'failed' ? `<a href="#${anchor('check', result.id)}"><code>${escapeHtml(result.id)}</code></a>` : `<code>${escapeHtml(result.id)}</code>`;
      const note = result.verdict === 'skipped' || result.verdict === 'not run' ? `<div class="muted">${escapeHtml(result.reason ?? '')}</div>` : result.verdict === 'failed' ? `<div class="muted">${escapeHtml([...new Set(result.failures.map((f) => f.rule))].join(', '))}</div>` : '';
      return `
        <tr class="${verdictClass(result)}">
          <td>${id}</td>
          <td>${escapeHtml(result.title)}${note}</td>
          <td><span class="verdict ${verdictClass(result)}">${result.verdict}</span></td>
          <td class="num">${escapeHtml(formatDuration(result.durationMs))}</td>
          <td class="num">${escapeHtml(result.requests)}</td>
          <td class="num">${result.failures.length}</td>
        </tr>`;
    })
    .join('');
  return `
  <section class="area" id="${anchor('area', group.area)}">
    <h2>${escapeHtml(group.area)} <span class="muted">${escapeHtml(totalsLine(group.totals))}</span></h2>
    <table class="checks">
      <colgroup><col class="c-id"><col><col class="c-verdict"><col class="c-num"><col class="c-num"><col class="c-num"></colgroup>
      <thead><tr><th>Check</th><th>What it asserts</th><th>Verdict</th><th class="num">Duration</th><th class="num">Requests</th><th class="num">Failures</th></tr></thead>
      <tbody>${rows}
      </tbody>
    </table>
  </section>`;
}

export function renderHtml(report: RunReport, context: RunContext & { jsonFile?: string } = {}): string {
  const ok = certified(report);
  const jsonFile = 'jsonFile' in context ? context.jsonFile : JSON_FILE;
  const notRun = report.results.filter((result) => result.verdict === 'not run');
  const { target, totals } = report;
  const groups = groupByArea(report.results);
  const failed = report.results.filter((result) => result.verdict === 'failed');
  const skipped = report.results.filter((result) => result.verdict === 'skipped');
  const partial = context.only?.length ? context.only : undefined;
  const replay = runReplay(report, context);
  const part = shardLine(report, context);
  // A shard's verdict covers its own checks only: the certificate is the merged report's.
  const shardNote = context.shard ? ` This report covers shard ${context.shard.index} of ${context.shard.count} only: merge the shards' reports (--merge) for the whole run.` : '';
  const verdictNote = (ok
    ? `No check failed against contract ${target.contract} under the ${target.profile} profile.${totals.skipped ? ` ${totals.skipped} check${totals.skipped === 1 ? ' was' : 's were'} skipped and ${totals.skipped === 1 ? 'is' : 'are'} not covered by this certificate.` : ''}`
    : totals.failed
      ? `${totals.failed} check${totals.failed === 1 ? '' : 's'} failed: the server does not conform to contract ${target.contract} on the points listed below.`
      : notRun.length
        ? `The run ended at its --max-duration with ${notRun.length} check${notRun.length === 1 ? '' : 's'} not run: a partial run certifies nothing.`
        : 'No check passed, so nothing was certified.') + (totals.failed && notRun.length ? ` ${notRun.length} check${notRun.length === 1 ? ' was' : 's were'} not run (--max-duration).` : '') + shardNote;
  const meta: Array<[string, string]> = [
    ['Server', target.baseUrl],
    ...(report.server ? ([['Server identification', report.server]] as Array<[string, string]>) : []),
    ['Contract', target.contract],
    ['Profile', target.profile],
    ['Seed', String(target.seed)],
    ['Runs', String(target.runs)],
    ['Date', formatDate(report.startedAt)],
    ['Duration', formatDuration(runDurationMs(report))],
    ['Checks', `${report.results.length}${context.suiteSize !== undefined ? ` of ${context.suiteSize} in the suite` : ''}${partial ? ` (partial run: --only ${partial.join(',')})` : ''}`],
    ...(part ? ([[context.shard ? 'Shard' : 'Merged', part]] as Array<[string, string]>) : []),
  ];

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${ok ? 'CERTIFIED' : 'NOT CERTIFIED'}: conformance of ${target.baseUrl} to contract ${target.contract}`)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="banner ${ok ? 'ok' : 'ko'}">
  <div class="badge">${ok ? 'CERTIFIED' : 'NOT CERTIFIED'}</div>
  <div>
    <h1>Conformance report</h1>
    <p>Trade Compliance and Freight Audit Service public interface, contract ${escapeHtml(target.contract)}. ${escapeHtml(verdictNote)}</p>
  </div>
</header>
<main>
<section class="summary">
  <dl class="meta">
    ${meta.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n    ')}
  </dl>
  <div class="totals">
    <div class="total passed"><strong>${totals.passed}</strong> passed</div>
    <div class="total failed"><strong>${totals.failed}</strong> failed</div>
    <div class="total skipped"><strong>${totals.skipped}</strong> skipped</div>${notRun.length ? `
    <div class="total not-run"><strong>${notRun.length}</strong> not run</div>` : ''}
  </div>
</section>
<p class="replay">Replay this run: <code>${escapeHtml(replay)}</code></p>
${failed.length ? causesHtml(groupFailuresByCause(failed), failed.length, jsonFile) : ''}
<nav>${groups.map((group) => `<a href="#${anchor('area', group.area)}" class="${group.totals.failed ? 'failed' : group.totals.passed ? 'passed' : 'skipped'}">${escapeHtml(group.area)} <span>${group.totals.failed ? `${group.totals.failed} failed` : `${group.totals.passed}/${group.results.length}`}</span></a>`).join(' ')}</nav>
${groups.map(areaHtml).join('\n')}
${failed.length ? `<section id="failures"><h2>Failures</h2>${failed.map((result) => failedCheckHtml(result, report, jsonFile)).join('\n')}\n</section>` : ''}
${
  skipped.length
    ? `<section id="skipped"><h2>Skipped checks</h2>
  <table><thead><tr><th>Check</th><th>Area</th><th>Reason</th></tr></thead><tbody>${skipped.map((result) => `<tr><td><code>${escapeHtml(result.id)}</code></td><td>${escapeHtml(result.area)}</td><td>${escapeHtml(result.reason ?? '')}</td></tr>`).join('')}</tbody></table>
</section>`
    : ''
}
${
  notRun.length
    ? `<section id="not-run"><h2>Not run</h2>
  <p>${escapeHtml(notRun[0]!.reason ?? 'not run')}: ${notRun.length} check${notRun.length === 1 ? '' : 's'} did not start. ${notRun.map((result) => `<code>${escapeHtml(result.id)}</code>`).join(', ')}</p>
</section>`
    : ''
}
${
  report.notes?.length
    ? `<section id="notes"><h2>Notes</h2>
  <p class="muted">What the run could not give back to the sandbox it ran in (the verdict stands).</p>
  <ul>${report.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>
</section>`
    : ''
}
${context.coverage ? coverageSectionHtml(context.coverage, escapeHtml) : ''}
${specRulesSectionHtml(report, escapeHtml, (id) => (failed.some((result) => result.id === id) ? `#${anchor('check', id)}` : undefined))}
</main>
<footer>
  ${escapeHtml(totalsLine(totals))}. Started ${escapeHtml(report.startedAt)}, finished ${escapeHtml(report.finishedAt)}. Credentials are masked to their first characters.
  By default the CLI also writes the run as <code>report.json</code> (every failure, machine-readable) and <code>junit.xml</code> (for CI) beside <code>report.html</code>.
</footer>
</body>
</html>
`;
}

const CSS = `
:root { --ok: #1a7f37; --ko: #c62828; --skip: #9a6700; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; --notrun: #8250df; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; background: #fff; }
main, footer { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
footer { color: var(--muted); font-size: 12px; padding: 24px; border-top: 1px solid var(--line); margin-top: 32px; }
.banner { display: flex; gap: 24px; align-items: center; padding: 24px max(24px, calc((100% - 1152px) / 2)); color: #fff; }
.banner.ok { background: var(--ok); } .banner.ko { background: var(--ko); }
.banner h1 { margin: 0 0 4px; font-size: 22px; } .banner p { margin: 0; max-width: 820px; }
.badge { font-weight: 700; font-size: 20px; letter-spacing: .06em; border: 3px solid #fff; border-radius: 6px; padding: 8px 14px; white-space: nowrap; }
.summary { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; margin: 24px 0 8px; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; flex: 1 1 520px; }
.meta dt { color: var(--muted); } .meta dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
.totals { display: flex; gap: 12px; }
.total { border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; text-align: center; min-width: 96px; background: var(--bg); }
.total strong { display: block; font-size: 26px; line-height: 1.1; }
.total.passed strong { color: var(--ok); } .total.failed strong { color: var(--ko); } .total.skipped strong { color: var(--skip); } .total.not-run strong { color: var(--notrun); }
nav { display: flex; flex-wrap: wrap; gap: 8px; margin: 16px 0; }
nav a { text-decoration: none; color: inherit; border: 1px solid var(--line); border-radius: 999px; padding: 2px 10px; background: var(--bg); }
nav a.failed { border-color: var(--ko); } nav a span { color: var(--muted); font-size: 12px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 4px; } h5 { margin: 8px 0 4px; font-size: 13px; }
.muted { color: var(--muted); font-weight: normal; font-size: 12px; }
table { width: 100%; border-collapse: collapse; }
table.checks { table-layout: fixed; } .c-id { width: 26%; } .c-verdict { width: 9%; } .c-num { width: 8%; }
td code { word-break: break-all; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--bg); font-weight: 600; font-size: 12px; } .num { text-align: right; white-space: nowrap; }
tr.failed td:first-child { border-left: 3px solid var(--ko); }
.verdict { font-weight: 600; font-size: 12px; text-transform: uppercase; }
.verdict.passed { color: var(--ok); } .verdict.failed { color: var(--ko); } .verdict.skipped { color: var(--skip); } .verdict.not-run { color: var(--notrun); }
table.causes { table-layout: fixed; } .c-ops { width: 24%; } table.causes td div { margin-top: 2px; word-break: break-word; }
.more { font-style: italic; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 0; white-space: pre-wrap; word-break: break-word; max-height: 480px; overflow: auto; }
.replay code { background: var(--bg); padding: 2px 6px; border-radius: 4px; word-break: break-all; }
.check { border: 1px solid var(--line); border-left: 4px solid var(--ko); border-radius: 6px; padding: 4px 16px 12px; margin: 16px 0; }
details.failure { border-top: 1px solid var(--line); padding: 6px 0; }
details.failure summary { cursor: pointer; }
.rule { display: inline-block; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; color: #fff; background: var(--ko); border-radius: 4px; padding: 0 6px; }
.message { white-space: pre-wrap; margin: 6px 0; }
.property { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 6px 0; } .property dd { margin: 0; }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
@media (max-width: 900px) { .exchange { grid-template-columns: 1fr; } }
.op { font-weight: normal; color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.status { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; border-radius: 4px; padding: 0 6px; color: #fff; background: var(--muted); }
.status.s2 { background: var(--ok); } .status.s4 { background: var(--skip); } .status.s5 { background: var(--ko); }
@media print { .banner { -webkit-print-color-adjust: exact; print-color-adjust: exact; } pre { max-height: none; } }
`;
