// Integration keys (spec 5.1: issued by an operator, the secret revealed once). The only file that touches
// the `integrationKeys` collection. The secret is never stored: only its sha256, which is also the index a
// presented `x-api-key` is looked up by.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../../kernel/deps.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';

export interface IntegrationKeyRecord {
  id: string;
  rev?: number;
  tenantId: string;
  /** sha256 of the secret, hex. */
  secretHash: string;
  scopes: string[];
  allowedAdapters: string[] | null;
  defaultAdapter: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export type KeyState = 'active' | 'revoked' | 'expired';

export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Revocation wins over expiry: a revoked key says so even once its expiry has passed. */
export function keyState(key: IntegrationKeyRecord, nowMs: number): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= nowMs) return 'expired';
  return 'active';
}

export function keyStore(deps: KernelDeps) {
  const keys = deps.store.collection<IntegrationKeyRecord, 'secretHash' | 'tenantId' | 'createdAt'>('integrationKeys', {
    fields: { secretHash: (k) => k.secretHash, tenantId: (k) => k.tenantId, createdAt: (k) => k.createdAt },
    indexes: { bySecretHash: { keys: ['secretHash'] }, byTenant: { keys: ['tenantId'], order: [['createdAt', 'asc']] } },
  });
  return {
    get: (id: string) => keys.get(id),
    /** The key whose secret is `secret`, found through the hash index. */
    bySecret: async (secret: string) => keys.first({ where: { secretHash: hashSecret(secret) } }),
    ofTenant: async (tenantId: string) => (await keys.query({ where: { tenantId } })).items,
    put: (key: IntegrationKeyRecord) => keys.put(key),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(keys, { tenantId }),
  };
}

export type KeyStore = ReturnType<typeof keyStore>;
