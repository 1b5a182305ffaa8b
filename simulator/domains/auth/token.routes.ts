// POST /api/auth/token/integration (spec 4.1, 2.1). The key was already checked by the authenticator
// (400 MISSING_API_KEY, 401 key errors) and counted by the rate limiter; this issues the bearer.
import { ApiError } from '../../kernel/errors.js';
import type { HandlerTable } from '../../kernel/http/types.js';
import type { TokenService } from './tokens.js';

export function tokenRoutes(tokens: TokenService) {
  return {
    async exchangeIntegrationToken({ principal }) {
      // The exchange's security requirement is the key alone: a bearer or a dashboard principal cannot get here.
      if (principal.type !== 'integration' || principal.keyId === null) {
        throw new ApiError('MISSING_API_KEY', 'x-api-key header is required');
      }
      const accessToken = await tokens.issue({ tenantId: principal.tenantId, type: 'integration', keyId: principal.keyId, scopes: principal.scopes });
      return {
        status: 200,
        // A credential: no cache may keep it.
        headers: { 'Cache-Control': 'no-store' },
        body: { access_token: accessToken, token_type: 'Bearer', expires_in: tokens.announcedLifetime(), default_adapter: principal.defaultAdapter },
      };
    },
  } satisfies HandlerTable;
}
