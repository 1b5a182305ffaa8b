import { describe, expect, it } from 'vitest';
import { createClock } from '../../kernel/clock.js';
import { DEFAULT_RATE_LIMITS } from '../../kernel/http/rate-limit.js';
import { createTestDeps } from '../../testing/kernel.js';
import { DEFAULT_QUEUE_CAPS, defaultSettings, settingsOf, tenantStore } from './tenant.store.js';
import type { Tenant } from './tenants.types.js';

const HOUR_MS = 3_600_000;

// A clock that moves only when advanced, so a timestamp can be compared with the clock's time.
async function store() {
  const deps = await createTestDeps({ clock: createClock({ realNow: () => Date.parse('2026-01-05T09:00:00Z') }) });
  return { deps, tenants: tenantStore(deps) };
}

describe('the tenant store', () => {
  it('creates an active tenant with a slug from its id and the default settings when given nothing', async () => {
    const { deps, tenants } = await store();
    const tenant = await tenants.create();
    expect(tenant).toMatchObject({ name: 'Sandbox tenant', slug: `sandbox-${tenant.id.slice(0, 8)}`, status: 'active', paymentCustomerId: null });
    expect(tenant.settings).toEqual(defaultSettings());
    expect(tenant.createdAt).toBe(deps.clock.nowIso());
    expect(await tenants.get(tenant.id)).toMatchObject({ id: tenant.id, slug: tenant.slug });
  });

  it('gives each tenant its own copy of the defaults, so changing one tenant changes no other', async () => {
    const { tenants } = await store();
    const [a, b] = [await tenants.create({ id: 'tenant-a' }), await tenants.create({ id: 'tenant-b' })];
    await tenants.update(a.id, (t) => ({ ...t, settings: { ...t.settings, queueCaps: { ...t.settings.queueCaps, total: 1 } } }));
    expect((await tenants.settings(a.id)).queueCaps.total).toBe(1);
    expect((await tenants.settings(b.id)).queueCaps.total).toBe(DEFAULT_QUEUE_CAPS.total);
    expect(defaultSettings().queueCaps.total).toBe(DEFAULT_QUEUE_CAPS.total);
  });

  it('answers the oldest tenant as the first, and lists tenants oldest first with the total and only their summary', async () => {
    const { deps, tenants } = await store();
    const first = await tenants.create({ id: 'tenant-1', name: 'First' });
    deps.clock.advance(1000);
    await tenants.create({ id: 'tenant-2' });
    deps.clock.advance(1000);
    await tenants.create({ id: 'tenant-3' });
    expect((await tenants.first())?.id).toBe(first.id);
    expect(await tenants.count()).toBe(3);
    const page = await tenants.list({ limit: 2, offset: 1 });
    expect(page.total).toBe(3);
    expect(page.tenants.map((t) => t.id)).toEqual(['tenant-2', 'tenant-3']);
    expect(Object.keys(page.tenants[0]).sort()).toEqual(['createdAt', 'id', 'name', 'slug', 'status']);
  });

  it('keeps the id and stamps updatedAt with the tenant’s own clock on every update', async () => {
    const { deps, tenants } = await store();
    const tenant = await tenants.create({ id: 'tenant-a' });
    deps.clocks.of(tenant.id).advance(HOUR_MS);
    const updated = await tenants.update(tenant.id, (t) => ({ ...t, id: 'another-id', name: 'Renamed' }));
    expect(updated).toMatchObject({ id: tenant.id, name: 'Renamed', updatedAt: deps.clocks.of(tenant.id).nowIso() });
    expect(updated?.updatedAt).not.toBe(tenant.updatedAt);
    expect(await tenants.get('another-id')).toBeUndefined();
  });

  it('applies two concurrent updates of one tenant both, neither overwriting the other', async () => {
    const { tenants } = await store();
    const tenant = await tenants.create({ id: 'tenant-a' });
    await Promise.all([
      tenants.update(tenant.id, (t) => ({ ...t, settings: { ...t.settings, carrierPolicies: { ...t.settings.carrierPolicies, UPS: { policy: 'manual_import_only' } } } })),
      tenants.update(tenant.id, (t) => ({ ...t, settings: { ...t.settings, featureFlags: { ...t.settings.featureFlags, signup: false } } })),
    ]);
    const settings = await tenants.settings(tenant.id);
    expect(settings.carrierPolicies).toEqual({ UPS: { policy: 'manual_import_only' } });
    expect(settings.featureFlags.signup).toBe(false);
  });

  it('answers undefined when asked to update a tenant that does not exist, and creates nothing', async () => {
    const { tenants } = await store();
    expect(await tenants.update('no-such-tenant', (t) => ({ ...t, name: 'Ghost' }))).toBeUndefined();
    expect(await tenants.count()).toBe(0);
  });

  it('purges one tenant record and leaves every other tenant', async () => {
    const { tenants } = await store();
    await tenants.create({ id: 'tenant-a' });
    await tenants.create({ id: 'tenant-b' });
    await tenants.purgeTenant('tenant-a');
    expect(await tenants.get('tenant-a')).toBeUndefined();
    expect((await tenants.get('tenant-b'))?.id).toBe('tenant-b');
  });
});

describe('a tenant’s settings', () => {
  const tenantWith = (settings: Partial<Tenant['settings']>): Tenant =>
    ({ id: 't', name: 'T', slug: 't', status: 'active', paymentCustomerId: null, settings, createdAt: '', updatedAt: '' }) as Tenant;

  it('are the defaults for an unknown tenant (no record)', () => {
    expect(settingsOf(undefined)).toEqual(defaultSettings());
    expect(settingsOf(undefined).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
  });

  it('keep the default for every rate limit and queue cap the tenant has not set', () => {
    const settings = settingsOf(tenantWith({ rateLimits: { read: { limit: 5, windowMs: 1000 } } as never, queueCaps: { preview: 7 } as never }));
    expect(settings.rateLimits).toEqual({ ...DEFAULT_RATE_LIMITS, read: { limit: 5, windowMs: 1000 } });
    expect(settings.queueCaps).toEqual({ ...DEFAULT_QUEUE_CAPS, preview: 7 });
    expect(settings.featureFlags).toEqual({ signup: true });
  });

  it('are read-only, so a reader cannot change the defaults every other tenant sees', () => {
    const settings = settingsOf(undefined);
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.queueCaps)).toBe(true);
    expect(() => {
      (settings.queueCaps as { total: number }).total = 1;
    }).toThrow(TypeError);
    expect(settingsOf(undefined).queueCaps.total).toBe(DEFAULT_QUEUE_CAPS.total);
  });

  it('are merged once per stored record, and a changed record is never answered with the old settings', async () => {
    const { tenants } = await store();
    const tenant = await tenants.create({ id: 'tenant-a' });
    const stored = (await tenants.get(tenant.id))!;
    expect(settingsOf(stored)).toBe(settingsOf(stored));
    await tenants.update(tenant.id, (t) => ({ ...t, settings: { ...t.settings, queueCaps: { ...t.settings.queueCaps, upload: 3 } } }));
    expect((await tenants.settings(tenant.id)).queueCaps.upload).toBe(3);
    expect(settingsOf(stored).queueCaps.upload).toBe(DEFAULT_QUEUE_CAPS.upload);
  });
});
