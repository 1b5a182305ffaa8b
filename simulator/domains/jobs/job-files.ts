// An upload's stored file (kernel/uploads/uploaded-file.ts) belongs to the job that reads it: once the job
// has ended (its terminal state durable), the file goes. A job resumed after a restart still finds it, and
// finished jobs leave nothing behind. Any job type whose input carries a `file` is covered.
import { removeUpload, type StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import type { JobsDomain } from './jobs.types.js';

export function removeInputFilesWhenJobsEnd(jobs: Pick<JobsDomain, 'onFinished' | 'get'>): void {
  jobs.onFinished(async ({ tenantId, job }) => {
    const input = (await jobs.get(tenantId, job.id))?.input as { file?: Partial<StoredUpload> } | null | undefined;
    if (typeof input?.file?.path === 'string') await removeUpload({ path: input.file.path });
  });
}
