// Sending uploads: the tenant a check uploads in, the upload itself (429s are the client's, harness/transport.ts),
// telling an answer that says nothing about the rule under test, and what a failure reports.
import fc from 'fast-check';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import { replayOf } from '../../harness/runner.js';
import type { Exchange, Failure } from '../../harness/types.js';
import { isErrorEnvelope } from '../../harness/expect-error.js';
import { errorCode, RUN_NONCE, seeded } from '../jobs-support.js';
import { formWith } from './files.js';
import type { UploadOperation } from './targets.js';

export interface UploadTenant {
  client: ConformanceClient;
  /** Created for this check through the control API, with the scopes the operations require. */
  fresh: boolean;
}

/**
 * A tenant to upload in. With the control API: a new tenant whose key carries the scopes the operations'
 * security requirements name (spec 5.4), with the upload and read buckets and queue caps raised
 * (sandbox-defined limits, simulator profile only). Without it: the primary tenant, shared with the run.
 */
export async function uploadTenant(ctx: CheckContext, name: string, targets: UploadOperation[]): Promise<UploadTenant> {
  if (!ctx.admin) return { client: ctx.client, fresh: false };
  const scopes = [...new Set(targets.flatMap((t) => t.scopes))];
  const created = await ctx.admin.createTenant({ name, ...(scopes.length ? { scopes } : {}) });
  await ctx.admin.updateSettings(created.tenantId, {
    rateLimits: { read: { limit: 100_000, windowMs: 60_000 }, upload: { limit: 100_000, windowMs: 60_000 } },
    queueCaps: { total: 100_000, upload: 100_000 },
  });
  return { client: ctx.client.withApiKey(created.integrationKey), fresh: true };
}

/** Uploads `file` with the operation's required fields (429s are waited out by the client, harness/transport.ts). */
export function upload(client: ConformanceClient, target: UploadOperation, file: File): Promise<Exchange> {
  return client.call('POST', target.path, { form: formWith(target, file) });
}

/**
 * Why the answer says nothing about the rule under test, if so: a key
 * without the operation's scope (the primary key of a deployment; spec 5.4). With a tenant created for the
 * check, a 403 is an answer to judge, not a reason.
 */
export function untestable(tenant: UploadTenant, target: UploadOperation, exchange: Exchange): string | undefined {
  if (!tenant.fresh && target.scopes.length && exchange.response.status === 403 && errorCode(exchange) === 'SCOPE_DENIED') {
    return `${target.operationId} needs scope ${target.scopes.join(', ')}, which the given key lacks (403 SCOPE_DENIED); give a key with it, or run the simulator profile`;
  }
  return undefined;
}

/** Status and error code of an answer, for messages. */
export const answered = (exchange: Exchange) =>
  isErrorEnvelope(exchange.response.body) ? `${exchange.response.status} ${exchange.response.body.code}` : String(exchange.response.status);

/** Seed, drawn input and replay command for a failure whose input was drawn with the run's seed. */
export const drawn = (ctx: CheckContext, id: string, input: unknown): Partial<Failure> => ({
  seed: ctx.seed,
  counterexample: JSON.stringify(input),
  replay: replayOf(ctx, id),
});

/** A tag unique to this run (seeded, plus the process nonce so a replay does not meet its own uploads). */
export const runTag = (ctx: CheckContext, purpose: string, index: number) =>
  `CONF-${RUN_NONCE}-${purpose}-${seeded(fc.stringMatching(/^[A-Z0-9]{8}$/), ctx.seed, index)}`;
