// The tenants domain's types: a tenant and its sandbox settings.
import type { RateLimits } from '../../kernel/http/rate-limit.js';

/** Tenant queue-admission caps on PENDING + PROCESSING jobs (spec 8.2); values are the sandbox's. */
export interface QueueCaps {
  total: number;
  upload: number;
  sima: number;
  /** Spec 8.4: in-flight classify-preview jobs. */
  preview: number;
}

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
  rev?: number;
  name: string;
  slug: string;
  status: 'active' | 'suspended';
  paymentCustomerId: string | null;
  settings: TenantSettings;
  createdAt: string;
  updatedAt: string;
}
