// Tenants and their sandbox settings. The only file that touches the `tenants` collection.
import type { KernelDeps } from '../../kernel/deps.js';
import { DEFAULT_RATE_LIMITS } from '../../kernel/http/rate-limit.js';
import { deleteIds } from '../../kernel/store/delete-matching.js';
import type { QueueCaps, Tenant, TenantSettings } from './tenants.types.js';

export const DEFAULT_QUEUE_CAPS: QueueCaps = { total: 50, upload: 20, sima: 10, preview: 2 };

export const defaultSettings = (): TenantSettings => ({
  rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
  queueCaps: { ...DEFAULT_QUEUE_CAPS },
  carrierPolicies: {},
  quoteCorridors: [],
  featureFlags: { signup: true },
});

/** Read on every request (rate limits): one frozen copy, never cloned per call. */
const DEFAULTS: TenantSettings = deepFreeze(defaultSettings());

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

// Read on every request (rate limits): merged once per stored tenant record. Records are frozen and replaced
// on every change, so a record is its own cache key and a change is never served stale.
const merged = new WeakMap<Tenant, TenantSettings>();

/** Settings with defaults for anything a tenant has not set (read-only: change a tenant through update()). */
export function settingsOf(tenant: Tenant | undefined): TenantSettings {
  const base = DEFAULTS;
  if (!tenant) return base;
  let settings = merged.get(tenant);
  if (!settings) {
    settings = Object.freeze({
      ...base,
      ...tenant.settings,
      rateLimits: Object.freeze({ ...base.rateLimits, ...tenant.settings.rateLimits }),
      queueCaps: Object.freeze({ ...base.queueCaps, ...tenant.settings.queueCaps }),
    });
    merged.set(tenant, settings);
  }
  return settings;
}

export function tenantStore(deps: KernelDeps) {
  const tenants = deps.store.collection<Tenant, 'createdAt'>('tenants', {
    fields: { createdAt: (t) => t.createdAt },
    indexes: { byCreation: { keys: [], order: [['createdAt', 'asc']] } },
  });
  return {
    get: (id: string) => tenants.get(id),
    /** The first tenant created (the sandbox's default tenant). */
    first: () => tenants.first({ where: {} }),
    count: () => tenants.count(),
    /** A page of tenants, oldest first (the default tenant first): the console's tenant picker. */
    list: async (page: { limit: number; offset: number }) => {
      const { items, total } = await tenants.query({ where: {}, limit: page.limit, offset: page.offset });
      return { tenants: items.map(({ id, name, slug, status, createdAt }) => ({ id, name, slug, status, createdAt })), total };
    },
    async create(input: { name?: string; slug?: string; id?: string; status?: Tenant['status'] } = {}): Promise<Tenant> {
      const id = input.id ?? deps.ids.uuid();
      const now = deps.clock.nowIso();
      return tenants.put({
        id,
        name: input.name ?? 'Sandbox tenant',
        slug: input.slug ?? `sandbox-${id.slice(0, 8)}`,
        status: input.status ?? 'active',
        paymentCustomerId: null,
        settings: defaultSettings(),
        createdAt: now,
        updatedAt: now,
      });
    },
    /** Compare-and-set: a concurrent change of the same tenant is re-read and `change` applied again. */
    update: (id: string, change: (tenant: Tenant) => Tenant): Promise<Tenant | undefined> =>
      tenants.modify(id, (current) => ({ ...change(structuredClone(current)), id, updatedAt: deps.clocks.of(id).nowIso() })),
    settings: async (id: string): Promise<TenantSettings> => settingsOf(await tenants.get(id)),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant record itself. */
    purgeTenant: (id: string) => deleteIds(tenants, [id]),
  };
}

export type TenantStore = ReturnType<typeof tenantStore>;
