// What the journeys share: the tenant a journey walks in (a fresh one of the control API, its sandbox-defined
// limits lifted and its key given the scopes the walk's operations name, so that counts are exact; the
// primary tenant otherwise), an upload through the contract's description of the operation, and waiting a
// job out to a terminal state (spec 3.1), on the virtual clock in the simulator profile.
import type { CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import type { Exchange } from '../harness/types.js';
import { settleJobs } from '../checks/jobs-support.js';
import { upload } from '../checks/uploads/send.js';
import { uploadOperations, type UploadOperation } from '../checks/uploads/targets.js';

export interface JourneyTenant {
  client: ConformanceClient;
  /** Created for this journey: nothing else writes in it, so the exact invariants apply. */
  fresh: boolean;
  tenantId?: string;
}

export async function journeyTenant(ctx: Pick<CheckContext, 'client' | 'admin'>, name: string, scopes: string[] = []): Promise<JourneyTenant> {
  if (!ctx.admin) return { client: ctx.client, fresh: false };
  const created = await ctx.admin.createTenant({ name, ...(scopes.length ? { scopes } : {}) });
  const big = { limit: 100_000, windowMs: 60_000 };
  await ctx.admin.updateSettings(created.tenantId, {
    rateLimits: { read: big, write: big, upload: big },
    queueCaps: { total: 100_000, upload: 100_000, sima: 100_000, preview: 100 },
  });
  return { client: ctx.client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}

/** The upload operation `operationId` as the contract being certified describes it, if it has one. */
export const uploadOperation = (ctx: Pick<CheckContext, 'contract'>, operationId: string): UploadOperation | undefined =>
  uploadOperations(ctx.contract).find((op) => op.operationId === operationId);

/** Uploads a CSV to an operation (its other required fields from the contract). */
export function uploadCsv(ctx: CheckContext, client: ConformanceClient, target: UploadOperation, fileName: string, csv: string): Promise<Exchange> {
  return upload(client, target, new File([csv], fileName, { type: 'text/csv' }));
}

export interface SettledJob {
  status?: string;
  settled: boolean;
  /** The job's last read (GET /api/jobs/{id}). */
  exchange?: Exchange;
  body: Record<string, unknown>;
}

/** Polls a job to a terminal state (spec 3.1): the virtual clock with the control API, spec 8.7 polling otherwise. */
export async function settleJob(ctx: Pick<CheckContext, 'admin'>, client: ConformanceClient, jobId: string, realMs?: number): Promise<SettledJob> {
  let exchange: Exchange | undefined;
  const done = await settleJobs(client, [jobId], { admin: ctx.admin, realMs: realMs ?? (ctx.admin ? 10_000 : 90_000), onRead: (_id, read) => (exchange = read) });
  return { status: done.statuses.get(jobId), settled: done.settled, exchange, body: (exchange?.response.body ?? {}) as Record<string, unknown> };
}
