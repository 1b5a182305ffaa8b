import { describe, expect, it } from 'vitest';
import { renderHtml } from './html.js';
import { ACCESS_TOKEN, API_KEY, manyFailuresReport, syntheticReport } from './reports.testing.js';

describe('HTML certification report', () => {
  const html = renderHtml(syntheticReport(), { suiteSize: 87 });

  it('is one self-contained file: no external assets', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/src\s*=\s*["']?https?:/i);
    expect(html).not.toMatch(/<link[^>]+href\s*=\s*["']?https?:/i);
    expect(html).not.toMatch(/url\(\s*["']?https?:/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<style>');
  });

  it('escapes everything the server or a check wrote', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;');
    expect(html).toContain('token_type is &quot;bearer&quot;, not &quot;Bearer&quot;');
    expect(html).toContain('needs --webhook-url: a public URL &lt;that&gt; forwards &amp; more');
    expect(html).toContain('POST https://staging.example.test/api/sima/batch?x=1&amp;y=&lt;2&gt;');
  });

  it('shows the target, the verdict and the totals', () => {
    expect(html).toContain('NOT CERTIFIED');
    expect(html).not.toMatch(/class="badge">CERTIFIED/);
    for (const text of ['https://staging.example.test', 'v1.3.0', 'sandbox', '424242', '50', '2025-06-01 10:00:00 UTC', '1 min 6 s', '6 of 87 in the suite']) expect(html).toContain(text);
    expect(html).toMatch(/<strong>2<\/strong> passed/);
    expect(html).toMatch(/<strong>2<\/strong> failed/);
    expect(html).toMatch(/<strong>2<\/strong> skipped/);
    for (const area of ['auth', 'jobs', 'webhooks', 'isolation']) expect(html).toContain(`id="area-${area}"`);
  });

  it('details each failure: rule, message, request, response, counterexample and replay', () => {
    expect(html).toContain('<span class="rule">illegal-transition-rejected</span>');
    expect(html).toContain('<span class="rule">response-conformance</span>');
    expect(html).toContain('after enqueue, cancel answered 500\nsecond line');
    expect(html).toContain('HTTP 500');
    expect(html).toContain('&quot;code&quot;: &quot;INTERNAL_ERROR&quot;'); // pretty-printed JSON
    expect(html).toMatch(/… \(\d+ more characters\)/); // the long body is cut
    expect(html).toContain('[Enqueue({&quot;skus&quot;:[&quot;A&amp;B&quot;]}), Cancel(), Poll()]');
    expect(html).toContain('--only jobs.state-machine');
    expect(html).toContain('href="#check-jobs.state-machine"');
    expect(html).toContain('id="check-jobs.state-machine"');
  });

  it('lists skipped checks with their reasons and masks secrets', () => {
    expect(html).toContain('Skipped checks');
    expect(html).toContain('needs --second-api-key');
    expect(html).not.toContain(ACCESS_TOKEN);
    expect(html).not.toContain(API_KEY);
    expect(html).not.toContain('whsec_very_secret_value');
    expect(html).toContain(`Bearer ${ACCESS_TOKEN.slice(0, 8)}…`);
  });

  it("shows the run's notes, escaped, and no notes section when there are none", () => {
    expect(html).not.toContain('id="notes"');
    const noted = renderHtml({ ...syntheticReport(), notes: ['tenant <t_1> could not be deleted: 500'] });
    expect(noted).toContain('<section id="notes"><h2>Notes</h2>');
    expect(noted).toContain('<li>tenant &lt;t_1&gt; could not be deleted: 500</li>');
  });

  it('says CERTIFIED only when nothing failed and something passed', () => {
    const clean = syntheticReport();
    clean.results = clean.results.filter((result) => result.verdict !== 'failed');
    clean.totals = { passed: 2, failed: 0, skipped: 2 };
    const ok = renderHtml(clean);
    expect(ok).toContain('class="badge">CERTIFIED</div>');
    expect(ok).toContain('2 checks were skipped and are not covered');
    expect(ok).not.toContain('id="failures"');

    const nothing = syntheticReport();
    nothing.results = nothing.results.filter((result) => result.verdict === 'skipped');
    nothing.totals = { passed: 0, failed: 0, skipped: 2 };
    expect(renderHtml(nothing)).toContain('class="badge">NOT CERTIFIED</div>');
  });
});

describe('the HTML report of a run with many failures', () => {
  it("stays small for issue 26's 1,362 failures in 133 checks: causes first, five failures per check, the rest in report.json", () => {
    const html = renderHtml(manyFailuresReport(), { jsonFile: 'report.json' });
    // About 2.3 KB per failure shown (a 1.5 KB error body with its request): 665 shown, about 1.5 MB. The "By spec
    // rule" view is apart: its size is the inventory's (one row per rule), the same for any number of failures.
    const rulesView = html.slice(html.indexOf('<section id="spec-rules">'), html.indexOf('</section>', html.indexOf('<section id="spec-rules">')));
    expect(rulesView.length).toBeGreaterThan(0);
    expect(rulesView.length).toBeLessThan(200_000);
    expect(html.length - rulesView.length).toBeLessThan(1_600_000);
    expect(html.indexOf('id="causes"')).toBeGreaterThan(0);
    expect(html.indexOf('id="causes"')).toBeLessThan(html.indexOf('class="area"'));
    expect(html).toContain('1362 failures in 133 checks, 17 causes');
    // 1,362 failures, at most five shown per check.
    expect(html.match(/<details class="failure"/g)!.length).toBe(133 * 5);
    expect(html).toContain('… and 5 more failures of this check: all 10 are in <a href="report.json">report.json</a>');
    const everyFailure = renderHtml(manyFailuresReport({ failures: 133 * 40 }), { jsonFile: 'report.json' });
    // Four times the failures: the same size within the causes' and counts' few bytes.
    expect(everyFailure.length).toBeLessThan(html.length * 1.05);
  });

  it('reports checks a --max-duration left not run and certifies nothing', () => {
    const report = syntheticReport();
    report.results = report.results.filter((result) => result.verdict === 'passed');
    report.results.push({ id: 'jobs.late', title: 'late', area: 'jobs', verdict: 'not run', reason: 'not run: --max-duration 90s reached', failures: [], durationMs: 0, requests: 0 });
    report.totals = { passed: 2, failed: 0, skipped: 0, notRun: 1 };
    const html = renderHtml(report);
    expect(html).toContain('<div class="badge">NOT CERTIFIED</div>');
    expect(html).toContain('<strong>1</strong> not run');
    expect(html).toContain('<section id="not-run">');
    expect(html).toContain('<span class="verdict not-run">not run</span>');
  });
});
