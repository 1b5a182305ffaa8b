// The job lifecycle of spec 3.1 as data, and the rules an observed job must keep (spec 2.2, 3.1), written
// from the spec alone. An observation is judged against the previous observation of the same job.
// The states and terminal states are the contract's (`x-lifecycle: job`, the same in every version); the
// transitions are the spec's, which the contract does not describe.
import { loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle } from '../../contracts/lib/lifecycles.js';
import { defineTable, initialStates, isState, isTerminal, reachable } from './machine-table.js';

export type JobStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

const declared = contractLifecycle(loadContract('v1.3.0'), 'job');

/** spec 3.1. */
export const jobLifecycle = defineTable<JobStatus>({
  name: 'job',
  source: 'spec 3.1',
  states: declared.states as JobStatus[],
  terminal: declared.terminal as JobStatus[],
  transitions: [
    { from: null, by: 'enqueue endpoint (request accepted, 202 with jobId)', to: 'PENDING' },
    { from: 'PENDING', by: 'worker starts', to: 'PROCESSING' },
    { from: 'PROCESSING', by: 'worker finishes with success', to: 'COMPLETED' },
    { from: 'PROCESSING', by: 'worker finishes with failure', to: 'FAILED' },
  ],
});

export const isJobStatus = (value: unknown): value is JobStatus => isState(jobLifecycle, value);
export const isTerminalStatus = (status: JobStatus): boolean => isTerminal(jobLifecycle, status);

/** What the suite last knew of a job: the receipt gives only a status, a read gives the timestamps too. */
export interface KnownJob {
  id: string;
  status: JobStatus;
  createdAt?: string;
  updatedAt?: string;
}

export interface JobProblem {
  rule: string;
  message: string;
}

/**
 * The problems of one observation of a job (a GET /api/jobs/{id} body or a list item), given what was known
 * before. Rules: the status is a spec state and reachable from the last one through the table (no backwards
 * move; terminal states never change); progress is 100 when COMPLETED; a FAILED job has a string error;
 * createdAt never changes; updatedAt >= createdAt, and strictly later than before whenever the status moved
 * (on the first read: later than createdAt when the job has already left its creation state).
 */
export function judgeJob(known: KnownJob, observed: Record<string, unknown>): JobProblem[] {
  const problems: JobProblem[] = [];
  const label = `job ${known.id}`;
  if (observed.id !== undefined && observed.id !== known.id) problems.push({ rule: 'job-id', message: `${label} was answered with id ${JSON.stringify(observed.id)}` });
  const status = observed.status;
  if (!isJobStatus(status)) {
    problems.push({ rule: 'job-status-known', message: `${label} has status ${JSON.stringify(status)}, not one of ${jobLifecycle.states.join(', ')} (spec 2.2)` });
    return problems;
  }
  if (!reachable(jobLifecycle, known.status, status)) {
    const rule = isTerminalStatus(known.status) ? 'job-terminal-stable' : 'job-transition';
    const why = isTerminalStatus(known.status) ? `${known.status} is terminal` : `no path of spec 3.1 leads from ${known.status} to ${status}`;
    problems.push({ rule, message: `${label} moved from ${known.status} to ${status}: ${why}` });
  }
  if (status === 'COMPLETED' && observed.progress !== 100) {
    problems.push({ rule: 'job-progress-complete', message: `${label} is COMPLETED with progress ${JSON.stringify(observed.progress)}, not 100 (spec 2.2)` });
  }
  if (status === 'FAILED' && typeof observed.error !== 'string') {
    problems.push({ rule: 'job-failed-error', message: `${label} is FAILED with error ${JSON.stringify(observed.error)}, not a message (spec 2.2, 6)` });
  }
  const createdAt = typeof observed.createdAt === 'string' ? Date.parse(observed.createdAt) : NaN;
  const updatedAt = typeof observed.updatedAt === 'string' ? Date.parse(observed.updatedAt) : NaN;
  if (Number.isNaN(createdAt) || Number.isNaN(updatedAt)) {
    problems.push({ rule: 'job-timestamps', message: `${label} has createdAt ${JSON.stringify(observed.createdAt)} and updatedAt ${JSON.stringify(observed.updatedAt)}: both must be date-times` });
    return problems;
  }
  if (known.createdAt !== undefined && Date.parse(known.createdAt) !== createdAt) {
    problems.push({ rule: 'job-created-at-stable', message: `${label} changed createdAt from ${known.createdAt} to ${observed.createdAt}` });
  }
  if (updatedAt < createdAt) {
    problems.push({ rule: 'job-updated-after-created', message: `${label} has updatedAt ${observed.updatedAt} before createdAt ${observed.createdAt}` });
  }
  if (known.updatedAt === undefined) {
    // First read: a job past its creation state has moved since it was created (spec 3.1: created PENDING).
    if (!initialStates(jobLifecycle).includes(status) && !(updatedAt > createdAt)) {
      problems.push({ rule: 'job-updated-at-advances', message: `${label} is ${status} but updatedAt ${observed.updatedAt} is not later than createdAt ${observed.createdAt}, although it left PENDING` });
    }
  } else if (status !== known.status && !(updatedAt > Date.parse(known.updatedAt))) {
    problems.push({ rule: 'job-updated-at-advances', message: `${label} moved from ${known.status} to ${status} but updatedAt ${observed.updatedAt} is not later than the previous updatedAt ${known.updatedAt}` });
  }
  return problems;
}

/** What is known after an observation that passed (or the status alone, from a receipt). */
export function learn(known: KnownJob, observed: Record<string, unknown>): KnownJob {
  return {
    id: known.id,
    status: isJobStatus(observed.status) ? observed.status : known.status,
    createdAt: typeof observed.createdAt === 'string' ? observed.createdAt : known.createdAt,
    updatedAt: typeof observed.updatedAt === 'string' ? observed.updatedAt : known.updatedAt,
  };
}
