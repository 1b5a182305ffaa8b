// The certificate as one self-contained HTML file (no script, no external resource): the verdict, every
// rule with its spec sentence, how it reads the evidence and what it found per scenario, and per run a
// timeline picture of the client's requests, the webhook attempts and the faults injected.
import type { Certificate, Evidence, RuleResult, Verdict } from '../types.js';
import { statusColour, TIMELINE_LEGEND, timelineSvg } from './timeline.js';

const esc = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const verdictClass = (verdict: Verdict, level: RuleResult['level']) => (verdict === 'failed' ? (level === 'required' ? 'failed' : 'warning') : verdict === 'passed' ? 'passed' : 'skipped');
const verdictText = (verdict: Verdict, level: RuleResult['level']) => (verdict === 'failed' && level === 'recommended' ? 'warning' : verdict);

function ruleSection(rule: RuleResult): string {
  const runs = rule.runs
    .map(
      (run) =>
        `<li><b>${esc(run.scenario)}</b>: <span class="${verdictClass(run.verdict, rule.level)}">${esc(verdictText(run.verdict, rule.level))}</span>${
          run.failures.length ? `<ul class="failures">${run.failures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>` : ''
        }${run.evidence.length ? `<ul class="evidence">${run.evidence.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}</li>`,
    )
    .join('');
  return `<section class="rule" id="rule-${esc(rule.id)}" data-verdict="${esc(rule.verdict)}"><h3><span class="${verdictClass(rule.verdict, rule.level)}">${esc(verdictText(rule.verdict, rule.level))}</span> ${esc(rule.id)} <small>${esc(rule.spec)}, ${esc(rule.level)}</small></h3><p>${esc(rule.title)}</p><blockquote>${esc(rule.sentence)}</blockquote><p class="how">${esc(rule.how)}</p><ul>${runs}</ul></section>`;
}

function runSection(run: Evidence): string {
  const rows = run.requests
    .map((r) => `<tr><td>+${((Date.parse(r.at) - run.startedAtMs) / 1000).toFixed(2)} s</td><td>${esc(r.method)} ${esc(r.path)}${r.query ? `?${esc(r.query)}` : ''}</td><td style="color:${statusColour(r.status)}">${r.status}</td><td>${esc(r.faults.join(', '))}</td><td><code>${esc(r.id)}</code></td></tr>`)
    .join('');
  const attempts = run.deliveries
    .flatMap((d) => d.attempts.map((a) => `<tr><td>${esc(d.id)}</td><td>${a.number}</td><td>${esc(a.chaos?.join(', ') ?? '')}</td><td>${a.statusCode ?? 'no answer'}${a.duplicateStatusCode !== undefined ? ` / duplicate ${a.duplicateStatusCode ?? 'no answer'}` : ''}</td></tr>`))
    .join('');
  return `<section class="run" id="run-${esc(run.scenario)}"><h2>Scenario ${esc(run.scenario)}</h2>
<p>Tenant <code>${esc(run.tenantId)}</code>; the client ran ${((run.endedAtMs - run.startedAtMs) / 1000).toFixed(1)} s and ${run.timedOut ? 'was stopped at the time limit' : `exited ${esc(run.exitCode)}`} (shown, not judged); ${run.requests.length} requests, ${run.deliveries.length} webhook deliveries.</p>
${timelineSvg(run)}
<details><summary>Sandbox actions (${run.actions.length})</summary><ul>${run.actions.map((a) => `<li>+${((a.atMs - run.startedAtMs) / 1000).toFixed(2)} s ${esc(a.what)}</li>`).join('')}</ul></details>
<details><summary>Requests (${run.requests.length})</summary><table><tr><th>time</th><th>request</th><th>status</th><th>faults</th><th>X-Request-Id</th></tr>${rows}</table></details>
<details><summary>Webhook attempts</summary><table><tr><th>delivery</th><th>attempt</th><th>chaos</th><th>receiver answered</th></tr>${attempts}</table></details>
<details><summary>Client output (last lines)</summary><pre>${esc(run.outputTail)}</pre></details></section>`;
}

export function renderClientHtml(certificate: Certificate): string {
  const { totals } = certificate;
  const verdict = certificate.certified ? 'CERTIFIED' : 'NOT CERTIFIED';
  const summary = certificate.rules
    .map((rule) => `<tr><td><a href="#rule-${esc(rule.id)}">${esc(rule.id)}</a></td><td>${esc(rule.spec)}</td><td class="${verdictClass(rule.verdict, rule.level)}">${esc(verdictText(rule.verdict, rule.level))}</td>${certificate.runs.map((run) => {
      const outcome = rule.runs.find((r) => r.scenario === run.scenario);
      return `<td class="${outcome ? verdictClass(outcome.verdict, rule.level) : ''}">${esc(outcome ? verdictText(outcome.verdict, rule.level) : '')}</td>`;
    }).join('')}</tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Client certificate: ${esc(verdict)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:1200px;color:#111827}
.passed{color:#15803d;font-weight:600}.failed{color:#b91c1c;font-weight:600}.warning{color:#b45309;font-weight:600}.skipped{color:#6b7280}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #e5e7eb;padding:.2rem .5rem;text-align:left;font-size:.9rem;vertical-align:top}
blockquote{border-left:3px solid #d1d5db;margin:.5rem 0;padding-left:.8rem;color:#374151}
.how{font-size:.9rem;color:#374151}.rule{border-top:1px solid #e5e7eb;padding-top:.5rem}
.legend span{display:inline-block;margin-right:1rem;font-size:.85rem}.legend i{display:inline-block;width:.8rem;height:.8rem;border-radius:50%;margin-right:.3rem;vertical-align:middle}
pre{white-space:pre-wrap;background:#f3f4f6;padding:.5rem;font-size:.8rem}
</style></head><body>
<h1 id="verdict" class="${certificate.certified ? 'passed' : 'failed'}">${esc(verdict)}</h1>
<p>Client <code>${esc(certificate.command.join(' '))}</code> against <code>${esc(certificate.baseUrl)}</code>, scenario <b>${esc(certificate.scenario)}</b>, ${esc(certificate.startedAt)} to ${esc(certificate.finishedAt)}.</p>
<p id="totals">${totals.passed} passed, ${totals.failed} failed, ${totals.warnings} warnings, ${totals.notExercised} not exercised. A rule with no evidence in any scenario is <i>not exercised</i>, never passed; the certificate needs no failed required rule and at least one passed.</p>
<table id="summary"><tr><th>rule</th><th>spec</th><th>verdict</th>${certificate.runs.map((r) => `<th>${esc(r.scenario)}</th>`).join('')}</tr>${summary}</table>
<h2>Timelines</h2>
<p class="legend">${TIMELINE_LEGEND.map(([colour, text]) => `<span><i style="background:${colour}"></i>${esc(text)}</span>`).join('')}<span>circles: requests (outlined: altered by an injected fault); diamonds: webhook attempts, coloured by the receiver's answer (outlined: altered by webhook chaos)</span></p>
${certificate.runs.map(runSection).join('\n')}
<h2>Rules</h2>
${certificate.rules.map(ruleSection).join('\n')}
</body></html>
`;
}
