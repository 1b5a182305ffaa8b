// The billing domain: the payment-method setup session (spec 4.1, 2.8).
import type { KernelDeps } from '../../kernel/deps.js';
import { defineDomain, type DomainModule } from '../domain.js';
import type { TenantStore } from '../tenants/index.js';
import { BILLING_DEFECTS, BILLING_RESPONSE_DEFECTS, BILLING_VARIANTS } from './billing.defects.js';
import { billingStore } from './billing.store.js';
import { setupSessionRoutes } from './setup-session.routes.js';

export type { PaymentCustomer, SetupIntent } from './billing.types.js';

export function createBilling(deps: KernelDeps, peers: { tenants: TenantStore }): DomainModule {
  return {
    name: 'billing',
    handlers: setupSessionRoutes(billingStore(deps), peers.tenants, deps.defects),
  };
}

export const billingDomain = defineDomain({
  name: 'billing',
  needs: ['tenants'],
  create: createBilling,
  defects: [...BILLING_DEFECTS, ...BILLING_VARIANTS],
  responseDefects: () => BILLING_RESPONSE_DEFECTS,
  testValues: [],
  lifecycles: {},
  purgeTenant: (deps, tenantId) => billingStore(deps).purgeTenant(tenantId),
});
