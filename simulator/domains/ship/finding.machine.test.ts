// The finding machine against the contract lifecycle `finding` (spec 3.3) and the spec's table.
import { describe, expect, it } from 'vitest';
import { canTransition } from '../../kernel/machine.js';
import { machineMatchesContract } from '../../testing/machine-contract.js';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { FINDING_ACTIONS, findingMachine } from './finding.machine.js';

describe('the finding machine', () => {
  it('has the states and terminal states of the contract finding lifecycle', () => {
    expect(machineMatchesContract(findingMachine, 'finding')).toEqual(['v1.3.0', 'v1.2.0']);
  });

  it('allows exactly the moves of spec 3.3 and the sandbox source states of credit, reject and reopen', () => {
    const allowed = findingMachine.states.flatMap((s) => FINDING_ACTIONS.filter((a) => canTransition(findingMachine, s, a)).map((a) => `${s} ${a}`));
    expect(allowed.sort()).toEqual(
      [
        'OPEN dispute', 'OPEN dismiss', 'DISPUTED submit', 'SUBMITTED carrier-review',
        'SUBMITTED credit', 'CARRIER_REVIEW credit', 'SUBMITTED reject', 'CARRIER_REVIEW reject',
        'DISPUTED reopen', 'SUBMITTED reopen', 'CARRIER_REVIEW reopen', 'DISMISSED reopen', 'CREDITED reopen', 'REJECTED reopen',
      ].sort(),
    );
  });
});

describe('the finding machine under its deviations', () => {
  it('answers what its table in force says, with each defect or variant that changes its rows on', () => {
    const report = checkMachineDeviations(findingMachine, FINDING_ACTIONS, DEFECT_CATALOGUE, [undefined]);
    expect(report.entries.sort()).toEqual([
      'ship.carrier-review-from-disputed', 'ship.credit-from-carrier-review-only', 'ship.credit-from-disputed', 'ship.dispute-from-dismissed',
      'ship.reject-after-credit', 'ship.reject-from-carrier-review-only', 'ship.reject-from-disputed', 'ship.reopen-from-open',
    ]);
    expect(report.problems).toEqual([]);
  });
});
