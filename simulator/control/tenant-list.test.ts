// GET /_sim/tenants (sandbox-defined, the console's tenant picker): every tenant, oldest first, names and ids
// only, behind the admin token.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('the tenant list of the control API', () => {
  it('lists the default tenant first, then the tenants created, with the total and never a key', async () => {
    const created = [];
    for (const name of ['Importer A', 'Importer B']) created.push((await sandbox.admin('POST', '/_sim/tenants', { name })).body);
    const listed = await sandbox.admin('GET', '/_sim/tenants');
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(3);
    expect(listed.body.tenants.map((t: { id: string }) => t.id)).toEqual([sandbox.identity.tenantId, ...created.map((c) => c.tenantId)]);
    expect(listed.body.tenants[1]).toMatchObject({ name: 'Importer A', status: 'active' });
    expect(JSON.stringify(listed.body)).not.toContain(created[0].integrationKey);
  });

  it('pages with limit and offset while the total counts every tenant', async () => {
    const page = await sandbox.admin('GET', '/_sim/tenants?limit=1&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.total).toBeGreaterThanOrEqual(3);
    expect(page.body.tenants).toHaveLength(1);
    expect(page.body.tenants[0].name).toBe('Importer A');
  });

  it('refuses a request without the admin token', async () => {
    expect((await request(sandbox.server).get('/_sim/tenants')).status).toBe(401);
  });
});
