// The nesting bound on request bodies (sandbox-defined; simulator/README.md "Defaults the spec leaves open").
// No operation of any served contract nests a body more than a few levels; an attacker can nest thousands,
// and recursive code downstream (schema validation, the idempotency fingerprint, logging) would overflow the
// stack. The body is measured once, iteratively, right after parsing, and refused with 400 INVALID_REQUEST.

/** Deepest accepted nesting of arrays and objects in a request body (the body itself is level 1). */
export const MAX_BODY_DEPTH = 64;

/** Whether `value` nests arrays/objects deeper than `maxDepth` levels. Iterative: no stack to overflow. */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** A body's nesting (whether past `maxDepth`; the walk stops there) and how many values it holds. */
export function bodyShape(value: unknown, maxDepth: number): { tooDeep: boolean; values: number } {
  let values = 0;
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length) {
    const { value: current, depth } = pending.pop()!;
    values++;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return { tooDeep: true, values };
    for (const child of Array.isArray(current) ? current : Object.values(current as Record<string, unknown>)) pending.push({ value: child, depth: depth + 1 });
  }
  return { tooDeep: false, values };
}
