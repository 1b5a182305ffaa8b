// The idempotency checks against the simulator run as a process: they pass on a healthy simulator (simulator
// profile with the control API; sandbox profile with two tenants' keys and no control API; readonly skips
// them), the expiry check follows the expiry the sandbox states, and each defect of the catalogue meant for
// these checks (DEFECT_EXPECTATIONS) makes exactly the checks listed for it fail and no other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../harness/runner.js';
import type { RunReport } from '../../harness/types.js';
import { defectsCaughtBy, startTestTarget, type TestTarget } from '../../testing/simulator.js';
import { idempotencyChecks } from './index.js';

const IDS = idempotencyChecks.map((c) => c.id);

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'idempotency-test' });
});
afterAll(async () => {
  await target?.close();
});

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');
const verdicts = (report: RunReport) => Object.fromEntries(report.results.map((r) => [r.id, r.verdict]));

/** A tenant's integration key through the control API, its upload bucket raised so a run is not throttled. */
async function tenantKey(name: string): Promise<string> {
  const admin = (path: string, method: string, body: unknown) =>
    fetch(`${target.url}${path}`, { method, headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((res) => res.json());
  const created = (await admin('/_sim/tenants', 'POST', { name })) as { tenantId: string; integrationKey: string };
  await admin(`/_sim/tenants/${created.tenantId}/settings`, 'PUT', { rateLimits: { upload: { limit: 1_000, windowMs: 60_000 } } });
  return created.integrationKey;
}

describe('idempotency checks on a healthy simulator', () => {
  it('pass in the simulator profile', async () => {
    const report = await runSuite(target.options(), idempotencyChecks);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(IDS.map(() => 'passed'));
  }, 60_000);

  it('pass in the sandbox profile with two tenants\' keys, the expiry check skipped (it needs the simulator profile)', async () => {
    const [apiKey, secondApiKey] = [await tenantKey('Idempotency test A'), await tenantKey('Idempotency test B')];
    const report = await runSuite(target.options({ profile: 'sandbox', adminToken: undefined, apiKey, secondApiKey }), idempotencyChecks);
    expect(verdicts(report), describeResults(report)).toEqual(Object.fromEntries(IDS.map((id) => [id, id === 'idempotency.expiry' ? 'skipped' : 'passed'])));
    expect(report.results.find((r) => r.id === 'idempotency.expiry')!.reason).toMatch(/simulator profile/);
  }, 120_000);

  it('skip the tenant-scope check in the sandbox profile without a second tenant\'s key, and every check in readonly', async () => {
    const sandbox = await runSuite(target.options({ profile: 'sandbox', adminToken: undefined, apiKey: await tenantKey('Idempotency test C'), only: ['idempotency.scope-tenant'] }), idempotencyChecks);
    expect(sandbox.results.map((r) => [r.verdict, r.reason])).toEqual([['skipped', expect.stringMatching(/--second-api-key/)]]);
    const readonly = await runSuite(target.options({ profile: 'readonly', adminToken: undefined }), idempotencyChecks);
    expect(readonly.results.map((r) => r.verdict)).toEqual(IDS.map(() => 'skipped'));
  }, 60_000);
});

describe('the expiry check follows the expiry the sandbox states', () => {
  it('passes on a simulator keeping keys 10 minutes, and catches idempotency.expires-early there too', async () => {
    const short = await startTestTarget({ label: 'idempotency-ttl-test', env: { SIM_IDEMPOTENCY_TTL_SECONDS: '600' } });
    try {
      const healthy = await runSuite(short.options({ only: ['idempotency.expiry'] }), idempotencyChecks);
      expect(healthy.results.map((r) => r.verdict), describeResults(healthy)).toEqual(['passed']);
      const early = await short.withDefects(['idempotency.expires-early'], () => runSuite(short.options({ only: ['idempotency.expiry'] }), idempotencyChecks));
      expect(early.results[0].failures.map((f) => f.rule), describeResults(early)).toContain('idempotency-before-expiry');
      expect(early.results[0].failures[0].message).toContain('keeps keys 600 s');
    } finally {
      await short.close();
    }
  }, 60_000);
});

/** The defects of the catalogue meant for these checks, and the checks that must catch each. */
const DEFECTS = defectsCaughtBy(IDS);

describe('each defect meant for these checks makes exactly its checks fail', () => {
  it('covers every idempotency defect of the kernel', () => {
    expect(DEFECTS.map(([defect]) => defect)).toEqual(expect.arrayContaining(['idempotency.scope-ignores-endpoint', 'idempotency.scope-ignores-tenant', 'idempotency.upload-key-ignored', 'idempotency.payload-not-normalized', 'idempotency.never-expires', 'idempotency.expires-early']));
  });

  it.each(DEFECTS)('%s', async (defect, ids) => {
    const report = await target.withDefects([defect], () => runSuite(target.options(), idempotencyChecks));
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => r.id);
    expect(failed.sort(), describeResults(report)).toEqual([...ids].sort());
    expect(report.results.filter((r) => r.verdict === 'skipped').map((r) => r.id), describeResults(report)).toEqual([]);
    for (const result of report.results.filter((r) => r.verdict === 'failed')) expect(result.failures.every((f) => f.exchange !== undefined)).toBe(true);
  }, 60_000);
});
