// The recursion of the schema walk: one pair of views at a time, with a depth limit and a cycle guard, handed
// to the value, object and combinator comparisons, then into items and matched oneOf/anyOf branches.
import { compareBranches, compareUnionWithPlain } from './combinators.js';
import { compareObjects } from './properties.js';
import { normalize, ownTypes, unionOf, type View } from './resolve.js';
import { compareBounds, compareConst, compareDefault, compareEnums, compareStrings, compareTypes, covers } from './values.js';
import type { Walk } from './walk.js';

const MAX_DEPTH = 64;

export function compare(w: Walk, path: string, b: View, h: View): void {
  if (w.depth >= MAX_DEPTH) return;
  // Every cycle passes through a $ref: a pair of ref sets met again on the same path is a cycle.
  const key = b.refs.length || h.refs.length ? `${b.refs.join(',')}|${h.refs.join(',')}` : undefined;
  if (key !== undefined && w.stack.has(key)) return;
  if (key !== undefined) w.stack.add(key);
  w.depth++;
  try {
    compareViews(w, path, b, h);
  } finally {
    w.depth--;
    if (key !== undefined) w.stack.delete(key);
  }
}

function compareViews(w: Walk, path: string, b: View, h: View): void {
  const bu = unionOf(b.s);
  const hu = unionOf(h.s);
  if (bu && !hu) return compareUnionWithPlain(w, path, b, bu, h, 'base');
  if (!bu && hu) return compareUnionWithPlain(w, path, h, hu, b, 'head');
  compareTypes(w, path, b, h);
  // A value that changes to an unrelated type (string to object): that is the change; its former keywords
  // (pattern, properties...) going away with it is not news.
  const bt = ownTypes(b.s)?.filter((t) => t !== 'null');
  const ht = ownTypes(h.s)?.filter((t) => t !== 'null');
  if (bt?.length && ht?.length && !bt.some((t) => ht.some((u) => covers([u], t) || covers([t], u)))) return;
  compareEnums(w, path, b.s, h.s);
  compareConst(w, path, b.s, h.s);
  compareBounds(w, path, b.s, h.s);
  compareStrings(w, path, b.s, h.s);
  compareDefault(w, path, b.s, h.s);
  compareObjects(w, path, b.s, h.s);
  if ('items' in b.s || 'items' in h.s) {
    compare(w, `${path}[]`, normalize(w.ctx.base, b.s.items), normalize(w.ctx.head, h.s.items));
  }
  if (bu && hu) compareBranches(w, path, bu, hu);
}
