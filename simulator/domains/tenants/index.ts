// The tenants domain: tenants and their sandbox settings (rate limits, queue caps, carrier policies, quote
// corridors, feature flags). No public operation: the control API and the other domains use it.
export { tenantStore, defaultSettings, settingsOf, DEFAULT_QUEUE_CAPS, type TenantStore } from './tenant.store.js';
export type { Tenant, TenantSettings, QueueCaps } from './tenants.types.js';
