// Who is calling, decided from the operation's security requirements (spec 5; decisions 1-3). Requirements
// are alternatives: `integrationKey` (the token exchange), `integrationBearer` (every tenant endpoint, the
// document default) and the legacy pair `legacyApiKey` + `legacyOrgId` (landed cost only). The scopes
// inside the matched requirement and the operation's `x-principal-types` are enforced here too, so no
// handler repeats them.
import { isObject } from '../../../contracts/lib/bundle.js';
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { ApiError, invalidToken } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/http/types.js';
import type { Authenticator } from '../../kernel/http/contract-routes.js';
import type { TenantStore } from '../tenants/index.js';
import { AUTH_HOOKS } from './auth.hooks.js';
import { keyState, type IntegrationKeyRecord, type KeyStore } from './key.store.js';
import type { TokenService } from './tokens.js';

type Requirement = Record<string, string[]>;

/** The document-level default of every contract version: an integration bearer, no scope. */
const DEFAULT_SECURITY: Requirement[] = [{ integrationBearer: [] }];

export function securityRequirements(op: ContractOperation): Requirement[] {
  const security = op.operation.security;
  if (!Array.isArray(security)) return DEFAULT_SECURITY;
  return security.filter(isObject).map((requirement) =>
    Object.fromEntries(Object.entries(requirement).map(([scheme, scopes]) => [scheme, Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : []])),
  );
}

/** What authentication an operation asks for, worked out once per operation (it is asked on every request). */
interface AuthPlan {
  /** `security: []` (signup) or an empty requirement: the operation is public. */
  open: boolean;
  byKey: Requirement | undefined;
  byBearer: Requirement | undefined;
  byLegacy: Requirement | undefined;
  /** The scopes each requirement names (spec 5.4), without repeats. */
  scopes: Map<Requirement, string[]>;
}

const plans = new WeakMap<ContractOperation, AuthPlan>();

function authPlan(op: ContractOperation): AuthPlan {
  let plan = plans.get(op);
  if (!plan) {
    const requirements = securityRequirements(op);
    plan = {
      open: requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0),
      byKey: requirements.find((r) => 'integrationKey' in r),
      byBearer: requirements.find((r) => 'integrationBearer' in r),
      byLegacy: requirements.find((r) => 'legacyApiKey' in r && 'legacyOrgId' in r),
      scopes: new Map(requirements.map((r) => [r, [...new Set(Object.values(r).flat())]])),
    };
    plans.set(op, plan);
  }
  return plan;
}

const keyError = (code: 'INVALID_API_KEY' | 'REVOKED_API_KEY' | 'EXPIRED_API_KEY', message: string) => new ApiError(code, message);

function principalOfKey(key: IntegrationKeyRecord): Principal {
  return {
    type: 'integration',
    tenantId: key.tenantId,
    keyId: key.id,
    scopes: [...key.scopes],
    allowedAdapters: key.allowedAdapters === null ? null : [...key.allowedAdapters],
    defaultAdapter: key.defaultAdapter,
  };
}

