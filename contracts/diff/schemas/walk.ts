// The state of one schema walk, and how it reports a change (location = the caller's location + the path).
import type { Json, JsonObject } from '../../lib/bundle.js';
import type { DiffContext, Direction } from '../types.js';

export interface Where {
  direction: Direction;
  operation: string;
  location: string;
}

export interface Walk extends Where {
  ctx: DiffContext;
  /** Pairs of ref sets on the current path (cycle guard). */
  stack: Set<string>;
  depth: number;
}

export function emit(w: Walk, ruleId: string, path: string, message: string, before?: Json, after?: Json): void {
  const change: Parameters<DiffContext['emit']>[1] = { operation: w.operation, location: path ? `${w.location} ${path}` : w.location, message };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  w.ctx.emit(ruleId, change);
}

export const show = (value: Json | undefined): string => (value === undefined ? '(none)' : JSON.stringify(value));
export const list = (values: Json[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/** The non-null values of an enum; undefined when the schema has none. */
export const enumValues = (s: JsonObject): Json[] | undefined => (Array.isArray(s.enum) ? s.enum.filter((v) => v !== null) : undefined);

/** The values of `a` not in `b` (compared as JSON). */
export const minus = (a: Json[], b: Json[]) => {
  const other = new Set(b.map((v) => JSON.stringify(v)));
  return a.filter((v) => !other.has(JSON.stringify(v)));
};
