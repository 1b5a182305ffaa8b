// Which files a tenant already uploaded to each ship upload endpoint (`shipUploadRegistry`), for spec 4.3
// and 7 409 DUPLICATE_UPLOAD with `details.existingJobId` and `details.uploadedAt`: keyed by tenant,
// operation and the file's sha256, so the check is one read. A file whose job FAILED may be sent again
// (sandbox decision: nothing of it was kept, so it is no duplicate); the new upload replaces the entry.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import { SHIP_HOOKS } from './ship.hooks.js';

interface UploadEntry {
  id: string;
  rev?: number;
  tenantId: string;
  operationId: string;
  sha256: string;
  jobId: string;
  uploadedAt: string;
}

export function uploadRegistry(deps: Pick<KernelDeps, 'store' | 'defects'>) {
  const entries = deps.store.collection<UploadEntry, 'tenantId'>('shipUploadRegistry', { fields: { tenantId: (e) => e.tenantId }, indexes: { byTenant: { keys: ['tenantId'] } } });
  const idOf = (tenantId: string, operationId: string, sha256: string) => createHash('sha256').update(`${tenantId}\u0000${operationId}\u0000${sha256}`).digest('hex');
  // The tenant is part of the key: another tenant's upload of the same bytes is no duplicate of this one's.
  const keyOf = (tenantId: string) => deps.defects.at(SHIP_HOOKS.uploadRegistryTenantKey, tenantId);
  return {
    find: (tenantId: string, operationId: string, sha256: string) => entries.get(idOf(keyOf(tenantId), operationId, sha256)),
    record: (entry: Omit<UploadEntry, 'id'>) => entries.put({ ...entry, id: idOf(keyOf(entry.tenantId), entry.operationId, entry.sha256) }),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(entries, { tenantId }),
  };
}

export type UploadRegistry = ReturnType<typeof uploadRegistry>;
