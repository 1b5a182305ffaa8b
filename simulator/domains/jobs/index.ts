// What the jobs domain offers (spec 2.2, 3.1, 4.1, 8.2): the job store, the list/get endpoints, a worker on
// the tenants' virtual clocks that runs registered job types, queue-admission caps, and a finished-job event
// for webhooks; a job's uploaded input file is removed when the job ends (job-files.ts). Other domains
// enqueue through `enqueue` and register their processors with `registerJobType`.
import type { KernelDeps } from '../../kernel/deps.js';
import { storeSerial } from '../../kernel/serial.js';
import { defineDomain } from '../domain.js';
import type { TenantStore } from '../tenants/index.js';
import { removeInputFilesWhenJobsEnd } from './job-files.js';
import { JOBS_DEFECTS, JOBS_VARIANTS, jobsResponseDefects } from './jobs.defects.js';
import { toJobResponse, toSampleFinishedJob } from './job.response.js';
import { JOBS_COLLECTION, jobStore } from './job.store.js';
import { createWorker } from './job.worker.js';
import { jobRoutes } from './jobs.routes.js';
import type { JobsDomain } from './jobs.types.js';
import { queueAdmission } from './queue-admission.js';
import { jobMachine } from './job.machine.js';

export type * from './jobs.types.js';
export { earlierVerdict, existedBeforeJob, jobRecordId, settledBy, writtenBy, type SettledBy, type WrittenByJob } from './jobs.settlement.js';

export function createJobs(deps: KernelDeps, peers: { tenants: TenantStore }): JobsDomain {
  const jobs = jobStore(deps);
  const worker = createWorker(deps, jobs);
  const admission = queueAdmission(deps, jobs, peers.tenants);
  // Admission counts the tenant's in-flight jobs and then the job is created: one tenant's enqueues must not
  // interleave there, or two could pass a cap together (spec 8.2), in this instance or another one.
  const perTenant = storeSerial(deps.store, 'jobs.admission');

  const domain: JobsDomain = {
    name: 'jobs',
    collectionName: JOBS_COLLECTION,
    handlers: jobRoutes(jobs, deps.defects),
    registerJobType: worker.register,
    async enqueue(input) {
      const job = await perTenant(input.tenantId, async () => {
        await admission.admit(input.tenantId, input.family, input.keyId);
        return jobs.create({ id: deps.ids.uuid(), tenantId: input.tenantId, type: input.type, variant: input.variant, family: input.family, fileName: input.fileName, input: input.input ?? null, now: deps.clocks.of(input.tenantId).nowIso() });
      });
      // Outside the tenant's turn: over a database every write is a commit of its own, and the turn is what
      // one tenant's enqueues wait for (issue 17: the job's lease is taken here, before the 202).
      await worker.schedule(job);
      return job;
    },
    get: (tenantId, jobId) => jobs.getForTenant(tenantId, jobId),
    toResponse: toJobResponse,
    onFinished: worker.onFinished,
    async sampleFinished(tenantId, jobId, status) {
      const job = await jobs.getForTenant(tenantId, jobId);
      return job && toSampleFinishedJob(job, status);
    },
    inFlightCount: (tenantId, family) => jobs.inFlightCount(tenantId, family),
    start: () => worker.resumeAll(),
    stop: () => worker.stop(),
  };
  removeInputFilesWhenJobsEnd(domain);
  return domain;
}

export const jobsDomain = defineDomain({
  name: 'jobs',
  needs: ['tenants'],
  create: createJobs,
  defects: [...JOBS_DEFECTS, ...JOBS_VARIANTS],
  responseDefects: jobsResponseDefects,
  testValues: [],
  lifecycles: { job: jobMachine },
  purgeTenant: (deps, tenantId) => jobStore(deps).purgeTenant(tenantId),
});
