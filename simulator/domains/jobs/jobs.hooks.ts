// The jobs domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in jobs.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { JobStatus } from './job.machine.js';
import type { JobRecord } from './jobs.types.js';

export const JOBS_HOOKS = {
  /** spec 2.2: the `error` a job that ended in `status` after its worker failed carries (the failure's message). */
  failureError: hookPoint<string | null, { status: JobStatus }>('worker', 'jobs.failure-error'),
  /** spec 2.2, 3.1: a job as the worker writes it (its state, progress and timestamps). */
  savedJob: hookPoint<JobRecord>('store', 'jobs.saved-job'),
  /** spec 4.1: the `status` filter listJobs applies (undefined: none). */
  statusFilter: hookPoint<JobStatus | undefined>('store', 'jobs.status-filter'),
  /** spec 4.1: whether listJobs accepts this `type` filter (the contract's enum already checked it). */
  typeFilterAccepted: hookPoint<boolean, { type: string | undefined }>('validation', 'jobs.type-filter-accepted'),
  /** spec 8.6: the position of the first job of a listJobs page (the requested `offset`). */
  pageStart: hookPoint<number, { offset: number }>('store', 'jobs.page-start'),
  /** spec 7: whether getJob finds only the caller's own jobs (another tenant's is 404, like a missing one). */
  readScopedToTenant: hookPoint<boolean>('store', 'jobs.read-scoped-to-tenant'),
  /** spec 8.2, 8.4: whether queue-admission caps refuse an enqueue. */
  queueCapsEnforced: hookPoint<boolean>('rule', 'jobs.queue-caps-enforced'),
} as const;
