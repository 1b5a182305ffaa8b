// The job machine against the contract's job lifecycle (spec 3.1; `x-lifecycle: job` on JobStatus). Only
// the state sets are compared, so a new move between existing states (a resume after a restart) keeps this
// passing; a new or dropped state, or a change of what is terminal, does not. Then the table under each
// deviation of the catalogue that changes its rows (testing/machine-deviations.ts).
import { describe, expect, it } from 'vitest';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { compareMachineWithContract, machineMatchesContract } from '../../testing/machine-contract.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { jobMachine, type JobAction } from './job.machine.js';

const JOB_ACTIONS: readonly JobAction[] = ['start', 'resume', 'succeed', 'fail'];

describe('the job machine', () => {
  it('has the states and terminal states of the contract job lifecycle in every version', () => {
    expect(machineMatchesContract(jobMachine, 'job')).toEqual(['v1.3.0', 'v1.2.0', 'v1.1.0']);
  });
});

describe('the job machine under its deviations', () => {
  it('answers what its table in force says, with each defect or variant that changes its rows on', () => {
    const report = checkMachineDeviations(jobMachine, JOB_ACTIONS, DEFECT_CATALOGUE, [undefined]);
    expect(report.entries.sort()).toEqual(['jobs.failed-reads-completed', 'jobs.stuck-pending']);
    expect(report.problems).toEqual([]);
  });
});

describe('the machine-contract helper', () => {
  it('names each state the machine and the contract disagree on', () => {
    const drifted = { name: 'job', states: ['PENDING', 'PROCESSING', 'COMPLETED', 'RETRYING'], terminal: ['COMPLETED'] };
    expect(compareMachineWithContract(drifted, 'job', ['v1.3.0']).mismatches).toEqual([
      'v1.3.0 states: the contract has FAILED, the machine does not',
      'v1.3.0 states: the machine has RETRYING, the contract does not',
      'v1.3.0 terminal: the contract has FAILED, the machine does not',
    ]);
    expect(() => machineMatchesContract(drifted, 'job', ['v1.3.0'])).toThrow(/job machine differs from contract lifecycle job/);
  });

  it('skips versions without the lifecycle and refuses a lifecycle no version declares', () => {
    // Signup sessions left the contract in v1.3.0 (spec 4.7, 9.1).
    expect(compareMachineWithContract(jobMachine, 'signup-session').versions).toEqual(['v1.2.0', 'v1.1.0']);
    expect(() => machineMatchesContract(jobMachine, 'no-such-lifecycle')).toThrow(/declares lifecycle no-such-lifecycle/);
  });
});
