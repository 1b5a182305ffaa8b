// The jobs domain's deviations (README "Defect injection"), as data: rows of the job table (applied by
// transition() in the worker), rules at the hook points of jobs.hooks.ts, and below them the ones that only
// change what is sent, applied to the final getJob / listJobs responses.
import { isBodyObject, type DefectEntry, type ResponseDefect } from '../../kernel/defects.js';
import { at } from '../../kernel/deviations.js';
import { deviateMachine } from '../../kernel/machine.js';
import { jobMachine } from './job.machine.js';
import { JOBS_HOOKS, type JobListOrder } from './jobs.hooks.js';

export const JOBS_DEFECTS: readonly DefectEntry[] = [
  { kind: 'defect', id: 'job.missing-required-field', area: 'jobs', description: 'getJob and listJobs items lack `reconciliation`' },
  { kind: 'defect', id: 'job.wrong-status-enum', area: 'jobs', description: 'a COMPLETED job reads `status: "DONE"`' },
  { kind: 'defect', id: 'jobs.list-count-missing', area: 'jobs', description: 'listJobs drops `count`' },
  { kind: 'defect', id: 'error.wrong-code', area: 'errors', description: "getJob's 404 carries code `JOB_NOT_FOUND`" },
  { kind: 'defect', id: 'isolation.tenant-leak', area: 'isolation', description: "getJob serves another tenant's job", hooks: [at(JOBS_HOOKS.readScopedToTenant, () => false)] },
  { kind: 'defect', id: 'jobs.updated-at-frozen', area: 'jobs', description: 'updatedAt keeps its creation value through transitions', hooks: [at(JOBS_HOOKS.savedJob, (job) => (job.updatedAt === job.createdAt ? job : { ...job, updatedAt: job.createdAt }))] },
  { kind: 'defect', id: 'jobs.progress-not-100', area: 'jobs', description: 'a COMPLETED job reports progress 90' },
  { kind: 'defect', id: 'jobs.stuck-pending', area: 'jobs', description: 'the worker never starts jobs', machine: [deviateMachine(jobMachine, { remove: [{ from: ['PENDING'], action: 'start' }] })] },
  { kind: 'defect', id: 'jobs.failed-reads-completed', area: 'jobs', description: 'a job whose worker failed ends COMPLETED (its error kept) instead of FAILED', machine: [deviateMachine(jobMachine, { add: [{ from: ['PROCESSING'], action: 'fail', to: 'COMPLETED' }] })] },
  { kind: 'defect', id: 'jobs.failed-without-error', area: 'jobs', description: 'a FAILED job (and its job.failed delivery) carries error null', hooks: [at(JOBS_HOOKS.failureError, (error, { status }) => (status === 'FAILED' ? null : error))] },
  { kind: 'defect', id: 'jobs.completed-then-processing', area: 'jobs', description: 'a COMPLETED job reads PROCESSING again on the next read' },
  { kind: 'defect', id: 'jobs.list-filter-ignored', area: 'jobs', description: 'the `status` filter of listJobs is ignored', hooks: [at(JOBS_HOOKS.statusFilter, () => undefined)] },
  { kind: 'defect', id: 'jobs.type-filter-stale-enum', area: 'jobs', description: 'listJobs refuses `type=notification_digest` / `notification_event` with 400 (its enum lags the contract)', hooks: [at(JOBS_HOOKS.typeFilterAccepted, (accepted, { type }) => (type?.startsWith('notification_') ? false : accepted))] },
  { kind: 'defect', id: 'pagination.offset-gap', area: 'pagination', description: 'listJobs skips one record at each offset > 0', hooks: [at(JOBS_HOOKS.pageStart, (start, { offset }) => (offset > 0 ? offset + 1 : start))] },
  { kind: 'defect', id: 'pagination.duplicate', area: 'pagination', description: 'listJobs repeats the last record of the previous page', hooks: [at(JOBS_HOOKS.pageStart, (start, { offset }) => (offset > 0 && start === offset ? offset - 1 : start))] },
  { kind: 'defect', id: 'limits.queue-cap-off', area: 'limits', description: 'queue-admission caps are not enforced', hooks: [at(JOBS_HOOKS.queueCapsEnforced, () => false)] },
  { kind: 'defect', id: 'limits.upload-cap-off', area: 'limits', description: 'the upload-family queue cap is not enforced (the SIMA and total caps are)', hooks: [at(JOBS_HOOKS.queueCaps, (caps) => ({ ...caps, upload: Number.MAX_SAFE_INTEGER }))] },
  { kind: 'defect', id: 'limits.preview-cap-off', area: 'limits', description: 'the per-tenant in-flight classify-preview limit is not enforced (the other caps are)', hooks: [at(JOBS_HOOKS.queueCaps, (caps) => ({ ...caps, preview: Number.MAX_SAFE_INTEGER }))] },
  { kind: 'defect', id: 'limits.total-cap-off', area: 'limits', description: 'the total queue cap is not enforced (the family caps are)', hooks: [at(JOBS_HOOKS.queueCaps, (caps) => ({ ...caps, total: Number.MAX_SAFE_INTEGER }))] },
];

/**
 * Legitimate variants of the jobs domain (README "Variants"): choices the spec leaves open, which the
 * conformance suite must accept. Each cites the sentence that leaves the choice open.
 */
