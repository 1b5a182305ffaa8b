// The `jobs` collection: the only file that touches it. Every list and count is a query over a declared
// index (one tenant's jobs newest first, optionally of one type and status; the in-flight jobs per tenant
// and family), never a scan; each maps to one SQL statement on a database store.
import type { KernelDeps } from '../../kernel/deps.js';
import type { Collection } from '../../kernel/store/collection.js';
import { deleteMatching } from '../../kernel/store/delete-matching.js';
import { transitionLog } from '../../kernel/transition-log.js';
import { isInFlight, type JobStatus } from './job.machine.js';
import type { JobListOrder } from './jobs.hooks.js';
import type { JobOutcomeCounts, JobReconciliation, JobRecord, JobSkippedRows, JobType, QueueFamily } from './jobs.types.js';

/** spec 2.2: counts are zeros and row counts null until a processor says otherwise. */
export const emptyReconciliation = (): JobReconciliation => ({ rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 });
export const emptySkippedRows = (): JobSkippedRows => ({ counts: null, sample: null });
export const zeroOutcomes = (): JobOutcomeCounts => ({ atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 });
export interface JobListFilter {
  type?: JobType;
  status?: JobStatus;
  limit: number;
  offset: number;
  /** spec 4.1 fixes no order: newest first unless said otherwise (jobs.hooks.ts listOrder). */
  order?: JobListOrder;
}

export const JOBS_COLLECTION = 'jobs';

type JobField = 'tenantId' | 'type' | 'status' | 'family' | 'inFlight' | 'noticePending' | 'createdAt' | 'seq';
// The tenant indexes are declared oldest first and walked backwards for "newest first": a new job then
// lands at the end of its index buckets (an append) instead of at the front of a bucket holding every job
// of the tenant, which made each enqueue cost the size of the tenant's history.
const OLDEST_FIRST = [
  ['createdAt', 'asc'],
  ['seq', 'asc'],
] as const;
const NEWEST_FIRST = [
  ['createdAt', 'desc'],
  ['seq', 'desc'],
] as const;

export function jobStore(deps: Pick<KernelDeps, 'store' | 'clocks'>) {
  const jobs = trackedJobs(deps, deps.store.collection<JobRecord, JobField>(JOBS_COLLECTION, {
    fields: {
      tenantId: (j) => j.tenantId,
      type: (j) => j.type,
      status: (j) => j.status,
      family: (j) => j.family,
      inFlight: (j) => isInFlight(j.status),
      noticePending: (j) => j.noticePending === true,
      createdAt: (j) => j.createdAt,
      seq: (j) => j.seq,
    },
    indexes: {
      // spec 4.1 GET /api/jobs: newest first, filtered by type and status; `count` from the same index.
      tenant: { keys: ['tenantId'], order: OLDEST_FIRST },
      tenantType: { keys: ['tenantId', 'type'], order: OLDEST_FIRST },
      tenantStatus: { keys: ['tenantId', 'status'], order: OLDEST_FIRST },
      tenantTypeStatus: { keys: ['tenantId', 'type', 'status'], order: OLDEST_FIRST },
      // spec 8.2 queue admission, and the restart that resumes in-flight jobs.
      inFlight: { keys: ['inFlight'], order: [['createdAt', 'asc']] },
      inFlightTenant: { keys: ['inFlight', 'tenantId'], order: [['createdAt', 'asc']] },
      inFlightFamily: { keys: ['inFlight', 'tenantId', 'family'], order: [['createdAt', 'asc']] },
      // The finished jobs whose listeners have not all run yet (a crash between the end and its notice).
      noticePending: { keys: ['noticePending'], order: [['createdAt', 'asc']] },
    },
  }));

  const inFlightWhere = (tenantId: string, family?: QueueFamily) => (family === undefined ? { inFlight: true, tenantId } : { inFlight: true, tenantId, family });

  return {
    get: (id: string) => jobs.get(id),
    /** A tenant never sees another tenant's job (spec 7 NOT_FOUND: "absent or not the tenant's"). */
    async getForTenant(tenantId: string, id: string): Promise<JobRecord | undefined> {
      const job = await jobs.get(id);
      return job && job.tenantId === tenantId ? job : undefined;
    },
    /** A new PENDING job with the spec 2.2 defaults. */
    async create(input: { id: string; tenantId: string; type: JobType; variant?: string; family: QueueFamily; fileName?: string; input: unknown; now: string }): Promise<JobRecord> {
      // Creation order within the tenant breaks createdAt ties, so "newest first" is stable: one past the
      // tenant's newest job, which holds the highest seq as a tenant's clock never runs backwards. An index
      // step: counting the tenant's jobs cost their number on PostgreSQL (150 ms at 130,000 jobs).
      const newest = await jobs.first({ where: { tenantId: input.tenantId }, orderBy: NEWEST_FIRST });
      const seq = (newest?.seq ?? 0) + 1;
      const created = await jobs.create({
        id: input.id,
        tenantId: input.tenantId,
        type: input.type,
        ...(input.variant === undefined ? {} : { variant: input.variant }),
        status: 'PENDING',
        progress: 0,
        ...(input.fileName === undefined ? {} : { fileName: input.fileName }),
        input: input.input,
        result: {},
        reconciliation: emptyReconciliation(),
        skippedRows: emptySkippedRows(),
        warnings: null,
        outcomes: zeroOutcomes(),
        error: null,
        family: input.family,
        seq,
        createdAt: input.now,
        updatedAt: input.now,
        startedAt: null,
        finishedAt: null,
      });
      if (!created) throw new Error(`job ${input.id} already exists`);
      return created;
    },
    /** Compare-and-set on the revision the job was read at: null when another writer moved it first. */
    update: (record: JobRecord) => jobs.update(record),
    inFlight: async () => (await jobs.query({ where: { inFlight: true } })).items,
    noticePending: async () => (await jobs.query({ where: { noticePending: true } })).items,
    inFlightCount: (tenantId: string, family?: QueueFamily) => jobs.count(inFlightWhere(tenantId, family)),
    inFlightOf: async (tenantId: string, family?: QueueFamily) => (await jobs.query({ where: inFlightWhere(tenantId, family) })).items,
    /** Newest first; `count` is the number matching the filters before pagination (spec 2.2). */
    async list(tenantId: string, filter: JobListFilter): Promise<{ jobs: JobRecord[]; count: number }> {
      const where = { tenantId, ...(filter.type ? { type: filter.type } : {}), ...(filter.status ? { status: filter.status } : {}) };
      const page = await jobs.query({ where, orderBy: filter.order === 'oldest-first' ? OLDEST_FIRST : NEWEST_FIRST, limit: filter.limit, offset: filter.offset });
      return { jobs: page.items, count: page.total };
    },
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(jobs, { tenantId }),
  };
}

export type JobStore = ReturnType<typeof jobStore>;

/** Every status change of a job goes to the transition log (kernel/transition-log.ts, lifecycle `job`). */
function trackedJobs<F extends string>(deps: Pick<KernelDeps, 'store' | 'clocks'>, jobs: Collection<JobRecord, F>): Collection<JobRecord, F> {
  return transitionLog(deps).tracked(jobs, { machine: 'job', state: (j) => j.status, tenantId: (j) => j.tenantId });
}
