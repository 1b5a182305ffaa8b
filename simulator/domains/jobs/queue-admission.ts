// Queue admission (spec 8.2, 8.4): a tenant may hold only so many in-flight (PENDING + PROCESSING) jobs in
// total, in the upload family, in SIMA and in classify-preview. At a cap the enqueue is refused with 429
// RATE_LIMITED and retry metadata (spec 7); cap values are the tenant's sandbox settings.
import type { KernelDeps } from '../../kernel/deps.js';
import { rateLimitedError } from '../../kernel/http/rate-limit.js';
import type { QueueCaps, TenantStore } from '../tenants/index.js';
import type { JobRecord, QueueFamily } from './jobs.types.js';
import type { JobStore } from './job.store.js';
import { JOBS_HOOKS } from './jobs.hooks.js';

type QueueBucket = 'queue_total' | 'queue_upload' | 'queue_sima' | 'preview_inflight';

const FAMILY_CAP: Partial<Record<QueueFamily, { bucket: QueueBucket; cap: keyof QueueCaps; label: string }>> = {
  upload: { bucket: 'queue_upload', cap: 'upload', label: 'upload' },
  sima: { bucket: 'queue_sima', cap: 'sima', label: 'SIMA' },
  preview: { bucket: 'preview_inflight', cap: 'preview', label: 'classify-preview' },
};

export function queueAdmission(deps: KernelDeps, jobs: JobStore, tenants: TenantStore) {
  const { config } = deps;

  /** When an in-flight job should end, from the worker's configured delays (the tenant's virtual time). */
  const expectedEnd = (job: JobRecord, now: number): number =>
    job.status === 'PROCESSING' && job.startedAt
      ? Date.parse(job.startedAt) + config.jobProcessingMs
      : Math.max(now, Date.parse(job.createdAt) + config.jobStartDelayMs) + config.jobProcessingMs;

  /** Seconds until the first of these jobs should free a slot; at least 1 (spec 7: wait, then retry). */
  const retryAfterSeconds = (inFlight: JobRecord[]): number => {
    const now = inFlight.length ? deps.clocks.of(inFlight[0].tenantId).now() : deps.clock.now();
    const soonest = inFlight.reduce((min, job) => Math.min(min, expectedEnd(job, now)), Number.POSITIVE_INFINITY);
    return Number.isFinite(soonest) ? Math.max(1, Math.ceil((soonest - now) / 1000)) : 1;
  };

  const refuse = (bucket: QueueBucket, limit: number, inFlight: JobRecord[], keyId: string | null, what: string) =>
    rateLimitedError(
      { bucket, limit, windowMs: 0, retryAfterSeconds: retryAfterSeconds(inFlight), keyId },
      `queue admission cap reached: ${inFlight.length} ${what} jobs in flight (cap ${limit}); retry when one finishes`,
    );

  return {
    /** Throws 429 RATE_LIMITED when one more job of this family would exceed a cap. */
    async admit(tenantId: string, family: QueueFamily, keyId: string | null): Promise<void> {
      if (!deps.defects.at(JOBS_HOOKS.queueCapsEnforced, true)) return;
      const caps = deps.defects.at(JOBS_HOOKS.queueCaps, (await tenants.settings(tenantId)).queueCaps);
      // The family's own cap first: it names the more specific reason to wait.
      const familyCap = FAMILY_CAP[family];
      if (familyCap && (await jobs.inFlightCount(tenantId, family)) >= caps[familyCap.cap]) {
        throw refuse(familyCap.bucket, caps[familyCap.cap], await jobs.inFlightOf(tenantId, family), keyId, familyCap.label);
      }
      if ((await jobs.inFlightCount(tenantId)) >= caps.total) {
        throw refuse('queue_total', caps.total, await jobs.inFlightOf(tenantId), keyId, 'queued');
      }
    },
  };
}
