// What the landed-cost domain offers (spec 4.6): POST /api/trade/landed-cost, quoted by the engine from the
// reference data in fixtures/landed-cost/ (checked and indexed at start-up), and the tenant's billable
// usage for the control API.
import type { KernelDeps } from '../../kernel/deps.js';
import { defineDomain } from '../domain.js';
import type { TenantStore } from '../tenants/index.js';
import { LANDED_COST_DEFECTS, LANDED_COST_RESPONSE_DEFECTS, LANDED_COST_VARIANTS } from './landed-cost.defects.js';
import { landedCostRoutes } from './landed-cost.routes.js';
import { LANDED_COST_TEST_VALUES } from './landed-cost.trigger-values.js';
import type { LandedCostDomain } from './landed-cost.types.js';
import { contractAliases } from './legacy-aliases.js';
import { loadReferenceData } from './reference-data.js';
import { usageStore } from './usage.store.js';

export type * from './landed-cost.types.js';

function createLandedCost(deps: KernelDeps, peers: { tenants: TenantStore }): LandedCostDomain {
  const data = loadReferenceData();
  const usage = usageStore(deps);
  return {
    name: 'landed-cost',
    handlers: landedCostRoutes(deps, { tenants: peers.tenants, data, aliases: contractAliases(), usage }),
    usage: (tenantId, page) => usage.page(tenantId, page),
  };
}

export const landedCostDomain = defineDomain({
  name: 'landedCost',
  needs: ['tenants'],
  create: createLandedCost,
  defects: [...LANDED_COST_DEFECTS, ...LANDED_COST_VARIANTS],
  responseDefects: () => LANDED_COST_RESPONSE_DEFECTS,
  testValues: LANDED_COST_TEST_VALUES,
  lifecycles: {},
  purgeTenant: (deps, tenantId) => usageStore(deps).purgeTenant(tenantId),
});
