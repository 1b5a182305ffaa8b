// The loop the per-operation upload checks share: one tenant for the check, its uploads, and the operations it could not exercise collected into the reason it is skipped with.
import type { CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { upload, uploadTenant, type UploadTenant } from './send.js';
import type { UploadOperation } from './targets.js';

/** One upload operation a check exercises. */
export interface UploadVisit {
  target: UploadOperation;
  /** The operation's position among the check's targets (what per-operation draws are seeded with). */
  index: number;
  tenant: UploadTenant;
  /** Uploads `file` to the operation as the tenant. */
  upload(file: File): Promise<Exchange>;
}

/**
 * Visits each of `targets` in order, in a tenant named `tenantName` (see uploadTenant). An operation whose
 * required form fields the contract gives no value for is not visited; `visit` returns why its operation
 * could not be exercised, if so. Those reasons skip the check at the end, unless something already failed.
 */
export async function forEachUploadTarget(
  ctx: CheckContext,
  targets: UploadOperation[],
  tenantName: string,
  visit: (visit: UploadVisit) => Promise<string | undefined | void>,
): Promise<void> {
  const tenant = await uploadTenant(ctx, tenantName, targets);
  const reasons: string[] = [];
  for (const [index, target] of targets.entries()) {
    if (target.unvalued.length) {
      reasons.push(`${target.operationId}: the contract gives no value for required field(s) ${target.unvalued.join(', ')}`);
      continue;
    }
    const reason = await visit({ target, index, tenant, upload: (file) => upload(tenant.client, target, file) });
    if (reason) reasons.push(reason);
  }
  if (reasons.length) ctx.skip(reasons.join('; '));
}
