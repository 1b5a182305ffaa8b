// The job lifecycle as data (spec 3.1): PENDING -start-> PROCESSING, then -succeed-> COMPLETED or
// -fail-> FAILED. Both end states are terminal: nothing moves a finished job again. `resume` is the
// sandbox's restart path: a job caught PROCESSING by a crash runs again from the start, still PROCESSING
// (a client never sees it go back to PENDING).
import { defineMachine } from '../../kernel/machine.js';

export type JobStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
export type JobAction = 'start' | 'resume' | 'succeed' | 'fail';

export const jobMachine = defineMachine<JobStatus, JobAction>({
  name: 'job',
  states: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'],
  terminal: ['COMPLETED', 'FAILED'],
  transitions: [
    { from: ['PENDING'], action: 'start', to: 'PROCESSING' },
    { from: ['PROCESSING'], action: 'resume', to: 'PROCESSING' },
    { from: ['PROCESSING'], action: 'succeed', to: 'COMPLETED' },
    { from: ['PROCESSING'], action: 'fail', to: 'FAILED' },
  ],
});

/** PENDING and PROCESSING: what queue admission counts (spec 8.2) and what a restart resumes. */
export const isInFlight = (status: JobStatus): boolean => !jobMachine.terminal.includes(status);

/** How a worker picks a job up: a PENDING job starts, a PROCESSING one (after a restart) resumes. */
export const pickUpAction = (status: JobStatus): JobAction => (status === 'PROCESSING' ? 'resume' : 'start');
