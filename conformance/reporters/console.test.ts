import { describe, expect, it } from 'vitest';
import type { Check } from '../harness/check.js';
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

  it('summarises per area, each failure in short, the totals, the seed and the replay command', () => {
    const text = play(false);
    expect(text).toMatch(/check\s+verdict\s+duration\s+failures/);
    expect(text).toContain('auth (1 passed, 1 failed, 0 skipped)');
    expect(text).toMatch(/ {2}jobs\.state-machine\s+failed\s+1 min 1 s\s+2/);
    expect(text).toContain('    [illegal-transition-rejected] after enqueue, cancel answered 500 second line');
    expect(text).toContain('      POST https://staging.example.test/api/sima/batch?x=1&y=<2> -> 500');
    expect(text).toContain('      counterexample: [Enqueue({"skus":["A&B"]}), Cancel(), Poll()]');
    expect(text).toContain('    replay: npm run conform -- --base-url https://staging.example.test --api-key $API_KEY --contract v1.3.0 --profile sandbox --seed 424242 --runs 50 --only auth.token-type');
    expect(text).toMatch(/^2 passed, 2 failed, 2 skipped in 1 min 6 s: NOT CERTIFIED$/m);
    expect(text).toContain('seed 424242; replay: npm run conform -- --base-url https://staging.example.test');
    expect(text).toContain('reports: reports/x/junit.xml, reports/x/report.html');
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
