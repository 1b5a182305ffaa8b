// Types and values: type and nullability, enum and const, numeric and count bounds, uniqueItems, pattern and
// format, default. Enums marked `x-lifecycle` are judged by lifecycle.ts instead.
import type { Json, JsonObject } from '../../lib/bundle.js';
import { compareLifecycle } from './lifecycle.js';
import { nullableOf, ownTypes, unionOf, type View } from './resolve.js';
import { emit, enumValues, list, minus, show, type Walk } from './walk.js';

// ---------------------------------------------------------------------------------------- types

export function covers(types: string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

export function compareTypes(w: Walk, path: string, b: View, h: View): void {
  const request = w.direction === 'request';
  const bt = ownTypes(b.s);
  const ht = ownTypes(h.s);
  const bNonNull = bt?.filter((t) => t !== 'null');
  const hNonNull = ht?.filter((t) => t !== 'null');
  if (bNonNull && hNonNull) {
    const removed = bNonNull.filter((t) => !covers(hNonNull, t));
    const added = hNonNull.filter((t) => !covers(bNonNull, t));
    const describe = `type ${show(bt!)} became ${show(ht!)}`;
    if (request) {
      if (removed.length) emit(w, 'request-type-changed', path, `${describe}: clients sending ${removed.join(', ')} are rejected.`, bt!, ht!);
      else if (added.length) emit(w, 'request-type-widened', path, `${describe}: ${added.join(', ')} now accepted as well.`, bt!, ht!);
    } else if (removed.length && added.length) {
      emit(w, 'response-type-changed', path, `${describe}: clients expecting ${removed.join(', ')} receive ${added.join(', ')}.`, bt!, ht!);
    } else if (added.length) {
      emit(w, 'response-type-widened', path, `${describe}: clients may now receive ${added.join(', ')}.`, bt!, ht!);
    } else if (removed.length) {
      emit(w, 'response-type-narrowed', path, `${describe}: ${removed.join(', ')} no longer sent.`, bt!, ht!);
    }
  } else if (!bt && ht && !unionOf(b.s)) {
    if (request) emit(w, 'request-type-changed', path, `a free value is now restricted to type ${show(ht)}.`, undefined, ht);
    else emit(w, 'response-type-narrowed', path, `a free value is now of type ${show(ht)}.`, undefined, ht);
    return;
  } else if (bt && !ht && !unionOf(h.s)) {
    if (request) emit(w, 'request-type-widened', path, `type ${show(bt)} dropped: any value is accepted.`, bt, undefined);
    else emit(w, 'response-type-widened', path, `type ${show(bt)} dropped: clients may receive any value.`, bt, undefined);
    return;
  }
  const bn = nullableOf(w.ctx.base, b.s);
  const hn = nullableOf(w.ctx.head, h.s);
  if (bn === undefined || hn === undefined || bn === hn) return;
  if (request) {
    if (hn) emit(w, 'request-type-widened', path, 'null is now accepted.', bt ?? null, ht ?? null);
    else emit(w, 'request-nullable-removed', path, 'null is no longer accepted: clients sending null are rejected.');
  } else if (hn) {
    emit(w, 'response-nullable-added', path, 'the value may now be null: clients not expecting null break.');
  } else {
    emit(w, 'response-nullable-removed', path, 'the value is never null any more.');
  }
}

// ---------------------------------------------------------------------------------------- enums and const

export function compareEnums(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  if (compareLifecycle(w, path, bs, hs)) return;
  const be = enumValues(bs);
  const he = enumValues(hs);
  const request = w.direction === 'request';
  if (be && he) {
    const added = minus(he, be);
    const removed = minus(be, he);
    if (request) {
      if (removed.length) emit(w, 'request-enum-value-removed', path, `enum value ${list(removed)} no longer accepted.`, be, he);
      if (added.length) emit(w, 'request-enum-value-added', path, `enum value ${list(added)} now accepted.`, be, he);
    } else {
      // The promise clients were built against is BASE's: an enum declared extensible there is read leniently.
      if (added.length && bs['x-extensible-enum'] === true) emit(w, 'response-extensible-enum-value-added', path, `extensible enum gains ${list(added)}.`, be, he);
      else if (added.length) emit(w, 'response-enum-value-added', path, `enum gains ${list(added)}: clients may receive a value they do not handle (the enum is not x-extensible-enum).`, be, he);
      if (removed.length) emit(w, 'response-enum-value-removed', path, `enum value ${list(removed)} no longer sent.`, be, he);
    }
  } else if (!be && he) {
    if (request) emit(w, 'request-enum-added', path, `the value is now restricted to ${list(he)}.`, null, he);
    else emit(w, 'response-enum-added', path, `the value is now one of ${list(he)}.`, null, he);
  } else if (be && !he) {
    if (request) emit(w, 'request-enum-removed', path, `enum ${list(be)} dropped: any value is accepted.`, be, null);
    else emit(w, 'response-enum-removed', path, `enum ${list(be)} dropped: clients may receive any value.`, be, null);
  }
}

export function compareConst(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const bHas = 'const' in bs;
  const hHas = 'const' in hs;
  if (!bHas && !hHas) return;
  if (bHas && hHas && JSON.stringify(bs.const) === JSON.stringify(hs.const)) return;
  const before = bHas ? bs.const : undefined;
  const after = hHas ? hs.const : undefined;
  if (w.direction === 'request') {
    if (hHas) emit(w, 'request-const-changed', path, `const ${show(before)} became ${show(after)}: clients sending the old value are rejected.`, before, after);
    else emit(w, 'request-const-removed', path, `const ${show(before)} dropped: other values are accepted.`, before, after);
  } else if (bHas) {
    emit(w, 'response-const-changed', path, `const ${show(before)} became ${show(after)}: clients relying on the old value break.`, before, after);
  } else {
    emit(w, 'response-const-added', path, `the value is now always ${show(after)}.`, before, after);
  }
}

// ---------------------------------------------------------------------------------------- bounds

interface Bound {
  value: number;
  exclusive: boolean;
}

function lowerBound(s: JsonObject): Bound | undefined {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const ex = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  if (ex !== undefined && (min === undefined || ex >= min)) return { value: ex, exclusive: true };
  return min === undefined ? undefined : { value: min, exclusive: false };
}

function upperBound(s: JsonObject): Bound | undefined {
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  const ex = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined;
  if (ex !== undefined && (max === undefined || ex <= max)) return { value: ex, exclusive: true };
  return max === undefined ? undefined : { value: max, exclusive: false };
}

const boundText = (bound: Bound | undefined, lower: boolean) => (bound ? `${lower ? (bound.exclusive ? '>' : '>=') : bound.exclusive ? '<' : '<='} ${bound.value}` : 'none');

/** Whether bound `b` admits fewer values than `a` (undefined: unbounded). */
function stricter(a: Bound | undefined, b: Bound | undefined, lower: boolean): boolean {
  if (!b) return false;
  if (!a) return true;
  if (b.value !== a.value) return lower ? b.value > a.value : b.value < a.value;
  return b.exclusive && !a.exclusive;
}

/** Each bound: the rule ids for [request tightened, request relaxed, response loosened, response tightened]. */
const NUMBER_BOUNDS = [
  { name: 'minimum', lower: true, read: lowerBound, ids: ['request-minimum-increased', 'request-minimum-decreased', 'response-minimum-decreased', 'response-minimum-increased'] },
  { name: 'maximum', lower: false, read: upperBound, ids: ['request-maximum-decreased', 'request-maximum-increased', 'response-maximum-increased', 'response-maximum-decreased'] },
] as const;

const COUNT_BOUNDS = [
  { key: 'minLength', lower: true, ids: ['request-min-length-increased', 'request-min-length-decreased', 'response-min-length-decreased', 'response-min-length-increased'] },
  { key: 'maxLength', lower: false, ids: ['request-max-length-decreased', 'request-max-length-increased', 'response-max-length-increased', 'response-max-length-decreased'] },
  { key: 'minItems', lower: true, ids: ['request-min-items-increased', 'request-min-items-decreased', 'response-min-items-decreased', 'response-min-items-increased'] },
  { key: 'maxItems', lower: false, ids: ['request-max-items-decreased', 'request-max-items-increased', 'response-max-items-increased', 'response-max-items-decreased'] },
] as const;

function judgeBound(w: Walk, path: string, ids: readonly string[], tightened: boolean, loosened: boolean, text: string, before: Json | undefined, after: Json | undefined): void {
  if (w.direction === 'request') {
    if (tightened) emit(w, ids[0], path, `${text}: values clients sent may now be rejected.`, before, after);
    else if (loosened) emit(w, ids[1], path, `${text}: more values accepted.`, before, after);
  } else if (loosened) {
    emit(w, ids[2], path, `${text}: clients may receive values outside the former bound.`, before, after);
  } else if (tightened) {
    emit(w, ids[3], path, `${text}.`, before, after);
  }
}

export function compareBounds(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  for (const bound of NUMBER_BOUNDS) {
    const a = bound.read(bs);
    const b = bound.read(hs);
    const text = `${bound.name} ${boundText(a, bound.lower)} became ${boundText(b, bound.lower)}`;
    judgeBound(w, path, bound.ids, stricter(a, b, bound.lower), stricter(b, a, bound.lower), text, a?.value, b?.value);
  }
  for (const bound of COUNT_BOUNDS) {
    const read = (s: JsonObject) => (typeof s[bound.key] === 'number' ? (s[bound.key] as number) : bound.lower ? 0 : Infinity);
    const a = read(bs);
    const b = read(hs);
    if (a === b) continue;
    const tightened = bound.lower ? b > a : b < a;
    const fmt = (n: number) => (Number.isFinite(n) ? String(n) : 'none');
    judgeBound(w, path, bound.ids, tightened, !tightened, `${bound.key} ${fmt(a)} became ${fmt(b)}`, Number.isFinite(a) ? a : undefined, Number.isFinite(b) ? b : undefined);
  }
  const bu = bs.uniqueItems === true;
  const hu = hs.uniqueItems === true;
  if (bu !== hu) {
    if (w.direction === 'request') {
      if (hu) emit(w, 'request-unique-items-added', path, 'items must now be unique: requests repeating an item are rejected.', false, true);
      else emit(w, 'request-unique-items-removed', path, 'items may now repeat.', true, false);
    } else if (hu) emit(w, 'response-unique-items-added', path, 'items are now unique.', false, true);
    else emit(w, 'response-unique-items-removed', path, 'items may now repeat: clients keying on them may break.', true, false);
  }
}

// ---------------------------------------------------------------------------------------- strings

export function compareStrings(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const request = w.direction === 'request';
  for (const keyword of ['pattern', 'format'] as const) {
    const a = typeof bs[keyword] === 'string' ? (bs[keyword] as string) : undefined;
    const b = typeof hs[keyword] === 'string' ? (hs[keyword] as string) : undefined;
    if (a === b) continue;
    const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const text = `${keyword} ${show(a)} became ${show(b)}`;
    const consequence =
      request
        ? change === 'removed' ? 'more values accepted.' : 'values clients sent may now be rejected.'
        : change === 'added' ? 'the server now guarantees it.' : 'clients relying on the former guarantee may break.';
    emit(w, `${w.direction}-${keyword}-${change}`, path, `${text}: ${consequence}`, a, b);
  }
}

export function compareDefault(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  if (w.direction !== 'request') return;
  const bHas = 'default' in bs;
  const hHas = 'default' in hs;
  if (bHas && hHas && JSON.stringify(bs.default) === JSON.stringify(hs.default)) return;
  if (bHas) emit(w, 'request-default-changed', path, `default ${show(bs.default)} became ${show(hHas ? hs.default : undefined)}: clients that omit the value get other behaviour.`, bs.default, hHas ? hs.default : undefined);
  else if (hHas) emit(w, 'request-default-added', path, `default ${show(hs.default)} documented.`, undefined, hs.default);
}
