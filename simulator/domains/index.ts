// The composition root of the domains: builds each one from the kernel and wires them together. The only
// place that knows every domain; a domain reaches another only through what is passed in here.
import type { KernelDeps } from '../kernel/deps.js';
import type { ResponseDefect } from '../kernel/defects.js';
import type { DashboardHandlerTable, HandlerTable } from '../kernel/http/types.js';
import { KERNEL_RESPONSE_DEFECTS } from '../kernel/kernel.defects.js';
import { AUTH_RESPONSE_DEFECTS, createAuth } from './auth/index.js';
import { BILLING_RESPONSE_DEFECTS, createBilling } from './billing/index.js';
import type { DomainModule } from './domain.js';
import { createJobs, jobsResponseDefects } from './jobs/index.js';
import { createLandedCost, LANDED_COST_RESPONSE_DEFECTS } from './landed-cost/index.js';
import { createSima, SIMA_RESPONSE_DEFECTS } from './sima/index.js';
import { createShip, SHIP_RESPONSE_DEFECTS } from './ship/index.js';
import { createSignup, SIGNUP_RESPONSE_DEFECTS } from './signup/index.js';
import { tenantStore } from './tenants/index.js';
import { createTrade, TRADE_RESPONSE_DEFECTS } from './trade/index.js';
import { classifyProductText, createClassification } from './classification/index.js';
import { createWebhooks } from './webhooks/index.js';

export function createDomains(deps: KernelDeps) {
  const tenants = tenantStore(deps);
  const webhooks = createWebhooks(deps);
  const jobs = createJobs(deps, { tenants });
  jobs.onFinished((job) => webhooks.jobFinished(job));
  const auth = createAuth(deps, { tenants });
  const billing = createBilling(deps, { tenants });
  const sima = createSima(deps, { jobs, webhooks, tenants });
  const landedCost = createLandedCost(deps, { tenants });
  const trade = createTrade(deps, { jobs, webhooks, sima, classify: classifyProductText });
  const signup = createSignup(deps, { tenants, auth });
  const ship = createShip(deps, { jobs, webhooks, tenants, auth });
  const classification = createClassification(deps, { jobs, webhooks, sima });
  const modules: DomainModule[] = [auth, billing, jobs, webhooks, sima, landedCost, trade, signup, ship, classification];

  const handlers: HandlerTable = {};
  for (const module of modules) {
    for (const [operationId, handler] of Object.entries(module.handlers)) {
      if (operationId in handlers) throw new Error(`${operationId} is handled by two domains`);
      Object.assign(handlers, { [operationId]: handler });
    }
  }
  const dashboardHandlers: DashboardHandlerTable = Object.assign({}, ...modules.map((m) => m.dashboardHandlers ?? {}));
  // Response-level defects of every domain; the kernel's last (error.lost-envelope replaces the whole body).
  const responseDefects: ResponseDefect[] = [...AUTH_RESPONSE_DEFECTS, ...jobsResponseDefects(), ...BILLING_RESPONSE_DEFECTS, ...SIMA_RESPONSE_DEFECTS, ...TRADE_RESPONSE_DEFECTS, ...LANDED_COST_RESPONSE_DEFECTS, ...SIGNUP_RESPONSE_DEFECTS, ...SHIP_RESPONSE_DEFECTS, ...KERNEL_RESPONSE_DEFECTS];
  return {
    tenants,
    auth,
    jobs,
    webhooks,
    billing,
    sima,
    trade,
    landedCost,
    signup,
    ship,
    classification,
    handlers,
    dashboardHandlers,
    responseDefects,
    async start() {
      for (const module of modules) await module.start?.();
    },
    async stop() {
      for (const module of [...modules].reverse()) await module.stop?.();
    },
  };
}

export type Domains = ReturnType<typeof createDomains>;
