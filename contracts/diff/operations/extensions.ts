// Vendor extensions of an operation: x-idempotent, x-job-type, x-accepted-file-types, x-max-file-bytes,
// x-principal-types (see contracts/README.md).
import type { Json, JsonObject } from '../../lib/bundle.js';
import type { DiffContext } from '../types.js';

export function diffExtensions(ctx: DiffContext, base: JsonObject, head: JsonObject, operation: string): void {
  const baseIdempotent = base['x-idempotent'] === true;
  const headIdempotent = head['x-idempotent'] === true;
  if (baseIdempotent && !headIdempotent) {
    ctx.emit('operation-idempotency-removed', { operation, location: 'x-idempotent', message: `${operation} is no longer idempotent: a retry with the same Idempotency-Key may run twice`, before: true, after: head['x-idempotent'] ?? null });
  } else if (!baseIdempotent && headIdempotent) {
    ctx.emit('operation-idempotency-added', { operation, location: 'x-idempotent', message: `${operation} is now idempotent (Idempotency-Key replays)`, before: base['x-idempotent'] ?? null, after: true });
  }

  const baseJob = base['x-job-type'];
  const headJob = head['x-job-type'];
  if (typeof baseJob === 'string' && typeof headJob === 'string' && baseJob !== headJob) {
    ctx.emit('operation-job-type-changed', { operation, location: 'x-job-type', message: `${operation} now creates ${headJob} jobs instead of ${baseJob}`, before: baseJob, after: headJob });
  }

  const baseTypes = stringList(base['x-accepted-file-types'], true);
  const headTypes = stringList(head['x-accepted-file-types'], true);
  if (baseTypes && headTypes) {
    const removed = baseTypes.filter((t) => !headTypes.includes(t));
    const added = headTypes.filter((t) => !baseTypes.includes(t));
    if (removed.length) ctx.emit('request-file-type-removed', { operation, location: 'x-accepted-file-types', message: `files ${removed.join(', ')} are no longer accepted (415)`, before: baseTypes, after: headTypes });
    if (added.length) ctx.emit('request-file-type-added', { operation, location: 'x-accepted-file-types', message: `files ${added.join(', ')} are now accepted`, before: baseTypes, after: headTypes });
  } else if (!baseTypes && headTypes) {
    ctx.emit('request-file-type-removed', { operation, location: 'x-accepted-file-types', message: `uploads are now limited to ${headTypes.join(', ')} (415 for others)`, before: null, after: headTypes });
  } else if (baseTypes && !headTypes) {
    ctx.emit('request-file-type-added', { operation, location: 'x-accepted-file-types', message: 'uploads are no longer limited to a list of file types', before: baseTypes, after: null });
  }

  const baseCap = typeof base['x-max-file-bytes'] === 'number' ? base['x-max-file-bytes'] : undefined;
  const headCap = typeof head['x-max-file-bytes'] === 'number' ? head['x-max-file-bytes'] : undefined;
  if (baseCap !== headCap) {
    const lowered = headCap !== undefined && (baseCap === undefined || headCap < baseCap);
    ctx.emit(lowered ? 'request-file-size-limit-decreased' : 'request-file-size-limit-increased', {
      operation,
      location: 'x-max-file-bytes',
      message: `the upload size cap goes from ${baseCap ?? 'none'} to ${headCap ?? 'none'} bytes${lowered ? ' (larger files now get 413)' : ''}`,
      before: baseCap ?? null,
      after: headCap ?? null,
    });
  }

  // Absent x-principal-types: any principal type.
  const basePrincipals = stringList(base['x-principal-types'], false);
  const headPrincipals = stringList(head['x-principal-types'], false);
  if (headPrincipals && (!basePrincipals || basePrincipals.some((t) => !headPrincipals.includes(t)))) {
    const dropped = basePrincipals ? basePrincipals.filter((t) => !headPrincipals.includes(t)).join(', ') : `every type but ${headPrincipals.join(', ')}`;
    ctx.emit('security-principal-type-removed', { operation, location: 'x-principal-types', message: `principal types no longer allowed: ${dropped} (403 PRINCIPAL_DENIED)`, before: basePrincipals ?? null, after: headPrincipals });
  }
  if (basePrincipals && (!headPrincipals || headPrincipals.some((t) => !basePrincipals.includes(t)))) {
    const added = headPrincipals ? headPrincipals.filter((t) => !basePrincipals.includes(t)).join(', ') : 'any type';
    ctx.emit('security-principal-type-added', { operation, location: 'x-principal-types', message: `principal types now allowed: ${added}`, before: basePrincipals, after: headPrincipals ?? null });
  }
}

function stringList(value: Json | undefined, lower: boolean): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === 'string').map((v) => (lower ? v.toLowerCase() : v));
}
