// DELETE /_sim/tenants/{tenantId} over HTTP: the tenant and every record it owns go, its tokens stop working,
// and the other tenants keep theirs. The store is then compacted and its snapshot read back, so a collection
// the purge does not know about (a new domain's) fails this test by name rather than leaking silently.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { auditSamples } from '../domains/ship/ship.testing.js';
import { finishJob } from '../domains/sima/upload.testing.js';
import { normalizedFeed } from '../domains/trade/trade.testing.js';

/** Kept on purpose after a tenant is deleted (tenant-purge.ts): append-only audit evidence, and records
 *  keyed by a hash nobody can reach once the tenant's keys are gone (they expire with the idempotency TTL). */
const KEPT = new Set(['transitions', 'idempotencyKeys']);

let sandbox: TestSandbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Collection name -> ids of the records whose JSON mentions `text`, from the compacted snapshot. */
async function recordsMentioning(s: TestSandbox, file: string, text: string): Promise<Record<string, string[]>> {
  await s.sim.deps.store.flush();
  await s.sim.deps.store.compact();
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { collections: Record<string, Record<string, unknown>> };
  const found: Record<string, string[]> = {};
  for (const [name, records] of Object.entries(snapshot.collections)) {
    const ids = Object.entries(records).filter(([, record]) => JSON.stringify(record).includes(text)).map(([id]) => id);
    if (ids.length && !KEPT.has(name)) found[name] = ids;
  }
  return found;
}

describe('DELETE /_sim/tenants/{tenantId}', () => {
  it("removes the tenant and every record it owns, ends its tokens, and leaves another tenant's data alone", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tenant-purge-'));
    const file = path.join(dir, 'store.json');
    sandbox = await startTestSandbox({ file });
    const victim = sandbox.identity.tenantId;

    // A bystander with data of its own.
    const other = await sandbox.admin('POST', '/_sim/tenants', { name: 'Bystander' });
    const otherToken = (await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': other.body.integrationKey } })).body.access_token;
    const otherJob = await sandbox.call('POST', '/api/sima/batch', { token: otherToken, body: { skus: null } });
    expect(otherJob.status).toBe(202);

    // The victim: a screening with a webhook, a normalized feed, an audited invoice (findings), its own clock.
    const screening = await sandbox.call('POST', '/api/sima/batch', { body: { skus: null, webhookUrl: 'https://hooks.example.com/svc', webhookSecret: 'whsec_purge_test' } });
    expect(screening.status, screening.text).toBe(202);
    await finishJob(sandbox, screening.body.jobId);
    await normalizedFeed(sandbox, 'feed-clean');
    await auditSamples(sandbox);
    expect((await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 60, tenantId: victim })).status).toBe(200);
    // A client check on it, completed with a report naming the tenant (client-checks.ts).
    const check = await sandbox.admin('POST', '/_sim/client-checks', { tenantId: victim, scenario: 'steady', command: 'node client.js', startedAt: '2026-11-27T10:00:00.000Z' });
    expect(check.status, check.text).toBe(201);
    const totals = { passed: 1, failed: 0, warnings: 0, notExercised: 0 };
    const report = `<!doctype html><p>Tenant <code>${victim}</code></p>`;
    expect((await sandbox.admin('PUT', `/_sim/client-checks/${check.body.id}/completion`, { verdict: 'CERTIFIED', totals, rules: [], finishedAt: '2026-11-27T10:01:00.000Z', reportHtml: report })).status).toBe(200);
    const token = await sandbox.token();
    expect(Object.keys(await recordsMentioning(sandbox, file, victim)).length).toBeGreaterThan(5);

    const deleted = await sandbox.admin('DELETE', `/_sim/tenants/${victim}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.tenantId).toBe(victim);
    expect(deleted.body.recordsRemoved).toBeGreaterThan(20);

    expect(await recordsMentioning(sandbox, file, victim)).toEqual({});
    const listed = await sandbox.admin('GET', '/_sim/tenants?limit=500');
    expect(listed.body.tenants.map((t: { id: string }) => t.id)).toEqual([other.body.tenantId]);
    const refused = await sandbox.call('GET', '/api/jobs', { token });
    expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_TOKEN']);
    const again = await sandbox.admin('DELETE', `/_sim/tenants/${victim}`);
    expect([again.status, again.body.code]).toEqual([404, 'NOT_FOUND']);

    const otherJobs = await sandbox.call('GET', '/api/jobs', { token: otherToken });
    expect(otherJobs.body.jobs.map((j: { id: string }) => j.id)).toEqual([otherJob.body.jobId]);
  });
});
