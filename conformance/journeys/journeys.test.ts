// The journeys against the simulator: each walks its workflow to the end on the healthy simulator, and
// fails, on the rule of the invariant meant for it, with the defect that breaks that invariant switched on
// (the self-test in conformance/self-test proves the full list). `--only journeys.b` selects one journey.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport } from '../harness/types.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';
import { journeyChecks } from './index.js';

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'journeys' });
}, 60_000);
afterAll(async () => target?.close());

const run = (ids: string[]) => runSuite(target.options({ only: ids }), journeyChecks.filter((c) => ids.includes(c.id)));
const summary = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');

describe('the journeys against the simulator', () => {
  it('walk workflows A, B and C to the end on the healthy simulator', async () => {
    await target.setDefects([]);
    const report = await run(journeyChecks.map((c) => c.id));
    expect(report.results.map((r) => `${r.id} ${r.verdict}`), summary(report)).toEqual(['journeys.a passed', 'journeys.b passed', 'journeys.c passed']);
  }, 120_000);

  it.each([
    ['journeys.a', 'sima.summary-counts-stale', 'journey-summary-matches-results', /^step 7 of A \(summary\)/],
    ['journeys.a', 'sima.job-outcomes-off', 'journey-outcomes-match-results', /^step 6 of A \(results\)/],
    ['journeys.b', 'trade.apply-drops-last-row', 'applied-rows-screened', /^step 9 of B \(catalog screening results\)/],
    ['journeys.c', 'claims.packet-other-tenant', 'packet-isolated', /^step \d+ of C \(packet\)/],
    ['journeys.c', 'ship.claim-moves-finding-status', 'claim-findings-keep-workflow', /^step \d+ of C \(submit, acknowledge, confirm credit\): after the submission's submit/],
  ])('%s fails with %s on rule %s, naming the step', async (check, defect, rule, step) => {
    const report = await target.withDefects([defect], () => run([check]));
    const failures = report.results[0].failures.filter((f) => f.rule === rule);
    expect(report.results[0].verdict, summary(report)).toBe('failed');
    expect(failures.length, summary(report)).toBeGreaterThan(0);
    expect(failures[0].message).toMatch(step);
  }, 120_000);
});

describe('a journey runs alone', () => {
  it('`--list --only journeys.b` lists exactly journeys.b', async () => {
    let out = '';
    const code = await main(['--list', '--only', 'journeys.b'], {}, { stdout: { isTTY: false, write: (chunk: string) => (out += chunk) }, stderr: { isTTY: false, write: () => true } });
    expect(code).toBe(0);
    const ids = out.trim().split('\n').slice(0, -1).map((line) => line.split(/\s+/)[0]);
    expect(ids).toEqual(['journeys.b']);
    expect(out).toMatch(/^1 of \d+ checks$/m);
  });
});
