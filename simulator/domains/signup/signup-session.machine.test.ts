// The signup session machine against the contract's lifecycle (spec 3.5; `x-lifecycle: signup-session`),
// which only the archived versions declare.
import { describe, expect, it } from 'vitest';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { transition } from '../../kernel/machine.js';
import { machineMatchesContract } from '../../testing/machine-contract.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { canExpire, holdsSlug, signupSessionMachine, type ProvisionContext, type SignupAction } from './signup-session.machine.js';

const ACTIONS: readonly SignupAction[] = ['verify', 'resend', 'provision', 'finish', 'approve', 'reject', 'expire'];

describe('the signup session machine', () => {
  it('has the states and terminal states of the contract signup-session lifecycle in v1.2.0 and v1.1.0', () => {
    expect(machineMatchesContract(signupSessionMachine, 'signup-session')).toEqual(['v1.2.0', 'v1.1.0']);
  });

  it('verifies only a session awaiting verification (spec 3.5), else 409 ACTION_NOT_ALLOWED', () => {
    expect(transition(signupSessionMachine, 'PENDING_EMAIL_VERIFICATION', 'verify', {})).toBe('EMAIL_VERIFIED');
    expect(() => transition(signupSessionMachine, 'EMAIL_VERIFIED', 'verify', {})).toThrow(/verify is not allowed when the signup session is EMAIL_VERIFIED/);
  });

  it('provisions a verified session to PROVISIONED, PROVISIONING or REVIEW_REQUIRED, and nothing else', () => {
    expect(transition(signupSessionMachine, 'EMAIL_VERIFIED', 'provision', {})).toBe('PROVISIONED');
    expect(transition(signupSessionMachine, 'EMAIL_VERIFIED', 'provision', { takesTime: true })).toBe('PROVISIONING');
    expect(transition(signupSessionMachine, 'EMAIL_VERIFIED', 'provision', { needsReview: true, takesTime: true })).toBe('REVIEW_REQUIRED');
    for (const from of ['PENDING_EMAIL_VERIFICATION', 'EXPIRED', 'FAILED'] as const) {
      expect(() => transition(signupSessionMachine, from, 'provision', {})).toThrow(/not allowed/);
    }
  });

  it('moves nothing out of a terminal state', () => {
    for (const from of signupSessionMachine.terminal) {
      expect(signupSessionMachine.transitions.filter((t) => t.from.includes(from))).toEqual([]);
    }
  });

  it('expires only sessions not yet provisioning, and frees the slug of expired and failed sessions', () => {
    expect(signupSessionMachine.states.filter(canExpire)).toEqual(['PENDING_EMAIL_VERIFICATION', 'EMAIL_VERIFIED']);
    expect(signupSessionMachine.states.filter((s) => !holdsSlug(s))).toEqual(['FAILED', 'EXPIRED']);
  });
});

describe('the signup session machine under its deviations', () => {
  it('answers what its table in force says, with each defect or variant that changes its rows on', () => {
    // Each outcome of provision's computed target: at once, taking sandbox time, held for review.
    const contexts: ProvisionContext[] = [{}, { takesTime: true }, { needsReview: true, takesTime: true }];
    const report = checkMachineDeviations(signupSessionMachine, ACTIONS, DEFECT_CATALOGUE, contexts);
    expect(report.entries.sort()).toEqual(['signup.never-expires', 'signup.provision-unverified']);
    expect(report.problems).toEqual([]);
  });
});
