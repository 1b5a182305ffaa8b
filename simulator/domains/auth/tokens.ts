// Bearer tokens (spec 2.1, 5.2, 5.4): HS256 JWTs that carry the tenant, the principal type and the scopes,
// valid for 3600 s of virtual time. Issue and verification read the tenant's clock, so advancing that
// tenant's clock (or the sandbox clock every tenant follows) by an hour expires a token exactly as waiting
// would, and leaves other tenants' tokens alone.
import { decodeJwt, decodeProtectedHeader, errors, importJWK, jwtVerify, SignJWT, type JWK, type JWTVerifyGetKey } from 'jose';
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidToken } from '../../kernel/errors.js';
import { ALL_TOKEN_CHECKS, AUTH_HOOKS } from './auth.hooks.js';
import type { SigningKeyStore } from './signing-key.store.js';

export const TOKEN_TTL_SECONDS = 3600;
const ISSUER = 'tcfa-sandbox';

export type TokenPrincipalType = 'integration' | 'dashboard';

export interface TokenClaims {
  /** The integration key id; absent for a dashboard principal, which has no key. */
  sub?: string;
  tenant_id: string;
  principal_type: TokenPrincipalType;
  scopes: string[];
  jti: string;
  iat: number;
  exp: number;
}

/** How many verified tokens are remembered (insertion order, the oldest dropped first). */
const VERIFIED_CACHE_SIZE = 10_000;

export function tokenService(deps: KernelDeps, signingKeys: SigningKeyStore) {
  // A token string whose HS256 signature, issuer and required claims verified once under a signing secret
  // verifies again under that secret: remembering it keeps WebCrypto's key import and asynchronous HMAC
  // (most of the CPU an authenticated read cost, issue 15) off every request. Expiry is time-dependent, so it
  // is checked on every request, hit or miss. Emptied when the secret changes (a sandbox reset makes a new one).
  const verified = new Map<string, Record<string, unknown>>();
  let verifiedUnder: Uint8Array | undefined;
  const remember = (token: string, payload: Record<string, unknown>) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    // Frozen: every request holding this token gets the same claims object.
    if (Array.isArray(payload.scopes)) Object.freeze(payload.scopes);
    verified.set(token, Object.freeze(payload));
  };
  /** The key a token's own `jwk` header names, else the sandbox's: only ever used with `ownKeyOnly` off. */
  const embeddedKeyOrOwn: JWTVerifyGetKey = async (header) =>
    typeof header.jwk === 'object' && header.jwk !== null ? importJWK(header.jwk as JWK, 'HS256') : signingKeys.current();

  /** The lifetime a token issued now announces (`expires_in`): TOKEN_TTL_SECONDS unless a variant chose another. */
  const announcedLifetime = () => deps.defects.at(AUTH_HOOKS.announcedTokenLifetimeSeconds, TOKEN_TTL_SECONDS);

  return {
    announcedLifetime,
    async issue(input: { tenantId: string; type: TokenPrincipalType; keyId: string | null; scopes: string[] }): Promise<string> {
      const iat = Math.floor(deps.clocks.of(input.tenantId).now() / 1000);
      const jwt = new SignJWT({ tenant_id: input.tenantId, principal_type: input.type, scopes: [...input.scopes] })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setJti(deps.ids.uuid())
        .setIssuedAt(iat)
        .setExpirationTime(iat + deps.defects.at(AUTH_HOOKS.tokenLifetimeSeconds, announcedLifetime()));
      if (input.keyId !== null) jwt.setSubject(input.keyId);
      return jwt.sign(await signingKeys.current());
    },

    /** The token's claims, or 401 INVALID_TOKEN (decision 1: absent, malformed, forged and expired alike). */
    async verify(token: string): Promise<TokenClaims> {
      let payload: Record<string, unknown>;
      const secret = await signingKeys.current();
      // A new secret (a sandbox reset) verifies none of the tokens signed with the old one.
      if (secret !== verifiedUnder) {
        verified.clear();
        verifiedUnder = secret;
      }
      // What verification checks (all, unless a deviation turns one off): with any off, nothing is remembered.
      const checks = deps.defects.at(AUTH_HOOKS.tokenChecks, ALL_TOKEN_CHECKS);
      const cacheable = checks === ALL_TOKEN_CHECKS;
      // RFC 7519 4.1.4: refused on or after `exp` (jose's `exp <= now`), unless a deviation grants leeway.
      const leeway = deps.defects.at(AUTH_HOOKS.expiryLeewaySeconds, 0);
      const cached = cacheable ? verified.get(token) : undefined;
      if (cached) {
        // jose's own rule (exp <= now is expired) on the sandbox clock, as the full verification below.
        if (typeof cached.exp !== 'number' || cached.exp + leeway <= Math.floor(deps.clock.now() / 1000)) throw invalidToken('bearer token has expired; exchange the integration key again');
        payload = cached;
      } else try {
        // Unchecked, an unsigned (`alg: none`) token's claims are read as they are.
        if (!checks.unsignedRefused && /^none$/i.test(String(decodeProtectedHeader(token).alg))) payload = decodeJwt(token);
        // Unchecked, a token of another issuer is taken as the identity provider's, unverified.
        else if (!checks.issuerVerified && decodeJwt(token).iss !== ISSUER) payload = decodeJwt(token);
        // Unchecked, the key the token embeds in its `jwk` header verifies it.
        else ({ payload } = await jwtVerify(token, checks.ownKeyOnly ? secret : embeddedKeyOrOwn, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          requiredClaims: ['exp', 'iat', 'jti'],
          // A tenant's clock is never behind the sandbox clock: expired here is expired for every tenant;
          // the tenant's own clock is checked once the claims are known, below.
          currentDate: new Date(deps.clock.now()),
          // Unchecked, no token is ever found expired.
          clockTolerance: checks.expiryChecked ? leeway : Number.MAX_SAFE_INTEGER,
        }));
        if (cacheable) remember(token, payload);
      } catch (error) {
        // Unchecked, the claims of a token whose signature does not match are read as they are.
        if (!checks.signatureVerified && error instanceof errors.JWSSignatureVerificationFailed) payload = decodeJwt(token);
        else if (error instanceof errors.JWTExpired) throw invalidToken('bearer token has expired; exchange the integration key again');
        else throw invalidToken('bearer token is invalid');
      }
      const { tenant_id, principal_type, scopes, sub } = payload;
      const wellFormed =
        typeof tenant_id === 'string' &&
        (principal_type === 'integration' || principal_type === 'dashboard') &&
        Array.isArray(scopes) &&
        scopes.every((s) => typeof s === 'string') &&
        (principal_type === 'dashboard' || typeof sub === 'string');
      if (!wellFormed) throw invalidToken('bearer token is invalid');
      // Expiry on the tenant's own clock: advancing one tenant's time expires only that tenant's tokens.
      const tenantNow = Math.floor(deps.clocks.of(tenant_id).now() / 1000);
      if (checks.expiryChecked && typeof payload.exp === 'number' && payload.exp + leeway <= tenantNow) {
        throw invalidToken('bearer token has expired; exchange the integration key again');
      }
      return payload as unknown as TokenClaims;
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;
