// What the idempotency checks share: keys unique to the run, the tenant they write in, reading a receipt,
// and counting a tenant's jobs.
import fc from 'fast-check';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { isRateLimited, receiptJobId, RUN_NONCE, seeded, type WriteTenant } from '../jobs-support.js';

/** A key of this run (spec 8.5: 1 to 200 characters): seeded, made unique on a shared server by the run nonce. */
export function newKey(ctx: Pick<CheckContext, 'seed'>, purpose: string, index: number): string {
  const drawn = seeded(fc.stringMatching(/^[A-Za-z0-9_-]{16}$/), ctx.seed, index);
  return `conf-${RUN_NONCE}-${purpose}-${drawn}`;
}

/** The receipt fields the idempotency rules are about (spec 2.3). */
export const receipt = (exchange: Exchange) =>
  (exchange.response.body ?? {}) as { jobId?: unknown; sessionId?: unknown; replayed?: unknown; status?: unknown };

export async function jobCount(client: ConformanceClient): Promise<{ count: unknown; exchange: Exchange }> {
  const exchange = await client.call('GET', '/api/jobs?limit=1');
  return { count: (exchange.response.body as { count?: unknown } | null)?.count, exchange };
}

/** The job id of a 202 receipt; fails the check otherwise. */
export function expectAccepted(ctx: CheckContext, exchange: Exchange, what: string): string | undefined {
  const id = receiptJobId(exchange);
  ctx.expect(id !== undefined, 'idempotency-accepted', `${what} answered ${exchange.response.status}, not 202 with a jobId`, exchange);
  return id;
}

/**
 * A tenant to send the four idempotent requests in. With the control API: a new tenant (its key has every
 * scope) whose read, write and upload buckets and queue caps are raised (sandbox-defined limits, simulator
 * profile only), so counts are exact and nothing is throttled. Without it: the primary tenant.
 */
export async function idempotencyTenant({ client, admin }: Pick<CheckContext, 'client' | 'admin'>, name: string): Promise<WriteTenant> {
  if (!admin) return { client, fresh: false };
  const created = await admin.createTenant({ name });
  const bucket = { limit: 100_000, windowMs: 60_000 };
  await admin.updateSettings(created.tenantId, {
    rateLimits: { read: bucket, write: bucket, upload: bucket },
    queueCaps: { total: 100_000, sima: 100_000, upload: 100_000 },
  });
  return { client: client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}
