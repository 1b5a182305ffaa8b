// The auth domain: integration keys, bearer tokens and the authenticator every contract route runs first
// (spec 4.1, 5, 7; decisions 1-3).
import type { KernelDeps } from '../../kernel/deps.js';
import { notFound } from '../../kernel/errors.js';
import { defineDomain } from '../domain.js';
import type { TenantStore } from '../tenants/index.js';
import { AUTH_DEFECTS, AUTH_RESPONSE_DEFECTS, AUTH_VARIANTS } from './auth.defects.js';
import type { AuthDomain } from './auth.types.js';
import { createAuthenticator } from './authenticate.js';
import { keyStore } from './key.store.js';
import { keyService } from './keys.js';
import { ALL_SCOPES } from './scopes.js';
import { signingKeyStore } from './signing-key.store.js';
import { tokenRoutes } from './token.routes.js';
import { tokenService } from './tokens.js';

export { ALL_SCOPES } from './scopes.js';
export { assertAdapterAllowed } from './adapters.js';

export type { AuthDomain } from './auth.types.js';

export function createAuth(deps: KernelDeps, peers: { tenants: TenantStore }): AuthDomain {
  const keys = keyStore(deps);
  const signingKeys = signingKeyStore(deps);
  const tokens = tokenService(deps, signingKeys);
  return {
    name: 'auth',
    handlers: tokenRoutes(tokens),
    authenticate: createAuthenticator(deps, keys, tokens, peers.tenants),
    keys: keyService(deps, keys, peers.tenants),
    async issueDashboardToken(tenantId) {
      if (!(await peers.tenants.get(tenantId))) throw notFound('tenant');
      // A dashboard user is not limited by integration scopes.
      return tokens.issue({ tenantId, type: 'dashboard', keyId: null, scopes: ALL_SCOPES });
    },
    forgetCachedSecrets: () => signingKeys.forget(),
    // Create (and persist) the signing secret before the first token is asked for.
    start: async () => void (await signingKeys.current()),
  };
}

export const authDomain = defineDomain({
  name: 'auth',
  needs: ['tenants'],
  create: createAuth,
  defects: [...AUTH_DEFECTS, ...AUTH_VARIANTS],
  responseDefects: () => AUTH_RESPONSE_DEFECTS,
  testValues: [],
  lifecycles: {},
  purgeTenant: (deps, tenantId) => keyStore(deps).purgeTenant(tenantId),
});
