// The review machine against the contract's `sima-workflow` lifecycle (spec 3.5; `x-lifecycle` on
// SimaWorkflowStatus): the same states, and no terminal state on either side. The moves are sandbox-defined.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../kernel/errors.js';
import { canTransition, transition } from '../../kernel/machine.js';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { machineMatchesContract } from '../../testing/machine-contract.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { SIMA_REVIEW_ACTIONS, simaReviewMachine } from './sima-review.machine.js';

describe('the SIMA review machine', () => {
  it('has the states of the contract sima-workflow lifecycle and, like it, no terminal state', () => {
    expect(machineMatchesContract(simaReviewMachine, 'sima-workflow')).toContain('v1.3.0');
    expect(simaReviewMachine.terminal).toEqual([]);
  });

  it('decides an OPEN result by accept, override or dismiss, and only reopen moves a decided one', () => {
    expect(transition(simaReviewMachine, 'OPEN', 'accept', undefined)).toBe('ACCEPTED');
    expect(transition(simaReviewMachine, 'OPEN', 'override', undefined)).toBe('OVERRIDDEN');
    expect(transition(simaReviewMachine, 'OPEN', 'dismiss', undefined)).toBe('DISMISSED');
    for (const decided of ['ACCEPTED', 'OVERRIDDEN', 'DISMISSED'] as const) {
      expect(transition(simaReviewMachine, decided, 'reopen', undefined)).toBe('OPEN');
      for (const action of SIMA_REVIEW_ACTIONS.filter((a) => a !== 'reopen')) expect(canTransition(simaReviewMachine, decided, action)).toBe(false);
    }
  });

  it('refuses reopening an OPEN result with 409 ACTION_NOT_ALLOWED naming the state and the action', () => {
    let refused: unknown;
    try {
      transition(simaReviewMachine, 'OPEN', 'reopen', undefined);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(409);
    expect((refused as ApiError).toEnvelope()).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'OPEN', action: 'reopen' } });
  });
});

describe('the SIMA review machine under its deviations', () => {
  it('has none: no catalogue entry changes its rows, and transition() answers what they say', () => {
    const report = checkMachineDeviations(simaReviewMachine, SIMA_REVIEW_ACTIONS, DEFECT_CATALOGUE, [undefined]);
    expect(report.entries).toEqual([]);
    expect(report.problems).toEqual([]);
  });
});
