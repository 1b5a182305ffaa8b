// The isolation checks against the simulator run as a process: they pass on a healthy simulator (simulator
// profile, and sandbox profile with two tenants' keys), are skipped without a second tenant, and each defect
// of the catalogue meant for them (DEFECT_EXPECTATIONS) makes exactly the checks listed for it fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/runner.js';
import type { RunReport } from '../harness/types.js';
import { defectsCaughtBy, startTestTarget, type TestTarget } from '../testing/simulator.js';
import { isolationChecks } from './isolation.js';

const IDS = isolationChecks.map((c) => c.id);

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'isolation-test' });
});
afterAll(async () => {
  await target?.close();
});

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');

/** A tenant's key with the upload scope (carrier agreements need ship:upload), its buckets raised. */
async function tenantKey(name: string): Promise<string> {
  const admin = (path: string, method: string, body: unknown) =>
    fetch(`${target.url}${path}`, { method, headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((res) => res.json());
  const created = (await admin('/_sim/tenants', 'POST', { name, scopes: ['ship:upload'] })) as { tenantId: string; integrationKey: string };
  await admin(`/_sim/tenants/${created.tenantId}/settings`, 'PUT', { rateLimits: { upload: { limit: 1_000, windowMs: 60_000 }, write: { limit: 1_000, windowMs: 60_000 } } });
  return created.integrationKey;
}

describe('isolation checks on a healthy simulator', () => {
  it('pass in the simulator profile', async () => {
    const report = await runSuite(target.options(), isolationChecks);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(IDS.map(() => 'passed'));
  }, 60_000);

  it("pass in the sandbox profile with two tenants' keys, and are skipped without the second", async () => {
    const [apiKey, secondApiKey] = [await tenantKey('Isolation test A'), await tenantKey('Isolation test B')];
    const report = await runSuite(target.options({ profile: 'sandbox', adminToken: undefined, apiKey, secondApiKey }), isolationChecks);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(IDS.map(() => 'passed'));
    const alone = await runSuite(target.options({ profile: 'sandbox', adminToken: undefined, apiKey }), isolationChecks);
    expect(alone.results.map((r) => r.verdict)).toEqual(IDS.map(() => 'skipped'));
  }, 60_000);
});

describe('each defect meant for the isolation checks makes exactly them fail', () => {
  it.each(defectsCaughtBy(IDS))('%s', async (defect, ids) => {
    await target.withDefects([defect], async () => {
      const report = await runSuite(target.options(), isolationChecks);
      const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => r.id);
      expect(failed.sort(), describeResults(report)).toEqual([...ids].sort());
    });
  }, 60_000);
});
