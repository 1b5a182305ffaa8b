// The signup domain's injectable defects (README "Defect injection"). Behaviour defects are one
// `defects.has('<id>')` line where the behaviour lives (signup.routes.ts, signup-sessions.ts); the one that
// only changes what is sent is below.
import type { DefectEntry, ResponseDefect } from '../../kernel/defects.js';

export const SIGNUP_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'signup.slug-taken-accepted', area: 'signup', description: 'a slug held by a live signup session is accepted again (201 instead of 409)' },
  { kind: 'defect', id: 'signup.wrong-code-accepted', area: 'signup', description: 'verify-email accepts any six-digit code' },
  { kind: 'defect', id: 'signup.no-lockout', area: 'signup', description: 'wrong verification codes are never locked out (always 400)' },
  { kind: 'defect', id: 'signup.never-expires', area: 'signup', description: 'signup sessions never become EXPIRED after expiresAt' },
  { kind: 'defect', id: 'signup.provision-unverified', area: 'signup', description: 'provision is allowed before the email is verified' },
  { kind: 'defect', id: 'signup.provision-replay-new-tenant', area: 'signup', description: 'repeating provision with the same idempotencyKey provisions another tenant and key' },
  { kind: 'defect', id: 'signup.disabled-no-retry-after', area: 'signup', description: '503 FEATURE_DISABLED answers lack the Retry-After header' },
];

export const SIGNUP_OPERATIONS = ['createSignupSession', 'getSignupSession', 'verifySignupEmail', 'verifySignupMagicLink', 'resendSignupVerification', 'provisionSignupSession'] as const;

export const SIGNUP_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  {
    id: 'signup.disabled-no-retry-after',
    operations: SIGNUP_OPERATIONS,
    apply(res) {
      if (res.status === 503) res.remove('Retry-After');
    },
  },
];
