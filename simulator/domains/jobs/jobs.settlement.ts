// What an earlier run of a job already did, read back from the domain's own records (issue 30 item 3). A
// processor whose work ends in one domain write (a feed session's final move, say) puts the job's verdict
// in that same write: `settledBy`. Run again after a restart or a takeover (the worker had not yet saved the
// verdict on the job, job.worker.ts), the processor finds its own job's verdict there and hands it back
// instead of redoing finished work, which would fail ("normalize is not allowed when the session is READY")
// or count twice. One record, one write: the domain state and the verdict cannot disagree.
import type { JobOutcome, JobSettlement } from './jobs.types.js';

/** On a domain record: the job whose work it holds the end of, and what that job came to. */
export interface SettledBy {
  jobId: string;
  settlement: JobSettlement;
}

export const settledBy = (jobId: string, settlement: JobSettlement): SettledBy => ({ jobId, settlement });

/**
 * The verdict an earlier run of job `jobId` left on a domain record: its outcome (success), a throw with its
 * message (failure, so the job fails with the same reason), or undefined when the record holds no verdict of
 * this job (the work is still to do, or another job's).
 */
export function earlierVerdict(record: { settledBy?: SettledBy | null } | undefined, jobId: string): JobOutcome | undefined {
  const earlier = record?.settledBy;
  if (!earlier || earlier.jobId !== jobId) return undefined;
  if (earlier.settlement.ok) return earlier.settlement.outcome;
  throw new Error(earlier.settlement.error);
}
