// An independent cross-check of the suite and the simulator: the suite's traffic goes through Prism's
// validating proxy in front of the simulator, and Prism must report no contract violation in any response.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundledContract } from '../../contracts/lib/bundle-files.js';
import { startPrism, type PrismServer } from '../../contracts/lib/prism.js';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import { startTestTarget, type TestTarget } from '../testing/simulator.js';

let target: TestTarget;
let prism: PrismServer;
const dir = mkdtempSync(path.join(os.tmpdir(), 'prism-cross-'));

beforeAll(async () => {
  target = await startTestTarget({ label: 'prism', env: { SIM_WEBHOOK_ALLOW_TARGETS: undefined } });
  prism = await startPrism({ mode: 'proxy', contractFile: writeBundledContract('v1.3.0', path.join(dir, 'contract')), upstream: target.url });
});
afterAll(async () => {
  await prism?.stop();
  await target?.close();
});

// Checks whose requests are all valid and whose operations the simulator implements: Prism answers a
// 501 from upstream with its own mock, and flags the suite's deliberately invalid requests, so those stay out.
// jobs.failed-job stays out with the webhook checks: it sends its webhook to the local receiver, which this
// simulator (started without an allow list) refuses as an SSRF target.
const POSITIVE = /^(auth\.token-exchange|jobs\.(?!failed-job)|pagination\.|idempotency\.(replay|independent-without-key)|billing\.|isolation\.)/;

describe('the suite through Prism\'s validating proxy', () => {
  it('sees no response that Prism finds in violation of the contract', async () => {
    const checks = checksFor(loadTargetContract('v1.3.0')).filter((c) => POSITIVE.test(c.id));
    expect(checks.length).toBeGreaterThan(3);
    const report = await runSuite(target.options({ baseUrl: prism.url, adminUrl: target.url, seed: 7, runs: 10 }), checks);
    const responseViolations = prism.output().split('\n').filter((line) => /Violation: response/.test(line));
    expect(responseViolations).toEqual([]);
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => r.id)).toEqual([]);
  });
});
