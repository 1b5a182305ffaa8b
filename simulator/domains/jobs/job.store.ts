// The `jobs` collection: the only file that touches it. Indexes keep every look-up proportional to one
// tenant's jobs (list, count, queue admission) or to the in-flight jobs (restart), never to the whole store.
import type { Store } from '../../kernel/store/store.js';
import type { JobRecord, JobReconciliation, JobType, QueueFamily, JobOutcomeCounts, JobSkippedRows } from './index.js';
import { isInFlight, type JobStatus } from './job.machine.js';

/** spec 2.2: counts are zeros and row counts null until a processor says otherwise. */
export const emptyReconciliation = (): JobReconciliation => ({ rowsUploaded: null, rowsSkipped: null, rowsDeduplicated: null, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 });
export const emptySkippedRows = (): JobSkippedRows => ({ counts: null, sample: null });
export const zeroOutcomes = (): JobOutcomeCounts => ({ atRisk: 0, cleared: 0, needsReview: 0, falsePositive: 0 });

export interface JobListFilter {
  type?: JobType;
  status?: JobStatus;
  limit: number;
  offset: number;
}

const key = (...parts: string[]) => parts.join('|');

export const JOBS_COLLECTION = 'jobs';

export function jobStore(store: Store) {
  const jobs = store.collection<JobRecord>(JOBS_COLLECTION, {
    indexes: {
      tenant: (j) => j.tenantId,
      tenantType: (j) => key(j.tenantId, j.type),
      tenantStatus: (j) => key(j.tenantId, j.status),
      tenantTypeStatus: (j) => key(j.tenantId, j.type, j.status),
      inFlight: (j) => (isInFlight(j.status) ? 'in-flight' : undefined),
      inFlightTenant: (j) => (isInFlight(j.status) ? j.tenantId : undefined),
      inFlightFamily: (j) => (isInFlight(j.status) ? key(j.tenantId, j.family) : undefined),
    },
  });

  // Per tenant, job ids oldest first. Creation order never changes, so the list endpoint walks this
  // array from the end instead of sorting a tenant's jobs on every request. Rebuilt when it disagrees with
  // the index (after a restart or a sandbox reset).
  const order = new Map<string, string[]>();
  const ordered = (tenantId: string): string[] => {
    const cached = order.get(tenantId);
    if (cached && cached.length === jobs.countBy('tenant', tenantId)) return cached;
    const rebuilt = jobs
      .findBy('tenant', tenantId)
      .sort((a, b) => (a.createdAt === b.createdAt ? a.seq - b.seq : a.createdAt < b.createdAt ? -1 : 1))
      .map((j) => j.id);
    order.set(tenantId, rebuilt);
    return rebuilt;
  };

  return {
    get: (id: string) => jobs.get(id),
    /** A tenant never sees another tenant's job (spec 7 NOT_FOUND: "absent or not the tenant's"). */
    getForTenant(tenantId: string, id: string): JobRecord | undefined {
      const job = jobs.get(id);
      return job && job.tenantId === tenantId ? job : undefined;
    },
    /** A new PENDING job with the spec 2.2 defaults. */
    create(input: { id: string; tenantId: string; type: JobType; family: QueueFamily; fileName?: string; input: unknown; now: string }): JobRecord {
      const ids = ordered(input.tenantId);
      const saved = jobs.put({
        id: input.id,
        tenantId: input.tenantId,
        type: input.type,
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
        seq: ids.length + 1,
        createdAt: input.now,
        updatedAt: input.now,
        startedAt: null,
        finishedAt: null,
      });
      ids.push(saved.id);
      return saved;
    },
    save: (record: JobRecord) => jobs.put(record),
    inFlight: () => jobs.findBy('inFlight', 'in-flight'),
    inFlightCount: (tenantId: string, family?: QueueFamily) =>
      family === undefined ? jobs.countBy('inFlightTenant', tenantId) : jobs.countBy('inFlightFamily', key(tenantId, family)),
    inFlightOf: (tenantId: string, family?: QueueFamily) =>
      family === undefined ? jobs.findBy('inFlightTenant', tenantId) : jobs.findBy('inFlightFamily', key(tenantId, family)),
    /** Newest first; `count` is the number matching the filters before pagination (spec 2.2). */
    list(tenantId: string, filter: JobListFilter): { jobs: JobRecord[]; count: number } {
      const count =
        filter.type && filter.status
          ? jobs.countBy('tenantTypeStatus', key(tenantId, filter.type, filter.status))
          : filter.type
            ? jobs.countBy('tenantType', key(tenantId, filter.type))
            : filter.status
              ? jobs.countBy('tenantStatus', key(tenantId, filter.status))
              : jobs.countBy('tenant', tenantId);
      const page: JobRecord[] = [];
      if (filter.offset >= count) return { jobs: page, count };
      const ids = ordered(tenantId);
      let skipped = 0;
      for (let i = ids.length - 1; i >= 0 && page.length < filter.limit; i--) {
        const job = jobs.get(ids[i]);
        if (!job || job.tenantId !== tenantId) continue;
        if ((filter.type && job.type !== filter.type) || (filter.status && job.status !== filter.status)) continue;
        if (skipped < filter.offset) skipped += 1;
        else page.push(job);
      }
      return { jobs: page, count };
    },
  };
}

export type JobStore = ReturnType<typeof jobStore>;
