// The advanced trade checks and the per-operation checks of the seven advanced trade operations against the
// simulator: every one passes in the simulator profile, and the ones that assert only what the spec makes
// certain still run (or skip with a reason) in the sandbox profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../harness/admin.js';
import { loadTargetContract } from '../../harness/contract.js';
import { runSuite } from '../../harness/runner.js';
import { startTestTarget, type TestTarget } from '../../testing/simulator.js';
import { checksFor } from '../index.js';
import { advancedTradeChecks } from './index.js';

const OPERATIONS = ['classifyProduct', 'classifyProductBatch', 'applyClassification', 'listClassificationReviews', 'getClassificationReview', 'decideClassificationReview', 'checkCompliance'];
const operationCheckIds = OPERATIONS.flatMap((op) => [`operations.${op}.accepts-valid-input`, `operations.${op}.rejects-invalid-input`]);

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'advanced-trade' });
});
afterAll(async () => target?.close());

const summary = (report: Awaited<ReturnType<typeof runSuite>>) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => ` | ${f.rule}: ${f.message}`).join('').slice(0, 400)}`);

describe('the advanced trade checks against the simulator', () => {
  it('pass in the simulator profile, with the per-operation checks of the seven operations', async () => {
    const ids = [...advancedTradeChecks.map((c) => c.id), ...operationCheckIds];
    const checks = checksFor(loadTargetContract('v1.3.0')).filter((c) => ids.includes(c.id));
    expect(checks.map((c) => c.id).sort()).toEqual([...ids].sort());
    const report = await runSuite(target.options({ only: ids, runs: 25 }), checks);
    expect(report.results.filter((r) => r.verdict !== 'passed').map((r) => summary({ ...report, results: [r] })[0])).toEqual([]);
  }, 120_000);

  it('pass in the sandbox profile, where the sandbox-defined parts are not asserted', async () => {
    // The run above sends every invalid-input constraint once and leaves the write bucket full; the sandbox
    // profile does not move the clock, so the test lets the sandbox's one-minute rate window pass first.
    await new AdminClient(target.url, target.adminToken, () => {}).advanceClock(61);
    const report = await runSuite(target.options({ profile: 'sandbox', only: ['advanced-trade.'] }), advancedTradeChecks);
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => summary({ ...report, results: [r] })[0])).toEqual([]);
  }, 120_000);
});
