// The composition root of the domains: builds each one from the kernel and the domains it needs, in the
// order their manifests allow (manifests.ts), and gathers what they serve. The only place that builds every
// domain; a domain reaches another only through what is passed in here.
import type { KernelDeps } from '../kernel/deps.js';
import type { ResponseDefect } from '../kernel/defects.js';
import type { DashboardHandlerTable, HandlerTable } from '../kernel/http/types.js';
import { KERNEL_RESPONSE_DEFECTS } from '../kernel/kernel.defects.js';
import type { DomainModule } from './domain.js';
import { buildOrder, DOMAINS, type BuiltDomains } from './manifests.js';

export function createDomains(deps: KernelDeps) {
  const order = buildOrder(DOMAINS);
  const built: Record<string, DomainModule> = {};
  for (const manifest of order) {
    const peers = Object.fromEntries(manifest.needs.map((name) => [name, built[name]]));
    // Each create takes its own peers' types; manifests.ts checks them against what those domains build.
    built[manifest.name] = (manifest.create as (deps: KernelDeps, peers: object) => DomainModule)(deps, peers);
  }
  const modules = order.map((manifest) => built[manifest.name]);

  const handlers: HandlerTable = {};
  for (const module of modules) {
    for (const [operationId, handler] of Object.entries(module.handlers)) {
      if (operationId in handlers) throw new Error(`${operationId} is handled by two domains`);
      Object.assign(handlers, { [operationId]: handler });
    }
  }
  const dashboardHandlers: DashboardHandlerTable = Object.assign({}, ...modules.map((m) => m.dashboardHandlers ?? {}));
  // Response-level defects of every domain, in catalogue order; the kernel's last (error.lost-envelope
  // replaces the whole body).
  const responseDefects: ResponseDefect[] = [...DOMAINS.flatMap((d) => d.responseDefects()), ...KERNEL_RESPONSE_DEFECTS];
  return {
    ...(built as BuiltDomains),
    handlers,
    dashboardHandlers,
    responseDefects,
    /** Each domain after the ones it needs (auth's signing key, then the job worker, then webhook deliveries). */
    async start() {
      for (const module of modules) await module.start?.();
    },
    async stop() {
      for (const module of [...modules].reverse()) await module.stop?.();
    },
  };
}

export type Domains = ReturnType<typeof createDomains>;
