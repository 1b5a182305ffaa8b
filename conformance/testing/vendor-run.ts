// Test support: the suite as a vendor runs it against a server it does not control (issue 26): the `sandbox`
// or `readonly` profile, the sandbox's own limits (no /_sim call by the suite), a second tenant and a webhook
// receiver the test sets up through the control API beforehand, as an operator would hand them out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort } from '../../contracts/lib/prism.js';
import { checksFor } from '../checks/index.js';
import { loadTargetContract } from '../harness/contract.js';
import { runSuite } from '../harness/runner.js';
import type { Profile, RunReport } from '../harness/types.js';
import { TEST_SEED, type TestTarget } from './simulator.js';

export interface VendorRun {
  report: RunReport;
  seconds: number;
}

/** What an operator hands a vendor for the sandbox profile: a second tenant's key, a reachable receiver. */
export interface VendorSetup {
  secondApiKey: string;
  webhookUrl: string;
}

/**
 * Through the control API, as the operator: a second tenant, and the webhook receiver's local address
 * allowed (spec 6 rule 4 refuses loopback targets otherwise). The suite's receiver listens on
 * CONFORM_WEBHOOK_PORT (runner.ts), the port chosen here.
 */
export async function vendorSetup(target: Pick<TestTarget, 'control'>): Promise<VendorSetup> {
  const second = await target.control<{ integrationKey: string }>('POST', '/_sim/tenants', { name: 'Vendor run: second tenant' });
  const port = await freePort();
  await target.control('PUT', '/_sim/webhooks/allow-targets', { targets: [`127.0.0.1:${port}`] });
  process.env.CONFORM_WEBHOOK_PORT = String(port);
  return { secondApiKey: second.integrationKey, webhookUrl: `http://127.0.0.1:${port}/conformance` };
}

/** The suite in `profile` against `target`, every check of v1.3.0, no control API, the CLI's default runs. */
export async function runAsVendor(target: Pick<TestTarget, 'url' | 'apiKey'>, profile: Profile, setup?: VendorSetup): Promise<VendorRun> {
  const started = performance.now();
  const report = await runSuite(
    { baseUrl: target.url, apiKey: target.apiKey, contract: 'v1.3.0', profile, seed: TEST_SEED, runs: 100, ...(setup ?? {}) },
    checksFor(loadTargetContract('v1.3.0')),
  );
  const run = { report, seconds: (performance.now() - started) / 1000 };
  // For measuring a run's budget check by check (requests per bucket, durations): the whole report as JSON.
  if (process.env.CONFORM_VENDOR_REPORT_DIR) {
    mkdirSync(process.env.CONFORM_VENDOR_REPORT_DIR, { recursive: true });
    writeFileSync(join(process.env.CONFORM_VENDOR_REPORT_DIR, `${profile}-${Date.now()}.json`), JSON.stringify({ seconds: run.seconds, ...report }, (key, value) => (key === 'exchange' ? undefined : value), 1));
  }
  return run;
}

export const vendorLine = ({ report, seconds }: VendorRun) =>
  `${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals.skipped} skipped in ${seconds.toFixed(0)} s; ` +
  `requests per bucket ${JSON.stringify(report.traffic?.sent)}, 429s ${JSON.stringify(report.traffic?.limited)}, waited ${Math.round((report.traffic?.waitedMs ?? 0) / 1000)} s` +
  report.results
    .filter((r) => r.verdict === 'failed')
    .map((r) => `\n  failed ${r.id}: ${r.failures.map((f) => `[${f.rule}] ${f.message}`).join(' | ').slice(0, 300)}`)
    .join('');

/** A hook that starts a target and runs a profile: the run's bound, and room to start and stop the target. */
export const RUN_HOOK_MS = 22 * 60_000;

/** CERTIFIED (report.html's rule): no check failed and at least one passed; and no check skipped for the limits. */
export function expectCertified({ report }: VendorRun) {
  const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.id}: ${r.failures.map((f) => `${f.rule}: ${f.message}`).join(' | ').slice(0, 400)}`);
  expect(failed).toEqual([]);
  expect(report.totals.passed).toBeGreaterThan(0);
  const skippedForLimits = report.results.filter((r) => r.verdict === 'skipped' && /rate.?limit|429|throttl/i.test(r.reason ?? ''));
  expect(skippedForLimits.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
}
