// The claim submission machine against the contract lifecycle `claim-submission` and spec 3.4's table.
import { describe, expect, it } from 'vitest';
import { transition } from '../../kernel/machine.js';
import { ApiError } from '../../kernel/errors.js';
import { machineMatchesContract } from '../../testing/machine-contract.js';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { claimMachine, type ClaimAction, type ClaimContext, type CreditOutcome } from './claim.machine.js';
import type { ClaimSubmissionStatus } from './ship.types.js';

const next = (from: ClaimSubmissionStatus, action: ClaimAction, creditOutcome?: CreditOutcome) => {
  try {
    return transition(claimMachine, from, action, { creditOutcome });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'ACTION_NOT_ALLOWED') return 409;
    throw error;
  }
};

describe('the claim submission machine', () => {
  it('has the states and terminal states of the contract claim-submission lifecycle', () => {
    expect(machineMatchesContract(claimMachine, 'claim-submission')).toEqual(['v1.3.0', 'v1.2.0']);
  });

  it('moves DRAFT -> READY -> SUBMITTED -> ACKNOWLEDGED and refuses a repeat into the state reached', () => {
    expect([next('DRAFT', 'generate-packet'), next('READY', 'submit'), next('SUBMITTED', 'acknowledge')]).toEqual(['READY', 'SUBMITTED', 'ACKNOWLEDGED']);
    expect([next('READY', 'generate-packet'), next('SUBMITTED', 'submit'), next('ACKNOWLEDGED', 'acknowledge'), next('DRAFT', 'submit')]).toEqual([409, 409, 409, 409]);
  });

  it('follows the confirm-credit table: all credited, all failed, partial, from SUBMITTED, ACKNOWLEDGED and FAILED', () => {
    const table = (['SUBMITTED', 'ACKNOWLEDGED', 'FAILED'] as const).map((from) => [from, next(from, 'confirm-credit', 'all-credited'), next(from, 'confirm-credit', 'all-failed'), next(from, 'confirm-credit', 'partial')]);
    expect(table).toEqual([
      ['SUBMITTED', 'CREDIT_CONFIRMED', 'FAILED', 'SUBMITTED'],
      ['ACKNOWLEDGED', 'CREDIT_CONFIRMED', 'FAILED', 'ACKNOWLEDGED'],
      ['FAILED', 'CREDIT_CONFIRMED', 'FAILED', 'ACKNOWLEDGED'],
    ]);
    for (const from of ['DRAFT', 'READY', 'CREDIT_CONFIRMED', 'CLOSED'] as const) expect(next(from, 'confirm-credit', 'all-credited'), from).toBe(409);
  });

  it('closes from any state but CLOSED, and nothing leaves CLOSED', () => {
    for (const from of claimMachine.states) expect(next(from, 'close'), from).toBe(from === 'CLOSED' ? 409 : 'CLOSED');
    for (const action of ['generate-packet', 'submit', 'acknowledge', 'confirm-credit', 'fail'] as const) expect(next('CLOSED', action, 'all-credited')).toBe(409);
  });
});

describe('the claim submission machine under its deviations', () => {
  it('answers what its table in force says, with each defect or variant that changes its rows on, for every credit outcome', () => {
    const actions: readonly ClaimAction[] = ['generate-packet', 'submit', 'acknowledge', 'confirm-credit', 'fail', 'close'];
    const contexts: ClaimContext[] = (['all-credited', 'all-failed', 'partial'] as const).map((creditOutcome) => ({ creditOutcome }));
    const report = checkMachineDeviations(claimMachine, actions, DEFECT_CATALOGUE, contexts);
    expect(report.entries.sort()).toEqual(['claims.closed-reopened', 'claims.partial-from-failed-stays-failed']);
    expect(report.problems).toEqual([]);
  });
});
