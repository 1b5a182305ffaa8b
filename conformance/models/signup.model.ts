// The signup session lifecycle (spec 3.5, 4.7) as data for the model-based check. The states and terminal
// states are the contract's (`x-lifecycle: signup-session`, v1.2.0 and v1.1.0). The spec states two moves
// (create -> PENDING_EMAIL_VERIFICATION, a successful verify -> EMAIL_VERIFIED) and "other transitions: not
// shown"; the rest of the table is the sandbox's reading of 4.7 (provision of a verified session: 201
// PROVISIONED, 202 PROVISIONING or REVIEW_REQUIRED, FAILED; expiry of a session not yet provisioning). The
// check that uses it needs the control API (the emailed code), so it runs in the simulator profile only,
// where sandbox-defined rules may be enforced (conformance/docs/models.md).
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { defineTable, isState, reachable } from './machine-table.js';

export type SignupStatus = 'PENDING_EMAIL_VERIFICATION' | 'EMAIL_VERIFIED' | 'PROVISIONING' | 'PROVISIONED' | 'REVIEW_REQUIRED' | 'FAILED' | 'EXPIRED';

const declared = contractLifecycle(loadContract('v1.2.0'), 'signup-session');

const signupLifecycle = defineTable<SignupStatus>({
  name: 'signup session',
  source: 'spec 3.5, 4.7',
  states: declared.states as SignupStatus[],
  terminal: declared.terminal as SignupStatus[],
  transitions: [
    { from: null, by: 'POST /api/public/signup/sessions', to: 'PENDING_EMAIL_VERIFICATION' },
    { from: 'PENDING_EMAIL_VERIFICATION', by: 'a successful verify call', to: 'EMAIL_VERIFIED' },
    { from: 'PENDING_EMAIL_VERIFICATION', by: 'expiresAt passes', to: 'EXPIRED' },
    { from: 'EMAIL_VERIFIED', by: 'expiresAt passes', to: 'EXPIRED' },
    { from: 'EMAIL_VERIFIED', by: 'provision (202 in progress)', to: 'PROVISIONING' },
    { from: 'EMAIL_VERIFIED', by: 'provision (202 manual review)', to: 'REVIEW_REQUIRED' },
    { from: 'EMAIL_VERIFIED', by: 'provision (201 completed)', to: 'PROVISIONED' },
    { from: 'EMAIL_VERIFIED', by: 'provision fails', to: 'FAILED' },
    { from: 'PROVISIONING', by: 'provisioning completes', to: 'PROVISIONED' },
    { from: 'PROVISIONING', by: 'provisioning fails', to: 'FAILED' },
    { from: 'REVIEW_REQUIRED', by: 'review approved', to: 'PROVISIONING' },
    { from: 'REVIEW_REQUIRED', by: 'review approved', to: 'PROVISIONED' },
    { from: 'REVIEW_REQUIRED', by: 'review rejected', to: 'FAILED' },
  ],
});

export const isSignupStatus = (value: unknown): value is SignupStatus => isState(signupLifecycle, value);
export const canFollow = (from: SignupStatus, to: SignupStatus) => reachable(signupLifecycle, from, to);
/** States from which a session still expires: nothing provisioning yet. */
export const EXPIRABLE: readonly SignupStatus[] = signupLifecycle.transitions.filter((t) => t.to === 'EXPIRED' && t.from !== null).map((t) => t.from!);
