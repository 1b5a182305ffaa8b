import { readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Store, StoredRecord } from '../../kernel/store/collection.js';
import { authFixture, expectApiError } from './auth.testing.js';
import { hashSecret } from './key.store.js';

/**
 * Every record of a collection, whatever the domain declared for it: the seam has no scan, so the test
 * declares a keyless index over the record id (declaring again only adds) and checks it saw as many
 * records as the collection counts.
 */
async function allRecords(store: Store, name: string): Promise<StoredRecord[]> {
  const collection = store.collection<StoredRecord, 'testEveryRecordId'>(name, {
    fields: { testEveryRecordId: (record) => record.id },
    indexes: { testEveryRecord: { keys: [], order: [['testEveryRecordId', 'asc']] } },
  });
  const { items } = await collection.query({ where: {} });
  expect(items).toHaveLength(await collection.count());
  return items;
}

describe('integration keys', () => {
  it('never stores a key secret in clear: not in any record, not in the journal on disk', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'auth-keys-')), 'store.json');
    const { auth, tenant, deps } = await authFixture({ file });
    const created = await auth.keys.create({ tenantId: tenant.id });
    const pinned = await auth.keys.create({ tenantId: tenant.id, secret: 'pinned-sandbox-key-value' });
    await deps.store.flush();

    const keys = await allRecords(deps.store, 'integrationKeys');
    expect(keys).toHaveLength(2); // the scan below does see the keys
    const records = JSON.stringify([...keys, ...(await allRecords(deps.store, 'authSigningKeys')), ...(await allRecords(deps.store, 'tenants'))]);
    const journal = readFileSync(`${file}.journal`, 'utf8');
    for (const secret of [created.integrationKey, pinned.integrationKey]) {
      expect(records).not.toContain(secret);
      expect(journal).not.toContain(secret);
      expect(journal).toContain(hashSecret(secret)); // what is kept is the hash
    }
    await deps.store.close();
  });

  it('makes keys with the sandbox prefix, a uuid id and a creation time', async () => {
    const { auth, tenant, deps } = await authFixture();
    const before = deps.clock.now();
    const { keyId, integrationKey } = await auth.keys.create({ tenantId: tenant.id });
    expect(integrationKey).toMatch(/^tfk_sbx_[A-Za-z0-9_-]{20,}$/);
    expect(keyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const view = (await auth.keys.get(keyId))!;
    expect(view).toMatchObject({ keyId, tenantId: tenant.id, revokedAt: null, expiresAt: null });
    expect(Date.parse(view.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(view.createdAt)).toBeLessThanOrEqual(deps.clock.now());
  });

  it('keeps a pinned secret usable across repeated creation for the same tenant and refuses it for another', async () => {
    const { auth, tenant, tenants } = await authFixture();
    const first = await auth.keys.create({ tenantId: tenant.id, secret: 'pinned-sandbox-key-value' });
    const again = await auth.keys.create({ tenantId: tenant.id, secret: 'pinned-sandbox-key-value' });
    expect(again).toEqual(first);
    expect(await auth.keys.list(tenant.id)).toHaveLength(1);
    const other = await tenants.create({ name: 'Other' });
    await expectApiError(() => auth.keys.create({ tenantId: other.id, secret: 'pinned-sandbox-key-value' }), 400, 'INVALID_REQUEST');
  });

  it('lists the keys of one tenant only, and reports revocation once', async () => {
    const { auth, tenant, tenants, deps } = await authFixture();
    const other = await tenants.create({ name: 'Other' });
    const a = await auth.keys.create({ tenantId: tenant.id });
    const b = await auth.keys.create({ tenantId: tenant.id });
    await auth.keys.create({ tenantId: other.id });
    expect((await auth.keys.list(tenant.id)).map((k) => k.keyId).sort()).toEqual([a.keyId, b.keyId].sort());

    const before = deps.clock.now();
    const revoked = (await auth.keys.revoke(a.keyId))!;
    expect(Date.parse(revoked.revokedAt!)).toBeGreaterThanOrEqual(before);
    expect((await auth.keys.get(b.keyId))!.revokedAt).toBeNull();
    deps.clock.advance(5_000);
    expect((await auth.keys.revoke(a.keyId))!.revokedAt).toBe(revoked.revokedAt);
    expect(await auth.keys.revoke('no-such-key')).toBeUndefined();
    expect(await auth.keys.get('no-such-key')).toBeUndefined();
  });

  it('refuses bad key settings with 400 INVALID_REQUEST, and an unknown tenant with 404', async () => {
    const { auth, tenant } = await authFixture();
    const bad = [
      { scopes: ['admin:everything'] },
      { allowedAdapters: ['ups-csv'], defaultAdapter: 'fedex-fbo-csv' },
      { expiresAt: 'next tuesday' },
      { secret: 'has a space' },
    ];
    for (const input of bad) {
      await expectApiError(() => auth.keys.create({ tenantId: tenant.id, ...input }), 400, 'INVALID_REQUEST');
    }
    await expectApiError(() => auth.keys.create({ tenantId: '00000000-0000-4000-8000-000000000000' }), 404, 'NOT_FOUND');
  });
});
