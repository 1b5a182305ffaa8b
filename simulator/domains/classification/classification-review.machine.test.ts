// The classification review machine against the contract's `classification-review` lifecycle
// (ClassificationReviewStatus: x-lifecycle, x-terminal-states), and every move allowed and refused.
import { describe, expect, it } from 'vitest';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { createDefects } from '../../kernel/defects.js';
import { ApiError } from '../../kernel/errors.js';
import { canTransition, transition } from '../../kernel/machine.js';
import { machineMatchesContract } from '../../testing/machine-contract.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { CLASSIFICATION_REVIEW_ACTIONS, classificationReviewMachine } from './classification-review.machine.js';

const suggested = { suggestedHsCode: '9401.61' };

describe('the classification review machine', () => {
  it('has the states and terminal states of the contract classification-review lifecycle', () => {
    expect(machineMatchesContract(classificationReviewMachine, 'classification-review')).toContain('v1.3.0');
  });

  it('moves a PENDING review to APPROVED, REJECTED or OVERRIDDEN', () => {
    expect(transition(classificationReviewMachine, 'PENDING', 'approve', suggested)).toBe('APPROVED');
    expect(transition(classificationReviewMachine, 'PENDING', 'reject', suggested)).toBe('REJECTED');
    expect(transition(classificationReviewMachine, 'PENDING', 'override', suggested)).toBe('OVERRIDDEN');
  });

  it('moves a decided review nowhere', () => {
    for (const decided of ['APPROVED', 'REJECTED', 'OVERRIDDEN'] as const) {
      for (const action of CLASSIFICATION_REVIEW_ACTIONS) expect(canTransition(classificationReviewMachine, decided, action)).toBe(false);
    }
  });

  it('refuses approving a review without a suggested code with 409 ACTION_NOT_ALLOWED, and allows overriding it', () => {
    let refused: unknown;
    try {
      transition(classificationReviewMachine, 'PENDING', 'approve', { suggestedHsCode: '' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).toEnvelope()).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'PENDING', action: 'approve' } });
    expect(transition(classificationReviewMachine, 'PENDING', 'override', { suggestedHsCode: '' })).toBe('OVERRIDDEN');
  });
});

describe('the classification review machine under its deviations', () => {
  it('answers what its table in force says, with each defect or variant that changes its rows on (with and without a suggested code)', () => {
    const report = checkMachineDeviations(classificationReviewMachine, CLASSIFICATION_REVIEW_ACTIONS, DEFECT_CATALOGUE, [suggested, { suggestedHsCode: '' }]);
    expect(report.entries.sort()).toEqual(['classify.review-overridden-after-approval', 'classify.review-redecided']);
    expect(report.problems).toEqual([]);
  });

  it('decides a decided review again under classify.review-redecided, approve still needing a suggested code', () => {
    const switches = createDefects(['classify.review-redecided'], DEFECT_CATALOGUE);
    expect(transition(classificationReviewMachine, 'REJECTED', 'approve', suggested, {}, switches)).toBe('APPROVED');
    expect(transition(classificationReviewMachine, 'OVERRIDDEN', 'override', suggested, {}, switches)).toBe('OVERRIDDEN');
    expect(() => transition(classificationReviewMachine, 'APPROVED', 'approve', { suggestedHsCode: '' }, {}, switches)).toThrow(ApiError);
  });

  it('overrides only an APPROVED review under classify.review-overridden-after-approval', () => {
    const switches = createDefects(['classify.review-overridden-after-approval'], DEFECT_CATALOGUE);
    expect(transition(classificationReviewMachine, 'APPROVED', 'override', suggested, {}, switches)).toBe('OVERRIDDEN');
    expect(canTransition(classificationReviewMachine, 'REJECTED', 'override', switches)).toBe(false);
  });
});
