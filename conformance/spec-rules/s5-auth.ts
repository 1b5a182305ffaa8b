// Spec 5: authentication.
import { defineRules } from './rule.js';

export const section5Rules = defineRules([
  { id: '5.1.key-exchange', section: '5.1', kind: 'security', sentence: 'x-api-key to POST /api/auth/token/integration returns a bearer JWT that opens tenant endpoints as Authorization: Bearer.', checks: ['auth.token-exchange'] },
  { id: '5.1.bearer.verified', section: '5.1', kind: 'security', sentence: 'The bearer is the server\'s JWT: an altered, unsigned or foreign-signed token, or one naming another issuer, is invalid (401 INVALID_TOKEN).', checks: ['auth.tampered-token', 'auth.alg-none-token', 'auth.foreign-key-token', 'auth.wrong-issuer-token', 'auth.malformed-bearer'] },
  { id: '5.1.bearer.weak-secrets', section: '5.1', kind: 'security', sentence: 'Only the server\'s own key signs bearers: the genuine claims signed with a guessable secret are invalid.', checks: ['auth.weak-secret-token'] },
  { id: '5.1.bearer.names-tenant', section: '5.1', kind: 'security', sentence: 'The bearer alone names the tenant: headers naming another tenant do not change whose call it is.', checks: ['auth.token-binds-tenant'] },
  { id: '5.1.key.operator-issued', section: '5.1', kind: 'security', sentence: 'Integration keys are issued by an operator; the secret is revealed once.', unheld: { reason: 'operator-side: the key lifecycle is out of the public surface (spec 1); the revealed-once part is held for signup provisioning (4.7.signup.secret-once)' } },
  { id: '5.2.token.short-lived', section: '5.2', kind: 'timing', sentence: 'The bearer lives expires_in seconds: served before, refused with 401 INVALID_TOKEN after.', checks: ['auth.expired-token'], note: 'simulator profile: the virtual clock; served at expires_in minus a margin, refused one second after' },
  { id: '5.2.token.exp-boundary', section: '5.2', kind: 'timing', sentence: 'A token presented at exactly its exp second is refused (RFC 7519: on or after exp).', checks: ['auth.token-refused-at-exp'] },
  { id: '5.2.token.re-exchange', section: '5.2', kind: 'security', sentence: 'On 401 INVALID_TOKEN, re-exchanging the key gives a working token.', checks: ['auth.expired-token'] },
  { id: '5.3.legacy-pair-off', section: '5.3', kind: 'security', sentence: 'The legacy x-api-key + x-org-id pair works only with ALLOW_API_KEY_FALLBACK, which should stay disabled.', checks: ['landed-cost.legacy-pair-off-by-default'], note: 'simulator profile only: a deployment may enable the setting' },
  { id: '5.4.scopes.not-enforced-mostly', section: '5.4', kind: 'security', sentence: 'Most tenant endpoints do not enforce per-route scopes.', unheld: { reason: '"most" names no endpoint; the scope list is not shown, so a check cannot tell which routes may enforce one' } },
  { id: '5.4.scope.ship-upload', section: '5.4', kind: 'error', sentence: 'POST /api/carrier/agreements/upload requires ship:upload, else 403 SCOPE_DENIED with details.required and details.provided.', checks: ['auth.scope-denied'] },
  { id: '5.4.principal.billing', section: '5.4', kind: 'error', sentence: 'Billing setup requires principal type integration, else 403 PRINCIPAL_DENIED with details.required and details.actual.', checks: ['auth.principal-denied'] },
  { id: '5.4.adapter-allowlist', section: '5.4', kind: 'security', sentence: 'An integration key may carry an adapter allowlist checked on adapter_id for ship upload.', checks: ['auth.adapter-not-allowed'] },
  { id: '5.5.dashboard-only', section: '5.5', kind: 'security', sentence: 'Dashboard-only routes (issue acknowledgement, key lifecycle) are not callable with integration tokens.', checks: ['auth.dashboard-route-denied'] },
  { id: '5.6.signup-no-auth', section: '5.6', kind: 'security', contract: 'v1.2.0', sentence: 'Signup endpoints need no authentication.', checks: ['signup.create-rules'] },
]);
