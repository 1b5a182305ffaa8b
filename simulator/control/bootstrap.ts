// First-run set-up: a default tenant with an integration key, the admin token, the clocks where they were.
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

export async function bootstrapSandbox(deps: KernelDeps, domains: Domains, sandbox: SandboxStore): Promise<SandboxIdentity> {
  await sandbox.restoreClocks();
  const adminToken = await sandbox.adminToken();
  const pinned = deps.config.integrationKey;
  let tenant = await domains.tenants.first();
  let created: { keyId: string; integrationKey: string } | undefined;
  if (!tenant) {
    tenant = await domains.tenants.create({ name: 'Sandbox tenant', slug: 'sandbox' });
    created = await domains.auth.keys.create({ tenantId: tenant.id, secret: pinned ?? undefined, defaultAdapter: 'catalog-excel' });
    if (pinned) await sandbox.setPinnedKey(sha256(pinned), created.keyId);
  } else if (pinned) {
    const known = await sandbox.pinnedKey();
    const existing = known.keyId ? await domains.auth.keys.get(known.keyId) : undefined;
    if (known.hash !== sha256(pinned) || !existing || existing.revokedAt) {
      created = await domains.auth.keys.create({ tenantId: tenant.id, secret: pinned, defaultAdapter: 'catalog-excel' });
      await sandbox.setPinnedKey(sha256(pinned), created.keyId);
    }
  }
  const keyId = created?.keyId ?? (await sandbox.pinnedKey()).keyId ?? (await domains.auth.keys.list(tenant.id))[0]?.keyId ?? '';
  return { adminToken, tenantId: tenant.id, integrationKeyId: keyId, integrationKey: pinned ?? created?.integrationKey ?? null };
}
