// The auth domain's injectable defects (README "Defect injection"). Behaviour defects are one
// `defects.has('<id>')` line where the behaviour lives (authenticate.ts, tokens.ts), tested first so that
// with the defect off the default path runs unchanged; the ones that only change what the token exchange
// sends are below.
import type { DefectEntry, ResponseDefect } from '../../kernel/defects.js';

export const AUTH_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'auth.token-type-wrong', area: 'auth', description: 'token exchange answers `token_type: "bearer"`' },
  { kind: 'defect', id: 'status.undocumented', area: 'auth', description: 'token exchange answers 201 instead of 200' },
  { kind: 'defect', id: 'auth.expired-token-accepted', area: 'auth', description: 'token expiry is not checked' },
  { kind: 'defect', id: 'auth.revoked-key-tokens-valid', area: 'auth', description: 'tokens of a revoked key keep working' },
  { kind: 'defect', id: 'auth.missing-bearer-wrong-code', area: 'auth', description: 'a call without bearer gets 400 MISSING_API_KEY' },
  { kind: 'defect', id: 'auth.signature-not-verified', area: 'auth', description: 'a token with a tampered payload is accepted' },
  { kind: 'defect', id: 'auth.principal-not-enforced', area: 'auth', description: 'a dashboard token is accepted on billing setup' },
  { kind: 'defect', id: 'auth.unknown-key-wrong-code', area: 'auth', description: 'the exchange answers an unknown key with 403 INVALID_API_KEY' },
  { kind: 'defect', id: 'auth.alg-none-accepted', area: 'auth', description: 'an unsigned (`alg: none`) token is accepted' },
  { kind: 'defect', id: 'auth.foreign-key-accepted', area: 'auth', description: 'a token signed with the key in its own `jwk` header is accepted' },
  { kind: 'defect', id: 'auth.foreign-issuer-unverified', area: 'auth', description: 'a token naming another issuer is accepted without its signature verified' },
  { kind: 'defect', id: 'auth.org-header-trusted', area: 'auth', description: "`x-org-id` beside a bearer switches the call to that tenant" },
  { kind: 'defect', id: 'auth.dashboard-route-open', area: 'auth', description: 'an integration token is accepted on the dashboard-only routes' },
  { kind: 'defect', id: 'auth.expired-key-wrong-code', area: 'auth', description: 'the exchange answers an expired key with 401 REVOKED_API_KEY' },
  { kind: 'defect', id: 'auth.token-dies-early', area: 'auth', description: 'a token is refused after half of its announced `expires_in`' },
];

const EXCHANGE = ['exchangeIntegrationToken'] as const;

export const AUTH_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  { id: 'auth.token-type-wrong', operations: EXCHANGE, apply: (res) => void (res.status === 200 && (res.body = { ...(res.body as object), token_type: 'bearer' })) },
  { id: 'status.undocumented', operations: EXCHANGE, apply: (res) => void (res.status === 200 && (res.status = 201)) },
];
