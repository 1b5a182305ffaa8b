// The auth domain's deviations (README "Defect injection"), as data: rules at the hook points of
// auth.hooks.ts, where authenticate.ts and tokens.ts decide; below them the ones that only change what the
// token exchange sends.
import type { DefectEntry, ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { ApiError } from '../../kernel/errors.js';
import { AUTH_HOOKS, type TokenChecks } from './auth.hooks.js';

/** A rule that turns one token check off (the same checks when it is off already). */
const skips = (check: keyof TokenChecks) => at(AUTH_HOOKS.tokenChecks, (checks) => (checks[check] ? { ...checks, [check]: false } : checks));

export const AUTH_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'auth.token-type-wrong', area: 'auth', description: 'token exchange answers `token_type: "bearer"`' },
  { kind: 'defect', id: 'status.undocumented', area: 'auth', description: 'token exchange answers 201 instead of 200' },
  { kind: 'defect', id: 'auth.expired-token-accepted', area: 'auth', description: 'token expiry is not checked', hooks: [skips('expiryChecked')] },
  { kind: 'defect', id: 'auth.revoked-key-tokens-valid', area: 'auth', description: 'tokens of a revoked key keep working', hooks: [at(AUTH_HOOKS.bearerKeyHonoured, (honoured, { state }) => honoured || state === 'revoked')] },
  { kind: 'defect', id: 'auth.missing-bearer-wrong-code', area: 'auth', description: 'a call without bearer gets 400 MISSING_API_KEY', hooks: [at(AUTH_HOOKS.noCredentialsRefusal, (error, { authorization }) => (authorization === undefined ? new ApiError('MISSING_API_KEY', 'x-api-key header is required') : error))] },
  { kind: 'defect', id: 'auth.signature-not-verified', area: 'auth', description: 'a token with a tampered payload is accepted', hooks: [skips('signatureVerified')] },
  { kind: 'defect', id: 'auth.adapter-allowlist-ignored', area: 'auth', description: "a ship upload naming an adapter outside the key's allowlist is accepted", hooks: [at(AUTH_HOOKS.adapterAllowlistEnforced, () => false)] },
  { kind: 'defect', id: 'auth.principal-not-enforced', area: 'auth', description: 'a dashboard token is accepted on billing setup', hooks: [at(AUTH_HOOKS.principalTypeEnforced, () => false)] },
  { kind: 'defect', id: 'auth.unknown-key-wrong-code', area: 'auth', description: 'the exchange answers an unknown key with 403 INVALID_API_KEY', hooks: [at(AUTH_HOOKS.keyRefusal, (error, { state }) => (state === 'unknown' ? ApiError.misfiled(403, 'INVALID_API_KEY', 'integration key is not recognised') : error))] },
  { kind: 'defect', id: 'auth.alg-none-accepted', area: 'auth', description: 'an unsigned (`alg: none`) token is accepted', hooks: [skips('unsignedRefused')] },
  { kind: 'defect', id: 'auth.foreign-key-accepted', area: 'auth', description: 'a token signed with the key in its own `jwk` header is accepted', hooks: [skips('ownKeyOnly')] },
  { kind: 'defect', id: 'auth.foreign-issuer-unverified', area: 'auth', description: 'a token naming another issuer is accepted without its signature verified', hooks: [skips('issuerVerified')] },
  { kind: 'defect', id: 'auth.org-header-trusted', area: 'auth', description: "`x-org-id` beside a bearer switches the call to that tenant", hooks: [at(AUTH_HOOKS.tenantOverride, (tenant, { orgHeader, byBearer }) => (byBearer && orgHeader ? orgHeader : tenant))] },
  { kind: 'defect', id: 'auth.dashboard-route-open', area: 'auth', description: 'an integration token is accepted on the dashboard-only routes', hooks: [at(AUTH_HOOKS.principalTypeEnforced, (enforced, { allowed }) => (allowed.includes('dashboard') ? false : enforced))] },
  { kind: 'defect', id: 'auth.expired-key-wrong-code', area: 'auth', description: 'the exchange answers an expired key with 401 REVOKED_API_KEY', hooks: [at(AUTH_HOOKS.keyRefusal, (error, { state }) => (state === 'expired' ? new ApiError('REVOKED_API_KEY', 'integration key has been revoked') : error))] },
  { kind: 'defect', id: 'auth.weak-signing-secret', area: 'auth', description: 'bearers are signed and verified with the secret `secret` (a default any attacker tries first)', hooks: [at(AUTH_HOOKS.signingSecret, () => 'secret')] },
  { kind: 'defect', id: 'auth.token-accepted-at-exp', area: 'auth', description: 'a token is still accepted during its `exp` second (expiry compared as exp < now, RFC 7519 asks on or after exp)', hooks: [at(AUTH_HOOKS.expiryLeewaySeconds, () => 1)] },
  { kind: 'defect', id: 'auth.token-dies-early', area: 'auth', description: 'a token is refused after half of its announced `expires_in`', hooks: [at(AUTH_HOOKS.tokenLifetimeSeconds, (seconds) => seconds / 2)] },
];

/** Legitimate variants of the auth domain (README "Variants"): choices the spec leaves open. */
export const AUTH_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'auth.token-lifetime-1800', area: 'auth', description: 'tokens live 1800 s and the exchange announces `expires_in: 1800`', spec: 'spec 5.2: "The bearer token is short-lived (typically 3600 seconds, given as `expires_in`)"; spec 2.1 expires_in: "seconds; typically 3600"', hooks: [at(AUTH_HOOKS.announcedTokenLifetimeSeconds, () => 1800)] },
  { kind: 'variant', id: 'auth.token-lifetime-7200', area: 'auth', description: 'tokens live 7200 s and the exchange announces `expires_in: 7200`', spec: 'spec 5.2: "The bearer token is short-lived (typically 3600 seconds, given as `expires_in`)"; spec 2.1 expires_in: "seconds; typically 3600"', hooks: [at(AUTH_HOOKS.announcedTokenLifetimeSeconds, () => 7200)] },
  { kind: 'variant', id: 'auth.token-extra-fields', area: 'auth', description: 'the token exchange also answers `scope: "integration"` (the principal type)', spec: 'spec 9.3: "additive changes only by default (new optional request fields, new response fields, new endpoints)"; spec 2.1 lists the fields a token response must carry' },
];

const EXCHANGE = ['exchangeIntegrationToken'] as const;

export const AUTH_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  { id: 'auth.token-type-wrong', operations: EXCHANGE, apply: (res) => void (res.status === 200 && (res.body = { ...(res.body as object), token_type: 'bearer' })) },
  { id: 'status.undocumented', operations: EXCHANGE, apply: (res) => void (res.status === 200 && (res.status = 201)) },
  { id: 'auth.token-extra-fields', operations: EXCHANGE, apply: (res) => void (res.status === 200 && (res.body = { ...(res.body as object), scope: 'integration' })) },
];
