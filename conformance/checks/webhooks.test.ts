// The webhook checks against the simulator: they pass on a healthy one (simulator profile with the control
// API, and sandbox profile with real waiting), and each webhooks.* defect makes its named check fail.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../contracts/lib/prism.js';
import { startSimulatorProcess, type SimulatorProcess } from '../../simulator/testing/process.js';
import { runSuite } from '../harness/runner.js';
import type { RunReport, TargetOptions } from '../harness/types.js';
import { webhookChecks } from './webhooks.js';

const ADMIN = 'webhooks-test-admin';
const KEY = 'tfk_webhooks_test_key';

const start = (extra: Record<string, string> = {}) =>
  startSimulatorProcess({
    SIM_DB: path.join(mkdtempSync(path.join(os.tmpdir(), 'conf-webhooks-')), 'store.json'),
    SIM_ADMIN_TOKEN: ADMIN,
    SIM_INTEGRATION_KEY: KEY,
    SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
    SIM_JOB_START_DELAY_MS: '50',
    SIM_JOB_PROCESSING_MS: '100',
    ...extra,
  });

const options = (sim: SimulatorProcess, extra: Partial<TargetOptions> = {}): TargetOptions => ({
  baseUrl: sim.url,
  apiKey: KEY,
  adminToken: ADMIN,
  contract: 'v1.3.0',
  profile: 'simulator',
  seed: 20261121,
  runs: 10,
  ...extra,
});

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message}`).join('')}`).join('\n');

describe('webhook checks against a healthy simulator', () => {
  let sim: SimulatorProcess;
  beforeAll(async () => {
    sim = await start();
  });
  afterAll(async () => {
    await sim?.kill();
  });

  it('all pass in the simulator profile', async () => {
    const report = await runSuite(options(sim), webhookChecks);
    expect(report.results.map((r) => r.id)).toEqual(webhookChecks.map((c) => c.id));
    expect(report.results.filter((r) => r.verdict !== 'passed'), describeResults(report)).toEqual([]);
  }, 120_000);

  it('pass in the sandbox profile without the control API (the retry schedule is skipped: it needs admin)', async () => {
    const port = await freePort();
    process.env.CONFORM_WEBHOOK_PORT = String(port);
    try {
      const report = await runSuite(options(sim, { profile: 'sandbox', adminToken: undefined, webhookUrl: `http://127.0.0.1:${port}/webhooks` }), webhookChecks);
      const verdicts = Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));
      expect(verdicts, describeResults(report)).toEqual({
        ...Object.fromEntries(webhookChecks.map((c) => [c.id, 'passed'])),
        'webhooks.retry-schedule': 'skipped',
      });
    } finally {
      delete process.env.CONFORM_WEBHOOK_PORT;
    }
  }, 180_000);
});

// The webhooks.* defects of the simulator's catalogue and the check meant to catch each.
const DEFECTS: Array<[string, string]> = [
  ['webhooks.bad-signature', 'webhooks.signature'],
  ['webhooks.missing-signature', 'webhooks.signature'],
  ['webhooks.delivery-id-changes', 'webhooks.retry-schedule'],
  ['webhooks.wrong-event-header', 'webhooks.delivery'],
  ['webhooks.retry-too-early', 'webhooks.retry-schedule'],
  ['webhooks.event-filter-ignored', 'webhooks.event-filter'],
];

describe.each(DEFECTS)('with the defect %s', (defect, checkId) => {
  let sim: SimulatorProcess;
  beforeAll(async () => {
    sim = await start({ SIM_DEFECTS: defect });
  });
  afterAll(async () => {
    await sim?.kill();
  });

  it(`${checkId} fails`, async () => {
    const report = await runSuite(options(sim, { only: [checkId] }), webhookChecks);
    expect(report.results.map((r) => r.id)).toEqual([checkId]);
    expect(report.results[0].verdict, describeResults(report)).toBe('failed');
    // Failed on a webhook rule, not because the check broke.
    expect(report.results[0].failures.some((f) => f.rule.startsWith('webhook-')), describeResults(report)).toBe(true);
  }, 120_000);
});

// A server that does not refuse what it should: the sandbox's local-testing allow list lets a blocked
// address and a plain-HTTP host through, as a server without the rules would.
describe('with blocked targets let through (SIM_WEBHOOK_ALLOW_TARGETS)', () => {
  let sim: SimulatorProcess;
  beforeAll(async () => {
    sim = await start({ SIM_WEBHOOK_ALLOW_TARGETS: '127.0.0.1,10.0.0.5,hooks.example.com' });
  });
  afterAll(async () => {
    await sim?.kill();
  });

  it('webhooks.ssrf-refused-at-enqueue and webhooks.https-required-with-secret fail, with a replayable counterexample', async () => {
    const ids = ['webhooks.ssrf-refused-at-enqueue', 'webhooks.https-required-with-secret'];
    const report = await runSuite(options(sim, { only: ids }), webhookChecks);
    expect(report.results.map((r) => [r.id, r.verdict]), describeResults(report)).toEqual(ids.map((id) => [id, 'failed']));
    const [ssrf, https] = report.results;
    const refused = ssrf.failures.find((f) => f.rule === 'webhook-ssrf-refused');
    expect(refused, describeResults(report)).toBeDefined();
    expect(refused!.counterexample).toContain('10.0.0.5');
    expect(refused!.seed).toBe(20261121);
    expect(refused!.replay).toContain('--only webhooks.ssrf-refused-at-enqueue');
    expect(ssrf.failures.some((f) => f.rule === 'webhook-ssrf-no-job'), describeResults(report)).toBe(true);
    expect(https.failures.map((f) => f.rule)).toEqual(['webhook-https-with-secret', 'webhook-https-with-secret']);
  }, 120_000);
});
