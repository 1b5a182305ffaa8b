import { describe, expect, it } from 'vitest';
import type { Check } from '../harness/check.js';
import type { CheckResult } from '../harness/types.js';
import { createConsoleReporter, renderConsoleSummary } from './console.js';
import { manyFailuresReport, syntheticReport } from './reports.testing.js';

function capture(isTTY: boolean) {
  let text = '';
  return { stream: { isTTY, columns: 200, write: (chunk: string) => (text += chunk) }, text: () => text };
}

const asCheck = (id: string) => ({ id, title: id, area: id.split('.')[0]!, needs: [], run: async () => {} }) as Check;

function play(isTTY: boolean, options: { quiet?: boolean } = {}) {
  const out = capture(isTTY);
  const reporter = createConsoleReporter({ stream: out.stream, ...options });
  const report = syntheticReport();
  report.results.forEach((result, index) => {
    reporter.onCheckStart(asCheck(result.id), index, report.results.length);
    reporter.onCheckEnd(result, index, report.results.length);
  });
  reporter.finish(report, { reportFiles: ['reports/x/junit.xml', 'reports/x/report.html'] });
  return out.text();
}

describe('console reporter', () => {
  it('prints one line per check and no colour codes when not on a terminal', () => {
    const text = play(false);
    expect(text).not.toContain('\x1b');
    expect(text).toContain('[1/6] auth.token-exchange passed 120 ms\n');
    expect(text).toContain('[3/6] jobs.state-machine failed (2 failures) 1 min 1 s\n');
    expect(text).toContain('[5/6] webhooks.signature skipped: needs --webhook-url');
  });

  it('summarises the areas with a failure, one line per failure cause with its count and checks, the totals, the seed and the replay command', () => {
    const text = play(false);
    expect(text).toContain('auth  1 passed, 1 failed, 0 skipped: auth.token-type');
    expect(text).toContain('jobs  1 passed, 1 failed, 0 skipped: jobs.state-machine');
    expect(text).toContain('other areas: webhooks 0/1, isolation 0/1 (passed/checks)');
    expect(text).toContain('2 checks skipped (not covered by the verdict): needs --webhook-url: a public URL <that> forwards & more (1); needs --second-api-key (1)');
    expect(text).toContain('Failures by cause: 3 failures in 2 checks, 3 causes (every failure in full in the reports below)');
    expect(text).toContain('  1× [illegal-transition-rejected] after enqueue, cancel answered 500 second line (HTTP 500) — jobs.state-machine');
    expect(text).not.toContain('counterexample'); // in the JSON and HTML reports only
    expect(text).toContain('  replay the failed checks: CONFORM_API_KEY="$CONFORM_API_KEY" npm run conform -- --base-url https://staging.example.test --contract v1.3.0 --profile sandbox --seed 424242 --runs 50 --only auth.token-type,jobs.state-machine');
    expect(text).toMatch(/^2 passed, 2 failed, 2 skipped in 1 min 6 s: NOT CERTIFIED$/m);
    expect(text).toContain('seed 424242; replay: CONFORM_API_KEY="$CONFORM_API_KEY" npm run conform -- --base-url https://staging.example.test');
    expect(text).toContain('reports: reports/x/junit.xml, reports/x/report.html');
  });

  it('prints ninety failures of one cause as one line with the count and the check ids', () => {
    const report = syntheticReport();
    const notImplemented = (n: number): CheckResult => ({
      id: `operations.op-${n}`,
      title: `operation ${n}`,
      area: 'operations',
      verdict: 'failed',
      failures: [{ rule: 'response-conformance', message: `job 3f9c0a7e-1b2d-4c5e-8f90-${String(n).padStart(12, '0')}: status 501 is not documented (not implemented)`, exchange: { ...report.results[1]!.failures[0]!.exchange!, response: { status: 501, headers: {}, body: {}, text: '' } } }],
      durationMs: 5,
      requests: 1,
    });
    report.results.push(...Array.from({ length: 90 }, (_, n) => notImplemented(n)));
    report.totals.failed += 90;
    const lines = renderConsoleSummary(report, { quiet: true, width: 240 }).split('\n');
    const grouped = lines.filter((line) => line.includes('not implemented'));
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatch(/^ {2}90× \[response-conformance\] job 3f9c0a7e-.*: status 501 is not documented \(not implemented\) \(HTTP 501\) — 90 checks: operations\.op-0, operations\.op-1, operations\.op-2, \+87$/);
    expect(lines.findIndex((line) => line.includes('90×'))).toBeLessThan(lines.findIndex((line) => line.includes('[token-type]')));
    // 92 failed checks are too many to name in a command: one is, and the JSON report holds the rest.
    expect(lines.find((line) => line.startsWith('  replay one failed check:'))).toMatch(/--only auth\.token-type \(the 92 failed checks' ids are in the JSON report\)$/);
  });

  it("fits one screen for issue 26's run: 1,362 failures in 133 checks, every line within the terminal width but the replay commands", () => {
    for (const width of [80, 120, 200]) {
      const text = renderConsoleSummary(manyFailuresReport(), { width, reportFiles: ['reports/x/junit.xml', 'reports/x/report.json', 'reports/x/report.html', 'reports/x/coverage.json'] });
      const lines = text.trimEnd().split('\n');
      expect(lines.length).toBeLessThanOrEqual(40);
      expect(lines.filter((line) => line.length > width && !line.includes('npm run conform') && !line.startsWith('reports:'))).toEqual([]);
      expect(text).toContain('1362 failures in 133 checks, 17 causes');
      expect(text).toContain('… and 7 more causes');
      expect(text).toContain("the 133 failed checks' ids are in reports/x/report.json");
    }
    expect(renderConsoleSummary(manyFailuresReport(), { width: 200, reportFiles: ['reports/x/report.json', 'reports/x/report.html'] })).toContain('"Failures by cause" in reports/x/report.html');
  });

  it('says how many checks a --max-duration left not run, and never certifies such a run', () => {
    const report = syntheticReport();
    report.results = report.results.filter((result) => result.verdict === 'passed');
    report.results.push({ id: 'jobs.late', title: 'late', area: 'jobs', verdict: 'not run', reason: 'not run: --max-duration 90s reached', failures: [], durationMs: 0, requests: 0 });
    report.totals = { passed: 2, failed: 0, skipped: 0, notRun: 1 };
    report.stopped = { maxDurationMs: 90_000, notRun: 1 };
    const text = renderConsoleSummary(report);
    expect(text).toContain('1 check not run: --max-duration reached');
    expect(text).toMatch(/^2 passed, 0 failed, 0 skipped, 1 not run in .*: NOT CERTIFIED$/m);
  });

  it('on a terminal, draws a progress bar with the checks done and the time left, and keeps only failures', () => {
    let clock = 0;
    const out = capture(true);
    const report = syntheticReport();
    const weights = Object.fromEntries(report.results.map((result) => [result.id, 1000]));
    const reporter = createConsoleReporter({ stream: out.stream, plan: { weights }, now: () => clock });
    report.results.forEach((result, index) => {
      reporter.onCheckStart(asCheck(result.id), index, report.results.length);
      clock += 1000;
      reporter.onCheckEnd(result, index, report.results.length);
    });
    const during = out.text();
    // After one check of six weighing the same, one second in: five seconds left.
    expect(during).toMatch(/1\/6 checks \| 1\.0 s \| time left 5\.0 s/);
    expect(during).toContain('auth.token-exchange');
    expect(during).toContain('jobs.state-machine \x1b[2m(2 failures)');
    expect(during).not.toContain('auth.token-exchange passed');
    reporter.finish(report);
    expect(out.text()).toContain('\x1b[31;1mNOT CERTIFIED'); // colour on a terminal
  });

  it('is quiet when asked: no progress, no table', () => {
    const text = play(false, { quiet: true });
    expect(text).not.toContain('[1/6]');
    expect(text).not.toContain('auth  1 passed');
    expect(text).toContain('2 passed, 2 failed, 2 skipped');
    expect(text).toContain('[token-type]');
  });

  it('adds the selection of a partial run to the replay command', () => {
    const text = renderConsoleSummary(syntheticReport(), { only: ['auth', 'jobs.list'] });
    expect(text).toContain('--runs 50 --only auth,jobs.list');
  });
});
