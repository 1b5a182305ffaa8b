// Tenants and their sandbox settings. The only file that touches the `tenants` collection.
import type { KernelDeps } from '../../kernel/deps.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../kernel/http/rate-limit.js';

/** Tenant queue-admission caps on PENDING + PROCESSING jobs (spec 8.2); values are the sandbox's. */
export interface QueueCaps {
  total: number;
  upload: number;
  sima: number;
  /** Spec 8.4: in-flight classify-preview jobs. */
  preview: number;
}

export const DEFAULT_QUEUE_CAPS: QueueCaps = { total: 50, upload: 20, sima: 10, preview: 2 };

export interface TenantSettings {
  rateLimits: RateLimits;
  queueCaps: QueueCaps;
  /** carrier code -> policy (e.g. manual_import_only blocks claim actions, spec 4.5 rule 4). */
  carrierPolicies: Record<string, { policy: string }>;
  /** Landed-cost quote corridors (spec 4.6 rule 5); origin '*' is the wildcard. */
  quoteCorridors: Array<{ originCountry: string; destinationCountry: string; enabled: boolean }>;
  featureFlags: Record<string, boolean>;
}

export interface Tenant {
  id: string;
  name: string;
  slug: string;
  status: 'active' | 'suspended';
  paymentCustomerId: string | null;
  settings: TenantSettings;
  createdAt: string;
  updatedAt: string;
}

export const defaultSettings = (): TenantSettings => ({
  rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
  queueCaps: { ...DEFAULT_QUEUE_CAPS },
  carrierPolicies: {},
  quoteCorridors: [],
  featureFlags: { signup: true },
});

export function tenantStore(deps: KernelDeps) {
  const tenants = deps.store.collection<Tenant>('tenants');
  return {
    get: (id: string) => tenants.get(id),
    all: () => [...tenants.values()],
    create(input: { name?: string; slug?: string; id?: string } = {}): Tenant {
      const id = input.id ?? deps.ids.uuid();
      const now = deps.clock.nowIso();
      return tenants.put({
        id,
        name: input.name ?? 'Sandbox tenant',
        slug: input.slug ?? `sandbox-${id.slice(0, 8)}`,
        status: 'active',
        paymentCustomerId: null,
        settings: defaultSettings(),
        createdAt: now,
        updatedAt: now,
      });
    },
    update(id: string, change: (tenant: Tenant) => Tenant): Tenant | undefined {
      const current = tenants.get(id);
      if (!current) return undefined;
      return tenants.put({ ...change(structuredClone(current)), id, updatedAt: deps.clock.nowIso() });
    },
    /** Settings with defaults for anything a tenant has not set. */
    settings(id: string): TenantSettings {
      const tenant = tenants.get(id);
      const base = defaultSettings();
      if (!tenant) return base;
      return {
        ...base,
        ...tenant.settings,
        rateLimits: { ...base.rateLimits, ...tenant.settings.rateLimits },
        queueCaps: { ...base.queueCaps, ...tenant.settings.queueCaps },
      };
    },
  };
}

export type TenantStore = ReturnType<typeof tenantStore>;
