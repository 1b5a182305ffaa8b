// DELETE /_sim/tenants/{tenantId} (sandbox-defined): removes a tenant and every record it owns, so that a
// conformance run in the simulator profile can leave the sandbox's tenant list as it found it. Tenants are
// an operator's concern (spec 1: no public operation creates or deletes one), so this lives in the control
// layer. Each domain removes its own records through its own stores, by their declared indexes (never a
// scan: the manifest's purgeTenant), children before the records they are found through (a feed session's
// rows, previews and reviewed snapshot; a finding's claim links). The tenant's stored clock goes first, then
// its client-check runs with their reports (client-checks.ts), then the domains' records, a domain's before
// those of the domains it needs, so the tenants domain's comes last:
// the tenant record itself, so that a purge cut short can be asked again.
//
// What stays: a classify review snapshot replaced by a later review of the same session (no index names
// it; nobody can read it once the session is gone), a signup session (the applicant's; it names the tenant
// it provisioned), idempotency records (keyed by a hash of tenant, endpoint and key; unreachable once the
// tenant's keys are gone, and they expire with the idempotency TTL, spec 8.5), and whatever the
// append-only transition log keeps as audit evidence.
import type { KernelDeps } from '../kernel/deps.js';
import { buildOrder, DOMAINS } from '../domains/manifests.js';
import { clientChecks } from './client-checks.js';
import { sandboxStore } from './sandbox.store.js';

/** The domains whose records go first: the reverse of the order they are built in. */
export const PURGE_ORDER = buildOrder(DOMAINS).reverse();

export function tenantPurge(deps: KernelDeps) {
  const sandbox = sandboxStore(deps);
  const checks = clientChecks(deps);
  return {
    /** Deletes what the tenant owns, then the tenant; returns how many records went. The caller checks it exists. */
    async purge(tenantId: string): Promise<number> {
      let removed = await sandbox.purgeTenantClock(tenantId);
      removed += await checks.purgeTenant(tenantId); // the client-check runs on it and their reports
      for (const domain of PURGE_ORDER) removed += await domain.purgeTenant(deps, tenantId);
      return removed;
    },
  };
}
