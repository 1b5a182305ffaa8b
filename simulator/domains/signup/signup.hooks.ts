// The signup domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in signup.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';

export const SIGNUP_HOOKS = {
  /** spec 4.7: whether a slug held by a live session (one that can still become a tenant) refuses another. */
  slugHoldEnforced: hookPoint<boolean>('rule', 'signup.slug-hold-enforced'),
  /** spec 4.7: whether the code or magic-link token given verifies the email (as sent: it matches). */
  verificationAccepted: hookPoint<boolean, { field: 'code' | 'token' }>('validation', 'signup.verification-accepted'),
  /** spec 4.7 (the 201 names `verificationExpiresAt`): whether a verification after it is refused. */
  verificationExpiryEnforced: hookPoint<boolean>('rule', 'signup.verification-expiry-enforced'),
  /** Sandbox-defined lock-out: whether this wrong attempt locks verification (the limit reached). */
  verificationLocks: hookPoint<boolean>('rule', 'signup.verification-locks'),
  /** spec 4.7: whether a repeated provision (same idempotencyKey and payload) replays the outcome it had. */
  provisionReplaysOutcome: hookPoint<boolean>('rule', 'signup.provision-replays-outcome'),
} as const;
