// A job record as the contract's JobResponse (spec 2.2; schemas/jobs.yaml Job): every required field,
// `fileName` only when the job has one, and none of the worker's bookkeeping (input, family, timestamps).
import type { Schema } from '../../../contracts/generated/index.js';
import type { FinishedJob, JobRecord } from './jobs.types.js';
import { emptyReconciliation, emptySkippedRows, zeroOutcomes } from './job.store.js';

export function toJobResponse(job: JobRecord): Schema<'Job'> {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    // spec 2.2: "100 for completed jobs"
    progress: job.status === 'COMPLETED' ? 100 : job.progress,
    ...(job.fileName === undefined ? {} : { fileName: job.fileName }),
    result: job.result ?? {},
    reconciliation: { ...emptyReconciliation(), ...job.reconciliation },
    skippedRows: { ...emptySkippedRows(), ...job.skippedRows },
    warnings: job.warnings ?? null,
    outcomes: { ...zeroOutcomes(), ...job.outcomes },
    error: job.error ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

/** spec 6: the delivery body's `job` object (schemas/webhooks.yaml WebhookJob) of a finished job. */
export function toFinishedJob(job: JobRecord & { status: 'COMPLETED' | 'FAILED' }): FinishedJob {
  return {
    tenantId: job.tenantId,
    job: {
      id: job.id,
      type: job.type,
      status: job.status,
      progress: job.status === 'COMPLETED' ? 100 : job.progress,
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      result: job.status === 'COMPLETED' ? job.result : null,
      error: job.error,
    },
  };
}

/** The `error` of a job.failed sample for a job that did not fail (sandbox-defined: says what it is). */
export const SAMPLE_FAILURE = 'sample job.failed sent through the sandbox control API (tfas trigger): this job did not fail';

/**
 * Sandbox-defined (issue 29, `tfas trigger`): the delivery body's `job` object of a job as a delivery of
 * `status` describes it (spec 6 "Delivery body"). A job that ended so is described as it is; any other is
 * described as if it had ended so now: COMPLETED with progress 100 and its result so far, FAILED with its
 * progress, no result and an error saying it is a sample. The job itself does not change.
 */
export function toSampleFinishedJob(job: JobRecord, status: 'COMPLETED' | 'FAILED'): FinishedJob {
  if (job.status === status) return toFinishedJob({ ...job, status });
  return toFinishedJob({ ...job, status, error: status === 'FAILED' ? (job.error ?? SAMPLE_FAILURE) : null });
}
