// The jobs domain's hook points (kernel/deviations.ts): the named places where an entry of the catalogue
// (an injected defect or a legitimate variant, declared in jobs.defects.ts) may change what is decided.
// The code deciding there names the point; it never names an entry.
import { hookPoint } from '../../kernel/deviations.js';
import type { JobStatus } from './job.machine.js';
import type { JobRecord } from './jobs.types.js';
import type { QueueCaps } from '../tenants/tenants.types.js';

/** The order listJobs walks a tenant's jobs in (spec 4.1 does not fix one). */
export type JobListOrder = 'newest-first' | 'oldest-first';

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
  /** spec 8.2, 8.4 ("Cap values: not shown"): the queue-admission caps in force for a tenant (its settings). */
  queueCaps: hookPoint<Readonly<QueueCaps>>('rule', 'jobs.queue-caps'),
  /** spec 4.1 (no order given): the order of a listJobs page walk. */
  listOrder: hookPoint<JobListOrder>('store', 'jobs.list-order'),
  /** spec 8.7 (polling guidance, no duration): how long a started job processes, in ms of its tenant's clock. */
  processingMs: hookPoint<number>('worker', 'jobs.processing-ms'),
} as const;
