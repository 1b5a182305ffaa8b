// The signup domain's deviations (README "Defect injection"), as data: rows of the signup session table
// (applied by transition()), rules at the hook points of signup.hooks.ts, and below them the one that only
// changes what is sent.
import type { DefectEntry, ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { deviateMachine } from '../../kernel/machine.js';
import { provisionTarget, signupSessionMachine } from './signup-session.machine.js';
import { SIGNUP_HOOKS } from './signup.hooks.js';

export const SIGNUP_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'signup.slug-taken-accepted', area: 'signup', description: 'a slug held by a live signup session is accepted again (201 instead of 409)', hooks: [at(SIGNUP_HOOKS.slugHoldEnforced, () => false)] },
  { kind: 'defect', id: 'signup.wrong-code-accepted', area: 'signup', description: 'verify-email accepts any six-digit code', hooks: [at(SIGNUP_HOOKS.verificationAccepted, (accepted, { field }) => accepted || field === 'code')] },
  { kind: 'defect', id: 'signup.no-lockout', area: 'signup', description: 'wrong verification codes are never locked out (always 400)', hooks: [at(SIGNUP_HOOKS.verificationLocks, () => false)] },
  { kind: 'defect', id: 'signup.verification-never-expires', area: 'signup', description: 'the verification code is accepted after `verificationExpiresAt` (until the session itself expires)', hooks: [at(SIGNUP_HOOKS.verificationExpiryEnforced, () => false)] },
  { kind: 'defect', id: 'signup.never-expires', area: 'signup', description: 'signup sessions never become EXPIRED after expiresAt', machine: [deviateMachine(signupSessionMachine, { remove: [{ from: ['PENDING_EMAIL_VERIFICATION', 'EMAIL_VERIFIED'], action: 'expire' }] })] },
  { kind: 'defect', id: 'signup.provision-unverified', area: 'signup', description: 'provision is allowed before the email is verified', machine: [deviateMachine(signupSessionMachine, { add: [{ from: ['PENDING_EMAIL_VERIFICATION'], action: 'provision', to: provisionTarget }] })] },
  { kind: 'defect', id: 'signup.provision-replay-new-tenant', area: 'signup', description: 'repeating provision with the same idempotencyKey provisions another tenant and key', hooks: [at(SIGNUP_HOOKS.provisionReplaysOutcome, () => false)] },
  { kind: 'defect', id: 'signup.disabled-no-retry-after', area: 'signup', description: '503 FEATURE_DISABLED answers lack the Retry-After header' },
];

const SIGNUP_OPERATIONS = ['createSignupSession', 'getSignupSession', 'verifySignupEmail', 'verifySignupMagicLink', 'resendSignupVerification', 'provisionSignupSession'] as const;

export const SIGNUP_RESPONSE_DEFECTS: readonly ResponseDefect[] = [
  {
    id: 'signup.disabled-no-retry-after',
    operations: SIGNUP_OPERATIONS,
    apply(res) {
      if (res.status === 503) res.remove('Retry-After');
    },
  },
];
