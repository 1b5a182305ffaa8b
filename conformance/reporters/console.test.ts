import { describe, expect, it } from 'vitest';
import type { Check } from '../harness/check.js';
import type { CheckResult } from '../harness/types.js';
import { createConsoleReporter, renderConsoleSummary } from './console.js';
import { syntheticReport } from './reports.testing.js';

function capture(isTTY: boolean) {
  let text = '';
  return { stream: { isTTY, columns: 80, write: (chunk: string) => (text += chunk) }, text: () => text };
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

  it('summarises per area, one line per failure cause with its count and checks, the totals, the seed and the replay command', () => {
    const text = play(false);
    expect(text).toMatch(/check\s+verdict\s+duration\s+failures/);
    expect(text).toContain('auth (1 passed, 1 failed, 0 skipped)');
    expect(text).toMatch(/ {2}jobs\.state-machine\s+failed\s+1 min 1 s\s+2/);
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
    const lines = renderConsoleSummary(report, { quiet: true }).split('\n');
    const grouped = lines.filter((line) => line.includes('not implemented'));
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatch(/^ {2}90× \[response-conformance\] job 3f9c0a7e-.*: status 501 is not documented \(not implemented\) \(HTTP 501\) — 90 checks: operations\.op-0, operations\.op-1, .*operations\.op-5, and 84 more$/);
    expect(lines.findIndex((line) => line.includes('90×'))).toBeLessThan(lines.findIndex((line) => line.includes('[token-type]')));
    expect(lines.find((line) => line.startsWith('  replay the failed checks:'))).toContain('operations.op-89');
  });

  it('on a terminal, updates one progress line and keeps only failures', () => {
    const text = play(true);
    expect(text).toContain('\r\x1b[2K[1/6] auth.token-exchange ...');
    expect(text).toContain('\r\x1b[2K[3/6] jobs.state-machine ...');
    expect(text).toContain('jobs.state-machine \x1b[2m(2 failures)');
    expect(text).not.toContain('[1/6] auth.token-exchange passed');
    expect(text).toContain('\x1b[32m'); // colour on a terminal
  });

  it('is quiet when asked: no progress, no table', () => {
    const text = play(false, { quiet: true });
    expect(text).not.toContain('[1/6]');
    expect(text).not.toContain('auth (1 passed');
    expect(text).toContain('2 passed, 2 failed, 2 skipped');
    expect(text).toContain('[token-type]');
  });

  it('adds the selection of a partial run to the replay command', () => {
    const text = renderConsoleSummary(syntheticReport(), { only: ['auth', 'jobs.list'] });
    expect(text).toContain('--runs 50 --only auth,jobs.list');
  });
});
