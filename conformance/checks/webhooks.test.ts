// The webhook checks against the simulator: they pass on a healthy one (simulator profile with the control
// API, and sandbox profile with real waiting), and each webhooks.* defect (DEFECT_EXPECTATIONS), switched on
// at run time in the same simulator, makes its named check fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../contracts/lib/prism.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport } from '../harness/types.js';
import { defectsCaughtBy, startTestTarget, TEST_SEED, type TestTarget } from '../testing/simulator.js';
import { webhookChecks } from './webhooks.js';

const RUNS = 10;

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message}`).join('')}`).join('\n');

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'webhooks-test' });
});
afterAll(async () => {
  await target?.close();
});

describe('webhook checks against a healthy simulator', () => {
  it('all pass in the simulator profile', async () => {
    const report = await runSuite(target.options({ runs: RUNS }), webhookChecks);
    expect(report.results.map((r) => r.id)).toEqual(webhookChecks.map((c) => c.id));
    expect(report.results.filter((r) => r.verdict !== 'passed'), describeResults(report)).toEqual([]);
  }, 120_000);

  it('pass in the sandbox profile without the control API (the retry schedule, the attempt timeout, the fifth attempt and the resolved-address probe are skipped: they need admin)', async () => {
    const port = await freePort();
    process.env.CONFORM_WEBHOOK_PORT = String(port);
    try {
      const report = await runSuite(target.options({ runs: RUNS, profile: 'sandbox', adminToken: undefined, webhookUrl: `http://127.0.0.1:${port}/webhooks` }), webhookChecks);
      const verdicts = Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));
      expect(verdicts, describeResults(report)).toEqual({
        ...Object.fromEntries(webhookChecks.map((c) => [c.id, 'passed'])),
        'webhooks.retry-schedule': 'skipped',
        'webhooks.attempt-timeout': 'skipped',
        'webhooks.no-fifth-attempt': 'skipped',
        'webhooks.ssrf-resolved-address': 'skipped',
      });
    } finally {
      delete process.env.CONFORM_WEBHOOK_PORT;
    }
  }, 180_000);
});

// The webhooks.* defects of the simulator's catalogue and the checks meant to catch each.
const DEFECTS = defectsCaughtBy(webhookChecks.map((c) => c.id));

describe('each webhooks defect makes its checks fail', () => {
  it.each(DEFECTS)('with the defect %s, %j fail', async (defect, ids) => {
    const report = await target.withDefects([defect], () => runSuite(target.options({ runs: RUNS, only: ids }), webhookChecks));
    expect(report.results.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const result of report.results) {
      expect(result.verdict, describeResults(report)).toBe('failed');
      // Failed on a webhook rule, not because the check broke.
      expect(result.failures.some((f) => f.rule.startsWith('webhook-')), describeResults(report)).toBe(true);
    }
  }, 120_000);
});

// A server that does not refuse what it should: the sandbox's local-testing allow list lets a blocked
// address and a plain-HTTP host through, as a server without the rules would.
describe('with blocked targets let through (SIM_WEBHOOK_ALLOW_TARGETS)', () => {
  let open: TestTarget;
  beforeAll(async () => {
    open = await startTestTarget({ label: 'webhooks-test', env: { SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1,10.0.0.5,hooks.example.com' } });
  });
  afterAll(async () => {
    await open?.close();
  });

  it('webhooks.ssrf-refused-at-enqueue and webhooks.https-required-with-secret fail, with a replayable counterexample', async () => {
    const ids = ['webhooks.ssrf-refused-at-enqueue', 'webhooks.https-required-with-secret'];
    const report = await runSuite(open.options({ runs: RUNS, only: ids }), webhookChecks);
    expect(report.results.map((r) => [r.id, r.verdict]), describeResults(report)).toEqual(ids.map((id) => [id, 'failed']));
    const [ssrf, https] = report.results;
    const refused = ssrf.failures.find((f) => f.rule === 'webhook-ssrf-refused');
    expect(refused, describeResults(report)).toBeDefined();
    expect(refused!.counterexample).toContain('10.0.0.5');
    expect(refused!.seed).toBe(TEST_SEED);
    expect(refused!.replay).toContain('--only webhooks.ssrf-refused-at-enqueue');
    expect(ssrf.failures.some((f) => f.rule === 'webhook-ssrf-no-job'), describeResults(report)).toBe(true);
    expect(https.failures.map((f) => f.rule)).toEqual(['webhook-https-with-secret', 'webhook-https-with-secret']);
  }, 120_000);
});
