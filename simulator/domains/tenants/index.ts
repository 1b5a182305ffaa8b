export { tenantStore, defaultSettings, DEFAULT_QUEUE_CAPS, type Tenant, type TenantSettings, type TenantStore, type QueueCaps } from './tenant.store.js';
