// Issue 26: in the sandbox profile with a second tenant's key, the operation checks send their requests as
// whichever key the upload bucket serves sooner, once a 429 shows the bucket is counted per key. The same
// checks keep their verdicts: a defect they catch is still caught, the healthy server still passes, and both
// tenants were written in. The two tenants get a small upload bucket (the control API, as their operator) so
// that the spreading starts within a few seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksFor } from '../index.js';
import { loadTargetContract } from '../../harness/contract.js';
import { runSuite } from '../../harness/runner.js';
import type { RunReport } from '../../harness/types.js';
import { startTestTarget, TEST_SEED, type TestTarget } from '../../testing/simulator.js';

const CHECKS = ['operations.uploadSimaScreeningFile.accepts-valid-input', 'operations.normalizations'];
const UPLOADS = { limit: 6, windowMs: 5_000 };

let target: TestTarget;
let keys: { primary: string; second: string };

async function tenant(name: string): Promise<{ integrationKey: string; tenantId: string }> {
  const created = await target.control<{ integrationKey: string; tenantId: string }>('POST', '/_sim/tenants', { name });
  await target.control('PUT', `/_sim/tenants/${created.tenantId}/settings`, {
    rateLimits: { read: { limit: 100_000, windowMs: 60_000 }, write: { limit: 100_000, windowMs: 60_000 }, upload: UPLOADS },
    queueCaps: { total: 100_000, upload: 100_000 },
  });
  return created;
}

/** Jobs a tenant holds, through the public API. */
async function jobsOf(apiKey: string): Promise<number> {
  const exchange = await fetch(`${target.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': apiKey } });
  const { access_token: token } = (await exchange.json()) as { access_token: string };
  const jobs = await fetch(`${target.url}/api/jobs?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  return ((await jobs.json()) as { count: number }).count;
}

const run = (): Promise<RunReport> =>
  runSuite(
    { baseUrl: target.url, apiKey: keys.primary, secondApiKey: keys.second, contract: 'v1.3.0', profile: 'sandbox', seed: TEST_SEED, runs: 15, only: CHECKS },
    checksFor(loadTargetContract('v1.3.0')),
  );

beforeAll(async () => {
  target = await startTestTarget({ label: 'tenant-agnostic' });
  keys = { primary: (await tenant('Spread: primary')).integrationKey, second: (await tenant('Spread: second')).integrationKey };
});
afterAll(async () => target?.close());

describe('operation checks spread over a second tenant key', () => {
  it('pass the healthy server, learning the upload bucket per key and writing in both tenants', async () => {
    const report = await run();
    expect(report.results.map((r) => `${r.id}: ${r.verdict} ${r.failures.map((f) => f.message).join(' | ').slice(0, 300)}`)).toEqual(CHECKS.map((id) => `${id}: passed `));
    expect(report.traffic?.limited.upload).toBeGreaterThan(0);
    expect(await jobsOf(keys.second)).toBeGreaterThan(0);
  });

  it('still catch a defect they catch alone (sima.screening-authority-strict)', async () => {
    const report = await target.withDefects(['sima.screening-authority-strict'], run);
    expect(report.results.map((r) => `${r.id}: ${r.verdict}`)).toEqual(CHECKS.map((id) => `${id}: failed`));
  });
});
