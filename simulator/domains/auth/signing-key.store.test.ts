import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../../testing/kernel.js';
import { memoryShared } from '../../testing/memory-shared.js';
import { signingKeyStore } from './signing-key.store.js';

const RECORD = 'jwt-hs256';

describe('the signing key store', () => {
  it('reads the stored secret every time on a store one process owns', async () => {
    const deps = await createTestDeps();
    const keys = signingKeyStore(deps);
    const first = await keys.current();
    await deps.store.clear();
    expect(Buffer.from(await keys.current()).equals(Buffer.from(first))).toBe(false);
  });

  it('keeps the secret on a shared store until told to forget it (a reset, here or elsewhere)', async () => {
    const base = await createTestDeps();
    const deps = { ...base, store: memoryShared(base.store).instance('a') };
    const keys = signingKeyStore(deps);
    const first = Buffer.from(await keys.current());
    // Another instance reset the sandbox and made a new secret: this one answers the kept one...
    await base.store.clear();
    await base.store.collection<{ id: string; secret: string; createdAt: string }>('authSigningKeys').put({ id: RECORD, secret: 'another-secret', createdAt: '' });
    expect(Buffer.from(await keys.current()).equals(first)).toBe(true);
    // ...until the cluster sync tells it the sandbox was reset.
    keys.forget();
    expect(Buffer.from(await keys.current()).toString()).toBe('another-secret');
  });
});
