// The integration-key lifecycle the operator (and the sandbox control API) uses. Spec 1 and 5.5 keep it
// off the public surface; the sandbox needs it to hand integrators keys to exchange.
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidRequest, notFound } from '../../kernel/errors.js';
import type { TenantStore } from '../tenants/index.js';
import { hashSecret, type IntegrationKeyRecord, type KeyStore } from './key.store.js';
import { ALL_SCOPES } from './scopes.js';

/** Keys are recognisable in logs and secret scanners; the rest is random. */
const KEY_PREFIX = 'tfk_sbx_';

/** A key as the operator sees it: the stored record without its secret hash, its id named keyId. */
export type IntegrationKeyView = Omit<IntegrationKeyRecord, 'id' | 'secretHash'> & { keyId: string };

export interface CreateKeyInput {
  tenantId: string;
  scopes?: string[];
  allowedAdapters?: string[] | null;
  defaultAdapter?: string | null;
  expiresAt?: string | null;
  secret?: string;
}

const viewOf = (key: IntegrationKeyRecord): IntegrationKeyView => ({
  keyId: key.id,
  tenantId: key.tenantId,
  scopes: [...key.scopes],
  allowedAdapters: key.allowedAdapters === null ? null : [...key.allowedAdapters],
  defaultAdapter: key.defaultAdapter,
  expiresAt: key.expiresAt,
  revokedAt: key.revokedAt,
  createdAt: key.createdAt,
});

const distinctStrings = (value: unknown, field: string): string[] => {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === '')) throw invalidRequest(`${field} must be an array of non-empty strings`, field);
  return [...new Set(value as string[])];
};

export function keyService(deps: KernelDeps, store: KeyStore, tenants: TenantStore) {
  return {
    async create(input: CreateKeyInput): Promise<{ keyId: string; integrationKey: string }> {
      if (!(await tenants.get(input.tenantId))) throw notFound('tenant');
      const scopes = input.scopes === undefined ? [...ALL_SCOPES] : distinctStrings(input.scopes, 'scopes');
      const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
      if (unknown.length) throw invalidRequest(`unknown scope ${unknown.join(', ')}`, 'scopes', { allowed: ALL_SCOPES });
      const allowedAdapters = input.allowedAdapters == null ? null : distinctStrings(input.allowedAdapters, 'allowedAdapters');
      const defaultAdapter = input.defaultAdapter ?? null;
      if (defaultAdapter !== null && (typeof defaultAdapter !== 'string' || defaultAdapter.trim() === '')) throw invalidRequest('defaultAdapter must be a non-empty string or null', 'defaultAdapter');
      if (defaultAdapter !== null && allowedAdapters !== null && !allowedAdapters.includes(defaultAdapter)) {
        throw invalidRequest('defaultAdapter must be one of allowedAdapters', 'defaultAdapter');
      }
      let expiresAt: string | null = null;
      if (input.expiresAt != null) {
        const ms = typeof input.expiresAt === 'string' ? Date.parse(input.expiresAt) : Number.NaN;
        if (Number.isNaN(ms)) throw invalidRequest('expiresAt must be an ISO 8601 date-time or null', 'expiresAt');
        expiresAt = new Date(ms).toISOString();
      }

      let integrationKey: string;
      if (input.secret !== undefined) {
        // A pinned value (SIM_INTEGRATION_KEY) must survive restarts: when it is already stored for this
        // tenant, the existing key is returned rather than a second key with the same secret.
        if (typeof input.secret !== 'string' || !/^[\x21-\x7e]+$/.test(input.secret)) throw invalidRequest('secret must be printable ASCII without spaces', 'secret');
        const existing = await store.bySecret(input.secret);
        if (existing) {
          if (existing.tenantId !== input.tenantId) throw invalidRequest('this integration key value is already in use', 'secret');
          return { keyId: existing.id, integrationKey: input.secret };
        }
        integrationKey = input.secret;
      } else {
        integrationKey = `${KEY_PREFIX}${deps.ids.secret()}`;
      }

      const key = await store.put({
        id: deps.ids.uuid(),
        tenantId: input.tenantId,
        secretHash: hashSecret(integrationKey),
        scopes,
        allowedAdapters,
        defaultAdapter,
        expiresAt,
        revokedAt: null,
        createdAt: deps.clocks.of(input.tenantId).nowIso(),
      });
      return { keyId: key.id, integrationKey };
    },

    /** Revokes at once (decision 2: tokens already issued stop working). Revoking twice keeps the first time. */
    async revoke(keyId: string): Promise<IntegrationKeyView | undefined> {
      const key = await store.get(keyId);
      if (!key) return undefined;
      if (key.revokedAt !== null) return viewOf(key);
      return viewOf(await store.put({ ...key, revokedAt: deps.clocks.of(key.tenantId).nowIso() }));
    },

    async get(keyId: string): Promise<IntegrationKeyView | undefined> {
      const key = await store.get(keyId);
      return key && viewOf(key);
    },

    async list(tenantId: string): Promise<IntegrationKeyView[]> {
      return (await store.ofTenant(tenantId)).map(viewOf);
    },
  };
}
