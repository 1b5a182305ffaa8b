// First-run set-up: a default tenant with an integration key, the admin token, the clock where it was.
// SIM_INTEGRATION_KEY pins the key's value so scripts and CI can use a known key on every run.
import type { Domains } from '../domains/index.js';
import type { KernelDeps } from '../kernel/deps.js';
import { sha256, type SandboxStore } from './sandbox.store.js';

export interface SandboxIdentity {
  adminToken: string;
  tenantId: string;
  integrationKeyId: string;
  /** The key's value when this run created it or it is pinned; null when it was shown on an earlier run. */
  integrationKey: string | null;
}

export function bootstrapSandbox(deps: KernelDeps, domains: Domains, sandbox: SandboxStore): SandboxIdentity {
  sandbox.restoreClock();
  const adminToken = sandbox.adminToken();
  const pinned = deps.config.integrationKey;
  let tenant = domains.tenants.all()[0];
  let created: { keyId: string; integrationKey: string } | undefined;
  if (!tenant) {
    tenant = domains.tenants.create({ name: 'Sandbox tenant', slug: 'sandbox' });
    created = domains.auth.keys.create({ tenantId: tenant.id, secret: pinned ?? undefined, defaultAdapter: 'catalog-excel' });
    if (pinned) sandbox.setPinnedKey(sha256(pinned), created.keyId);
  } else if (pinned) {
    const known = sandbox.pinnedKey();
    const existing = known.keyId ? domains.auth.keys.get(known.keyId) : undefined;
    if (known.hash !== sha256(pinned) || !existing || existing.revokedAt) {
      created = domains.auth.keys.create({ tenantId: tenant.id, secret: pinned, defaultAdapter: 'catalog-excel' });
      sandbox.setPinnedKey(sha256(pinned), created.keyId);
    }
  }
  const keyId = created?.keyId ?? sandbox.pinnedKey().keyId ?? domains.auth.keys.list(tenant.id)[0]?.keyId ?? '';
  return { adminToken, tenantId: tenant.id, integrationKeyId: keyId, integrationKey: pinned ?? created?.integrationKey ?? null };
}
