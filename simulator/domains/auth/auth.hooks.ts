// The auth domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in auth.defects.ts) may change what authentication
// decides. The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { ApiError } from '../../kernel/errors.js';
import type { KeyState } from './key.store.js';

/** What verifying a bearer token checks (spec 5.2): each on unless a deviation turns it off. */
export interface TokenChecks {
  /** An unsigned (`alg: none`) token is refused. */
  unsignedRefused: boolean;
  /** A token of another issuer is refused unread. */
  issuerVerified: boolean;
  /** Only the sandbox's signing key verifies a token (never a key the token carries itself). */
  ownKeyOnly: boolean;
  /** A token whose signature does not match is refused. */
  signatureVerified: boolean;
  /** An expired token is refused. */
  expiryChecked: boolean;
}

/** Every check made: the value the point starts from, and the one a verified token may be remembered under. */
export const ALL_TOKEN_CHECKS: Readonly<TokenChecks> = Object.freeze({ unsignedRefused: true, issuerVerified: true, ownKeyOnly: true, signatureVerified: true, expiryChecked: true });

export const AUTH_HOOKS = {
  /** spec 5.4, 4.3: whether a ship upload's `adapter_id` outside the key's allowlist is refused (403 ADAPTER_NOT_ALLOWED). */
  adapterAllowlistEnforced: hookPoint<boolean>('auth', 'auth.adapter-allowlist-enforced'),
  /** spec 7: the error an integration key that cannot be used is answered with, by its state (unknown: no such key). */
  keyRefusal: hookPoint<ApiError, { state: KeyState | 'unknown' }>('auth', 'auth.key-refusal'),
  /** Decision 1, spec 7: the error a call without the credentials its operation asks for is answered with. */
  noCredentialsRefusal: hookPoint<ApiError, { authorization: string | undefined }>('auth', 'auth.no-credentials-refusal'),
  /** Decision 2: whether a bearer token whose integration key is in `state` is honoured (active only). */
  bearerKeyHonoured: hookPoint<boolean, { state: KeyState }>('auth', 'auth.bearer-key-honoured'),
  /** Spec 5: the tenant named by a header in place of the credential's (none: the credential decides). */
  tenantOverride: hookPoint<string | undefined, { orgHeader: string | undefined; byBearer: boolean }>('auth', 'auth.tenant-override'),
  /** Spec 5.4, 5.5: whether an operation's `x-principal-types` refuses a principal of another type. */
  principalTypeEnforced: hookPoint<boolean, { allowed: readonly unknown[] }>('auth', 'auth.principal-type-enforced'),
  /** Spec 2.1, 5.2: what verifying a bearer token checks. */
  tokenChecks: hookPoint<Readonly<TokenChecks>>('auth', 'auth.token-checks'),
  /** Spec 2.1: how many seconds a token issued now is valid (the exchange announces TOKEN_TTL_SECONDS). */
  tokenLifetimeSeconds: hookPoint<number>('auth', 'auth.token-lifetime'),
  /** Spec 5.1: the HS256 secret bearers are signed and verified with (the configured or generated one). */
  signingSecret: hookPoint<string>('auth', 'auth.signing-secret'),
  /** RFC 7519 4.1.4, spec 5.2: seconds past `exp` a token is still accepted (none: refused on or after `exp`). */
  expiryLeewaySeconds: hookPoint<number>('auth', 'auth.expiry-leeway'),
  /** Spec 2.1, 5.2 ("typically 3600 seconds, given as `expires_in`"): the lifetime a token is issued with and announced. */
  announcedTokenLifetimeSeconds: hookPoint<number>('auth', 'auth.announced-token-lifetime'),
} as const;