export function createAuthenticator(deps: KernelDeps, keys: KeyStore, tokens: TokenService, tenants: TenantStore): Authenticator {
  /** Spec 7: unknown 401 INVALID_API_KEY, revoked 401 REVOKED_API_KEY, expired 401 EXPIRED_API_KEY. */
  const usableKey = async (secret: string): Promise<IntegrationKeyRecord> => {
    const key = await keys.bySecret(secret);
    if (!key || !(await tenants.get(key.tenantId))) {
      throw deps.defects.at(AUTH_HOOKS.keyRefusal, keyError('INVALID_API_KEY', 'integration key is not recognised'), { state: 'unknown' });
    }
    const state = keyState(key, deps.clocks.of(key.tenantId).now());
    if (state === 'revoked') throw deps.defects.at(AUTH_HOOKS.keyRefusal, keyError('REVOKED_API_KEY', 'integration key has been revoked'), { state });
    if (state === 'expired') throw deps.defects.at(AUTH_HOOKS.keyRefusal, keyError('EXPIRED_API_KEY', 'integration key has expired'), { state });
    return key;
  };

  const fromApiKey = async (headers: Record<string, string | undefined>): Promise<Principal> => {
    const secret = headers['x-api-key']?.trim();
    if (!secret) throw new ApiError('MISSING_API_KEY', 'x-api-key header is required');
    return principalOfKey(await usableKey(secret));
  };

  /** Decision 2: the key behind an integration token is checked on every call, so revocation is immediate. */
  const fromBearer = async (authorization: string): Promise<Principal> => {
    const match = /^Bearer +([A-Za-z0-9_\-.]+)\s*$/i.exec(authorization);
    if (!match) throw invalidToken('Authorization header must be "Bearer <access_token>"');
    const claims = await tokens.verify(match[1]);
    if (!(await tenants.get(claims.tenant_id))) throw invalidToken("bearer token's tenant no longer exists");
    if (claims.principal_type === 'dashboard') {
      return { type: 'dashboard', tenantId: claims.tenant_id, keyId: null, scopes: claims.scopes, allowedAdapters: null, defaultAdapter: null };
    }
    const key = await keys.get(claims.sub!);
    if (!key || key.tenantId !== claims.tenant_id) throw invalidToken("bearer token's integration key no longer exists");
    const state = keyState(key, deps.clocks.of(key.tenantId).now());
    if (!deps.defects.at(AUTH_HOOKS.bearerKeyHonoured, state === 'active', { state })) throw invalidToken(`bearer token's integration key has ${state === 'revoked' ? 'been revoked' : 'expired'}`);
    return { ...principalOfKey(key), scopes: claims.scopes };
  };

  /** Spec 5.3, decision 3: a valid key whose tenant is the one named by x-org-id. */
  const fromLegacyPair = async (headers: Record<string, string | undefined>): Promise<Principal> => {
    const key = await usableKey(headers['x-api-key']!.trim());
    if (headers['x-org-id']?.trim() !== key.tenantId) throw keyError('INVALID_API_KEY', 'integration key does not belong to the organization in x-org-id');
    return principalOfKey(key);
  };

  return async (op, headers) => {
    const plan = authPlan(op);
    if (plan.open) return null;

    const authorization = headers.authorization;
    const apiKey = headers['x-api-key']?.trim();
    const { byKey, byBearer, byLegacy } = plan;

    let principal: Principal;
    let matched: Requirement;
    if (byKey && (!byBearer || authorization === undefined)) {
      [principal, matched] = [await fromApiKey(headers), byKey];
    } else if (byBearer && authorization !== undefined) {
      [principal, matched] = [await fromBearer(authorization), byBearer];
    } else if (byLegacy && deps.config.allowApiKeyFallback && apiKey) {
      [principal, matched] = [await fromLegacyPair(headers), byLegacy];
    } else {
      // Decision 1: no bearer is an invalid bearer. With the fallback off, the legacy pair alone is too.
      const refusal = invalidToken(
        byLegacy && apiKey ? 'Authorization: Bearer <access_token> is required (the x-api-key + x-org-id fallback is disabled)' : 'Authorization: Bearer <access_token> is required',
      );
      throw deps.defects.at(AUTH_HOOKS.noCredentialsRefusal, refusal, { authorization });
    }

    // Spec 5: the credential names the tenant; no header switches it (unless a deviation names one here).
    const override = deps.defects.at(AUTH_HOOKS.tenantOverride, undefined, { orgHeader: headers['x-org-id']?.trim(), byBearer: matched === byBearer });
    if (override && (await tenants.get(override))) principal = { ...principal, tenantId: override };

    // Spec 5.4: a scope named in the matched requirement (ship:upload on carrier agreements).
    const required = plan.scopes.get(matched) ?? [];
    const missing = required.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length) {
      throw new ApiError('SCOPE_DENIED', `scope ${missing.join(', ')} is required`, {
        required: required.length === 1 ? required[0] : required,
        provided: principal.scopes,
      });
    }

    // Spec 5.4: billing setup requires principal type integration.
    const types = op.operation['x-principal-types'];
    if (Array.isArray(types) && !types.includes(principal.type) && deps.defects.at(AUTH_HOOKS.principalTypeEnforced, true, { allowed: types })) {
      const allowed = types.filter((t): t is string => typeof t === 'string');
      throw new ApiError('PRINCIPAL_DENIED', `principal type must be ${allowed.join(' or ')}`, {
        required: allowed.length === 1 ? allowed[0] : allowed,
        actual: principal.type,
      });
    }
    return principal;
  };
}
