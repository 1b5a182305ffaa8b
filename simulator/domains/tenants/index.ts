// The tenants domain: tenants and their sandbox settings (rate limits, queue caps, carrier policies, quote
// corridors, feature flags). No public operation: the control API and the other domains use it.
import { defineDomain } from '../domain.js';
import { tenantStore } from './tenant.store.js';

export { tenantStore, settingsOf, type TenantStore } from './tenant.store.js';
export type { Tenant, TenantSettings, QueueCaps } from './tenants.types.js';

export const tenantsDomain = defineDomain({
  name: 'tenants',
  needs: [],
  create: (deps) => ({ name: 'tenants', handlers: {}, ...tenantStore(deps) }),
  defects: [],
  responseDefects: () => [],
  testValues: [],
  lifecycles: {},
  // The tenant record itself: the purge removes it last (domains/manifests.ts), so one cut short can be asked again.
  purgeTenant: (deps, tenantId) => tenantStore(deps).purgeTenant(tenantId),
});
