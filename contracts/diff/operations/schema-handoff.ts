// Schemas: handed to the schema differ, unless both sides are the same after following references (the
// common case, and it keeps comparing a version with itself fast).
import { isObject, type Json } from '../../lib/bundle.js';
import { deref } from '../../lib/refs.js';
import { diffSchema } from '../schema-diff.js';
import type { DiffContext, Direction } from '../types.js';

const equalRefs = new WeakMap<DiffContext, Map<string, boolean>>();

export function schemaDiff(ctx: DiffContext, base: Json, head: Json, direction: Direction, operation: string, location: string): void {
  if (sameResolved(ctx, base, head)) return;
  diffSchema(ctx, base, head, { direction, operation, location });
}

/** Deep equality of two schemas, following `$ref`s on each side in its own document. A reference met again
 *  while it is being compared is assumed equal (recursive schemas); a result is cached only when it did not
 *  rest on such an assumption about a reference still open further up. */
function sameResolved(ctx: DiffContext, base: Json, head: Json): boolean {
  let cache = equalRefs.get(ctx);
  if (!cache) equalRefs.set(ctx, (cache = new Map()));
  const known = cache;
  const open: string[] = [];
  let lowestAssumed = Infinity; // smallest index in `open` whose assumption was used
  const equal = (a: Json, b: Json): boolean => {
    if (isObject(a) && isObject(b) && typeof a.$ref === 'string' && typeof b.$ref === 'string') {
      const { $ref: ref, ...restA } = a;
      const { $ref: refB, ...restB } = b;
      if (ref !== refB || !equal(restA, restB)) return false;
      const cached = known.get(ref as string);
      if (cached !== undefined) return cached;
      const index = open.indexOf(ref as string);
      if (index >= 0) {
        lowestAssumed = Math.min(lowestAssumed, index);
        return true;
      }
      const outerAssumed = lowestAssumed;
      lowestAssumed = Infinity;
      open.push(ref as string);
      const result = equal(deref(ctx.base, { $ref: ref }), deref(ctx.head, { $ref: ref }));
      const self = open.length - 1;
      open.pop();
      // false is always sound; true only when no reference above this one was assumed equal.
      if (!result || lowestAssumed >= self) known.set(ref as string, result);
      lowestAssumed = Math.min(outerAssumed, lowestAssumed >= self ? Infinity : lowestAssumed);
      return result;
    }
    if (a === b) return true;
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
    if (isObject(a)) {
      if (!isObject(b)) return false;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      return keys.every((key) => key in b && equal(a[key], b[key]));
    }
    return false;
  };
  return equal(base, head);
}
