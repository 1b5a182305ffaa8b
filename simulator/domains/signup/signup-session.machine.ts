// The signup session lifecycle as data (spec 3.5, 4.7; `x-lifecycle: signup-session` in v1.1.0 and v1.2.0).
// The spec gives two moves (create -> PENDING_EMAIL_VERIFICATION, a successful verify -> EMAIL_VERIFIED) and
// "other transitions: not shown"; the rest is the sandbox's reading of 4.7:
//   provision from EMAIL_VERIFIED: PROVISIONED at once, PROVISIONING while it takes sandbox time, or
//     REVIEW_REQUIRED for a slug on the review list (fixtures/signup/slugs.json);
//   finish: PROVISIONING -> PROVISIONED once its time has passed on the sandbox clock;
//   approve / reject: an operator's decision on REVIEW_REQUIRED (control API) -> PROVISIONING / FAILED;
//   resend (v1.2.0): a new code, still PENDING_EMAIL_VERIFICATION;
//   expire: a session not yet provisioning passes its expiresAt -> EXPIRED.
import { defineMachine } from '../../kernel/machine.js';

export type SignupStatus = 'PENDING_EMAIL_VERIFICATION' | 'EMAIL_VERIFIED' | 'PROVISIONING' | 'PROVISIONED' | 'REVIEW_REQUIRED' | 'FAILED' | 'EXPIRED';
export type SignupAction = 'verify' | 'resend' | 'provision' | 'finish' | 'approve' | 'reject' | 'expire';

/** What decides where provision leads. */
export interface ProvisionContext {
  needsReview?: boolean;
  /** Provisioning takes sandbox time (signup settings `provisioningSeconds` > 0). */
  takesTime?: boolean;
}

/** Where provision leads: REVIEW_REQUIRED for a slug on the review list, else PROVISIONING while it takes time. */
export const provisionTarget = (c: ProvisionContext): SignupStatus => (c.needsReview ? 'REVIEW_REQUIRED' : c.takesTime ? 'PROVISIONING' : 'PROVISIONED');

export const signupSessionMachine = defineMachine<SignupStatus, SignupAction, ProvisionContext>({
  name: 'signup session',
  states: ['PENDING_EMAIL_VERIFICATION', 'EMAIL_VERIFIED', 'PROVISIONING', 'PROVISIONED', 'REVIEW_REQUIRED', 'FAILED', 'EXPIRED'],
  terminal: ['PROVISIONED', 'FAILED', 'EXPIRED'],
  transitions: [
    { from: ['PENDING_EMAIL_VERIFICATION'], action: 'verify', to: 'EMAIL_VERIFIED' },
    { from: ['PENDING_EMAIL_VERIFICATION'], action: 'resend', to: 'PENDING_EMAIL_VERIFICATION' },
    { from: ['EMAIL_VERIFIED'], action: 'provision', to: provisionTarget },
    { from: ['PROVISIONING'], action: 'finish', to: 'PROVISIONED' },
    { from: ['REVIEW_REQUIRED'], action: 'approve', to: 'PROVISIONING' },
    { from: ['REVIEW_REQUIRED'], action: 'reject', to: 'FAILED' },
    { from: ['PENDING_EMAIL_VERIFICATION', 'EMAIL_VERIFIED'], action: 'expire', to: 'EXPIRED' },
  ],
});

/** States a session can expire from: nothing is provisioning or held for an operator yet. */
export const canExpire = (status: SignupStatus): boolean => signupSessionMachine.transitions.some((t) => t.action === 'expire' && t.from.includes(status));

/** A slug stays taken while its session can still become a tenant (or is one). */
export const holdsSlug = (status: SignupStatus): boolean => status !== 'EXPIRED' && status !== 'FAILED';
