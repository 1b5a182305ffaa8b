import { describe, expect, it } from 'vitest';
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import { memoryShared } from '../../testing/memory-shared.js';
import { createClock, createTenantClocks } from '../clock.js';
import { openStore } from '../store/store.js';
import { createRateLimiter, type RateLimits } from './rate-limit.js';
import type { Principal } from './types.js';

const read: ContractOperation = { section: 'paths', path: '/api/jobs/{jobId}', method: 'get', operationId: 'getJob', operation: {}, parameters: [], tags: [] };
const limits: RateLimits = { read: { limit: 2, windowMs: 60_000 }, write: { limit: 2, windowMs: 60_000 }, upload: { limit: 2, windowMs: 60_000 } };
const keyOf = (tenantId: string): Principal => ({ type: 'integration', tenantId, keyId: `ik_${tenantId}`, scopes: [], allowedAdapters: null, defaultAdapter: null });

/** Fills the read bucket of both tenants, resets `a`'s, and says who may read again. */
async function afterResetOfA(limiters: ReturnType<typeof createRateLimiter>[]) {
  const [first, second] = [limiters[0], limiters.at(-1)!];
  for (const tenant of ['a', 'b']) {
    await first.consume(keyOf(tenant), read);
    await second.consume(keyOf(tenant), read);
    await expect(first.consume(keyOf(tenant), read)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  }
  await first.reset('a');
  const may = async (tenant: string) => second.consume(keyOf(tenant), read).then(() => true, () => false);
  return { a: await may('a'), b: await may('b') };
}

describe('the rate limiter', () => {
  it("starts a fresh window for a tenant whose limits changed, and leaves another tenant's full bucket full", async () => {
    const clocks = createTenantClocks(createClock());
    expect(await afterResetOfA([createRateLimiter(clocks, async () => limits)])).toEqual({ a: true, b: false });
  });

  it('does so on every instance when the windows are counted in a shared store', async () => {
    const shared = memoryShared(await openStore());
    const clocks = createTenantClocks(createClock());
    const instances = ['one', 'two'].map((id) => createRateLimiter(clocks, async () => limits, { shared: shared.instance(id).shared }));
    expect(await afterResetOfA(instances)).toEqual({ a: true, b: false });
  });
});
