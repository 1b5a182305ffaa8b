// Schema-level comparison (spec 9.3): two JSON Schemas, one from each side of a comparison, walked together
// (properties, items, additionalProperties, oneOf/anyOf branches; allOf merged), every difference judged in
// the direction the schema travels. A request schema constrains what a client sends: narrowing it is
// breaking, widening it is info. A response schema (also headers and webhook payloads) is what the client
// receives: loosening the server's guarantees is breaking (or a warning for bounds and enum values),
// tightening them is info. Enums marked `x-lifecycle` are state sets of a state machine and are judged by
// the lifecycle rules in both directions.
// The rules are in rules.ts; compare.ts drives the walk, resolve.ts reads schemas, and values.ts, lifecycle.ts,
// properties.ts and combinators.ts judge what changed.
import type { Json } from '../../lib/bundle.js';
import type { DiffContext } from '../types.js';
import { compare } from './compare.js';
import { normalize } from './resolve.js';
import type { Walk, Where } from './walk.js';

export { schemaRules } from './rules.js';

/**
 * Compares two schemas (from ctx.base and ctx.head respectively; refs resolved against each side's document),
 * recursing into properties, items, allOf/anyOf/oneOf (match branches sensibly: by $ref name, else by index),
 * additionalProperties, with a cycle guard. `where.location` is the human path so far (e.g.
 * `request body application/json`), extended with `.prop`, `[]`, etc.
 */
export function diffSchema(ctx: DiffContext, base: Json | undefined, head: Json | undefined, where: Where): void {
  if (base === undefined || head === undefined) return; // a schema appearing or vanishing is the caller's change
  const walk: Walk = { ...where, ctx, stack: new Set(), depth: 0 };
  compare(walk, '', normalize(ctx.base, base), normalize(ctx.head, head));
}
