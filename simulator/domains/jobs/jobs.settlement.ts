// What an earlier run of a job already did, read back from the domain's own records (issue 30 item 3). A
// processor whose work ends in one domain write (a feed session's final move, say) puts the job's verdict
// in that same write: `settledBy`. Run again after a restart or a takeover (the worker had not yet saved the
// verdict on the job, job.worker.ts), the processor finds its own job's verdict there and hands it back
// instead of redoing finished work, which would fail ("normalize is not allowed when the session is READY")
// or count twice. One record, one write: the domain state and the verdict cannot disagree.
import { nameUuid } from '../../kernel/ids.js';
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

// A processor whose work is many domain writes (one per row) cannot put its verdict in the same write: a
// crash mid-run leaves part of the work stored, and the run after the restart starts again from the first
// row. Keyed by the job, its re-run lands on what the earlier run wrote instead of beside it: the records it
// creates take ids named by the job and the row (`jobRecordId`: created once, never twice), and the records
// it replaces say which job wrote them and whether they were there before that job (`writtenBy`), so the
// re-run counts "created" and "updated" as the first run would have, not its own earlier writes as updates.

/** Names the namespace of job-keyed record ids (RFC 9562 version 5). */
const JOB_RECORDS_NAMESPACE = 'c1a1f4f6-3d3e-5b7a-9f0e-5e1d0b7a3c21';

/** The id of the record a job writes for `key` (a row, an item): the same on every run of that job. */
export const jobRecordId = (jobId: string, kind: string, key: string | number): string => nameUuid(JOB_RECORDS_NAMESPACE, `${jobId}/${kind}/${key}`);

/** On a record a job wrote (replacing it or not): that job, and whether the record was there before it. */
export interface WrittenByJob {
  jobId?: string | null;
  existedBefore?: boolean;
}

/**
 * Whether the record read before a write of job `jobId` was there before that job: absent means no; written
 * by an earlier run of the same job, what that run found; written by anyone else, yes.
 */
export function existedBeforeJob(before: WrittenByJob | undefined, jobId: string): boolean {
  if (!before) return false;
  return before.jobId === jobId ? before.existedBefore === true : true;
}

/** The marks a job's write carries (see existedBeforeJob). */
export const writtenBy = (jobId: string, before: WrittenByJob | undefined): { jobId: string; existedBefore: boolean } => ({ jobId, existedBefore: existedBeforeJob(before, jobId) });