export const JOBS_VARIANTS: readonly DefectEntry[] = [
  { kind: 'variant', id: 'jobs.list-oldest-first', area: 'jobs', description: 'listJobs walks a tenant\'s jobs oldest first (a stable order, pages still partition it)', spec: 'spec 4.1 GET /api/jobs answers "200 `{ jobs, count }`" and spec 2.2 "Job list response: `{ jobs: [Job], count: integer }`": no order is given', hooks: [at(JOBS_HOOKS.listOrder, (): JobListOrder => 'oldest-first')] },
  { kind: 'variant', id: 'jobs.progress-held-at-zero', area: 'jobs', description: 'a PROCESSING job reports progress 0 until it ends (COMPLETED still reads 100)', spec: 'spec 2.2 progress: "integer | required; 100 for completed jobs": no value is given while PROCESSING', hooks: [at(JOBS_HOOKS.savedJob, (job) => (job.status === 'PROCESSING' && job.progress !== 0 ? { ...job, progress: 0 } : job))] },
  { kind: 'variant', id: 'jobs.progress-in-quarters', area: 'jobs', description: 'a PROCESSING job reports its progress in steps of 25 (0, 25, 50, 75)', spec: 'spec 2.2 progress: "integer | required; 100 for completed jobs": no value is given while PROCESSING', hooks: [at(JOBS_HOOKS.savedJob, (job) => (job.status === 'PROCESSING' && job.progress % 25 !== 0 ? { ...job, progress: job.progress - (job.progress % 25) } : job))] },
  { kind: 'variant', id: 'jobs.slower-processing', area: 'jobs', description: 'a started job processes four times as long before it ends', spec: 'spec 8.7: "Polling guidance: every 2-3 seconds during the first minute, then every 5-10 seconds with jitter": no job duration is given', hooks: [at(JOBS_HOOKS.processingMs, (ms) => ms * 4)] },
  { kind: 'variant', id: 'limits.smaller-queue-caps', area: 'limits', description: 'queue-admission caps of at most 25 jobs in flight in all, 10 of the upload family, 5 SIMA batches', spec: 'spec 8.2: "Tenant queue-admission caps on in-flight jobs (PENDING plus PROCESSING): total, upload-family, and SIMA. [...] Cap values: not shown."', hooks: [at(JOBS_HOOKS.queueCaps, (caps) => ({ ...caps, total: Math.min(caps.total, 25), upload: Math.min(caps.upload, 10), sima: Math.min(caps.sima, 5) }))] },
  { kind: 'variant', id: 'jobs.extra-fields', area: 'jobs', description: 'getJob and listJobs items carry two more fields: `queue` and `attempts`', spec: 'spec 9.3: "Compatibility within v1: additive changes only by default (new optional request fields, new response fields, new endpoints)"' },
  { kind: 'variant', id: 'jobs.warnings-empty-object', area: 'jobs', description: 'a job without warnings reads `warnings: {}` instead of null', spec: 'spec 2.2 warnings: "object or null | map of string to integer": which of the two a job without warnings shows is not given' },
];

const JOB_READS = ['getJob', 'listJobs'] as const;
type Body = Record<string, unknown>;

/** A defect applied to each job of a getJob or listJobs success. */
function eachJob(id: string, change: (job: Body) => Body): ResponseDefect {
  return {
    id,
    operations: JOB_READS,
    apply(res) {
      if (res.status !== 200) return;
      const body = res.body as Body;
      if (Array.isArray(body.jobs)) res.body = { ...body, jobs: body.jobs.map((job) => (isBodyObject(job) ? change(job) : job)) };
      else res.body = change(body);
    },
  };
}

/** Built per simulator: `jobs.completed-then-processing` remembers which jobs were already read. */
export function jobsResponseDefects(): ResponseDefect[] {
  const seenCompleted = new Set<string>();
  return [
    eachJob('jobs.extra-fields', (job) => ({ ...job, queue: 'default', attempts: job.status === 'PENDING' ? 0 : 1 })),
    eachJob('jobs.warnings-empty-object', (job) => (job.warnings === null ? { ...job, warnings: {} } : job)),
    eachJob('jobs.progress-not-100', (job) => (job.status === 'COMPLETED' ? { ...job, progress: 90 } : job)),
    eachJob('jobs.completed-then-processing', (job) => {
      if (job.status !== 'COMPLETED') return job;
      const seen = seenCompleted.has(String(job.id));
      seenCompleted.add(String(job.id));
      return seen ? { ...job, status: 'PROCESSING' } : job;
    }),
    eachJob('job.missing-required-field', ({ reconciliation: _dropped, ...job }) => job),
    eachJob('job.wrong-status-enum', (job) => (job.status === 'COMPLETED' ? { ...job, status: 'DONE' } : job)),
    {
      id: 'jobs.list-count-missing',
      operations: ['listJobs'],
      apply(res) {
        if (res.status !== 200) return;
        const { count: _dropped, ...body } = res.body as Body;
        res.body = body;
      },
    },
    {
      id: 'error.wrong-code',
      operations: ['getJob'],
      apply: (res) => void (res.status === 404 && (res.body = { ...(res.body as Body), code: 'JOB_NOT_FOUND' })),
    },
  ];
}
