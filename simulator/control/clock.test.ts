// Tenant clocks over HTTP (sandbox control API): advancing one tenant's clock moves only that tenant's time,
// so an integrator skipping an hour expires its own tokens and nobody else's.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A new tenant (POST /_sim/tenants) and a bearer token exchanged for its integration key. */
async function tenantWithToken(s: TestSandbox, name: string): Promise<{ tenantId: string; token: string }> {
  const created = await s.admin('POST', '/_sim/tenants', { name });
  expect(created.status).toBe(201);
  const exchanged = await s.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': created.body.integrationKey } });
  expect(exchanged.status).toBe(200);
  return { tenantId: created.body.tenantId, token: exchanged.body.access_token };
}

describe('tenant clocks', () => {
  it("advancing one tenant's clock by an hour expires that tenant's token only, and shows it an hour ahead", async () => {
    sandbox = await startTestSandbox();
    const a = await tenantWithToken(sandbox, 'Importer A');
    const b = await tenantWithToken(sandbox, 'Importer B');
    for (const { token } of [a, b]) expect((await sandbox.call('GET', '/api/jobs', { token })).status).toBe(200);

    const advanced = await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 3601, tenantId: a.tenantId });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ tenantId: a.tenantId, offsetSeconds: 3601 });

    const expired = await sandbox.call('GET', '/api/jobs', { token: a.token });
    expect([expired.status, expired.body.code]).toEqual([401, 'INVALID_TOKEN']);
    expect((await sandbox.call('GET', '/api/jobs', { token: b.token })).status).toBe(200);

    const sandboxClock = await sandbox.admin('GET', '/_sim/clock');
    const clockA = await sandbox.admin('GET', `/_sim/clock?tenantId=${a.tenantId}`);
    const clockB = await sandbox.admin('GET', `/_sim/clock?tenantId=${b.tenantId}`);
    expect([sandboxClock.status, clockA.status, clockB.status]).toEqual([200, 200, 200]);
    expect(sandboxClock.body.tenantId).toBeUndefined();
    expect(sandboxClock.body.offsetSeconds).toBe(0);
    expect(clockA.body).toMatchObject({ tenantId: a.tenantId, offsetSeconds: sandboxClock.body.offsetSeconds + 3601 });
    expect(clockB.body).toMatchObject({ tenantId: b.tenantId, offsetSeconds: sandboxClock.body.offsetSeconds });
    // Real time passes between the reads: A is an hour and a second ahead, give or take that.
    const aheadMs = Date.parse(clockA.body.now) - Date.parse(sandboxClock.body.now);
    expect(aheadMs).toBeGreaterThanOrEqual(3601_000);
    expect(aheadMs).toBeLessThan(3601_000 + 5_000);
  });

  it('answers 404 for an unknown tenant, on advance and on read, and moves no clock', async () => {
    sandbox = await startTestSandbox();
    const unknown = randomUUID();
    const advance = await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 3601, tenantId: unknown });
    expect([advance.status, advance.body.code]).toEqual([404, 'NOT_FOUND']);
    const read = await sandbox.admin('GET', `/_sim/clock?tenantId=${unknown}`);
    expect([read.status, read.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await sandbox.admin('GET', '/_sim/clock')).body.offsetSeconds).toBe(0);
    expect((await sandbox.call('GET', '/api/jobs')).status).toBe(200);
  });
});
