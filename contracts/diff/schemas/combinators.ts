// Combinators: if/then/else conditions, dependentRequired, forbidden combinations (`not: { required }`), and
// oneOf/anyOf branches matched across the two sides (a union against a plain schema included).
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../lib/bundle.js';
import { compare } from './compare.js';
import { isNullOnly, normalize, ownTypes, typesOf, type View } from './resolve.js';
import { emit, type Walk } from './walk.js';

// ---------------------------------------------------------------------------------------- conditions

/** An object's if/then/else as one comparable value (undefined when it has none). */
function condition(s: JsonObject): string | undefined {
  if (s.if === undefined) return undefined;
  return JSON.stringify({ if: s.if, then: s.then ?? null, else: s.else ?? null });
}

export function compareConditions(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = condition(bs);
  const b = condition(hs);
  if (a === b) return;
  const side = w.direction === 'request' ? 'request' : 'response';
  const before = a === undefined ? undefined : (JSON.parse(a) as Json);
  const after = b === undefined ? undefined : (JSON.parse(b) as Json);
  if (a === undefined) emit(w, `${side}-condition-added`, path, 'an if/then/else condition is new.', before, after);
  else if (b === undefined) emit(w, `${side}-condition-removed`, path, 'the if/then/else condition is gone.', before, after);
  else emit(w, `${side}-condition-changed`, path, 'the if/then/else condition changed.', before, after);
}

// ---------------------------------------------------------------------------------------- dependentRequired and not: { required }

function dependencyPairs(s: JsonObject): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  if (!isObject(s.dependentRequired)) return pairs;
  for (const [name, deps] of Object.entries(s.dependentRequired)) {
    if (!Array.isArray(deps)) continue;
    for (const dep of deps) if (typeof dep === 'string') pairs.set(`${name} -> ${dep}`, [name, dep]);
  }
  return pairs;
}

export function compareDependentRequired(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = dependencyPairs(bs);
  const b = dependencyPairs(hs);
  const added = [...b.keys()].filter((k) => !a.has(k));
  const removed = [...a.keys()].filter((k) => !b.has(k));
  if (added.length) emit(w, 'request-dependent-required-added', path, `new dependentRequired: ${added.join(', ')}: requests sending the first without the second are rejected.`, bs.dependentRequired, hs.dependentRequired);
  if (removed.length) emit(w, 'request-dependent-required-removed', path, `dependentRequired dropped: ${removed.join(', ')}.`, bs.dependentRequired, hs.dependentRequired);
}

/** The property combinations `not: { required }` forbids (also under `not: { anyOf/oneOf: [...] }`). */
function forbiddenCombinations(s: JsonObject): string[][] {
  const found: string[][] = [];
  const collect = (node: Json | undefined) => {
    if (!isObject(node)) return;
    if (Array.isArray(node.required) && node.required.length) found.push([...new Set(node.required.filter((r): r is string => typeof r === 'string'))].sort());
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches)) branches.forEach(collect);
    }
  };
  collect(s.not);
  return found;
}

export function compareForbiddenCombinations(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = forbiddenCombinations(bs);
  const b = forbiddenCombinations(hs);
  // A combination is already forbidden when a subset of it is.
  const implied = (combo: string[], by: string[][]) => by.some((other) => other.every((name) => combo.includes(name)));
  const added = b.filter((combo) => !implied(combo, a));
  const removed = a.filter((combo) => !implied(combo, b));
  const text = (combos: string[][]) => combos.map((c) => `[${c.join(', ')}]`).join(', ');
  if (added.length) emit(w, 'request-not-required-added', path, `sending ${text(added)} together is now forbidden.`, a, b);
  if (removed.length) emit(w, 'request-not-required-removed', path, `sending ${text(removed)} together is allowed again.`, a, b);
}

// ---------------------------------------------------------------------------------------- oneOf / anyOf

const refName = (node: Json): string | undefined => (isObject(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined);

function branchLabel(keyword: string, node: Json, index: number): string {
  return `(${keyword} ${refName(node) ?? `#${index + 1}`})`;
}

function summarize(doc: OpenApiDocument, node: Json): string {
  const name = refName(node);
  if (name) return name;
  const types = ownTypes(normalize(doc, node).s);
  return types ? types.join('|') : 'a schema';
}

function reportVariant(w: Walk, path: string, keyword: string, node: Json, index: number, side: 'base' | 'head'): void {
  const doc = side === 'base' ? w.ctx.base : w.ctx.head;
  const where = `${path}${branchLabel(keyword, node, index)}`;
  const what = summarize(doc, node);
  if (side === 'head') {
    if (w.direction === 'request') emit(w, 'request-variant-added', where, `${keyword} gains branch ${what}: clients may send it.`);
    else emit(w, 'response-variant-added', where, `${keyword} gains branch ${what}: clients may receive a shape they do not know.`);
  } else if (w.direction === 'request') emit(w, 'request-variant-removed', where, `${keyword} loses branch ${what}: requests of that shape are rejected.`);
  else emit(w, 'response-variant-removed', where, `${keyword} loses branch ${what}.`);
}

/** Pairs base and head branches: by $ref name first, then the rest in order. */
function matchBranches(bb: Json[], hb: Json[]): { pairs: Array<[number, number]>; baseOnly: number[]; headOnly: number[] } {
  const pairs: Array<[number, number]> = [];
  const bFree = new Set(bb.map((_, i) => i));
  const hFree = new Set(hb.map((_, i) => i));
  for (const i of bFree) {
    const name = refName(bb[i]);
    if (!name) continue;
    const j = [...hFree].find((k) => refName(hb[k]) === name);
    if (j === undefined) continue;
    pairs.push([i, j]);
    bFree.delete(i);
    hFree.delete(j);
  }
  // Unnamed branches pair in order; a named branch pairs only with an unnamed one or a renamed one
  // when the names cannot match anything else.
  const bRest = [...bFree];
  const hRest = [...hFree];
  const n = Math.min(bRest.length, hRest.length);
  for (let k = 0; k < n; k++) pairs.push([bRest[k], hRest[k]]);
  return { pairs, baseOnly: bRest.slice(n), headOnly: hRest.slice(n) };
}

function nonNullBranches(doc: OpenApiDocument, branches: Json[]): Json[] {
  return branches.filter((branch) => !isNullOnly(normalize(doc, branch).s));
}

export function compareBranches(w: Walk, path: string, bu: { keyword: string; branches: Json[] }, hu: { keyword: string; branches: Json[] }): void {
  const bb = nonNullBranches(w.ctx.base, bu.branches);
  const hb = nonNullBranches(w.ctx.head, hu.branches);
  const { pairs, baseOnly, headOnly } = matchBranches(bb, hb);
  for (const [i, j] of pairs) {
    compare(w, `${path}${branchLabel(hu.keyword, hb[j], j)}`, normalize(w.ctx.base, bb[i]), normalize(w.ctx.head, hb[j]));
  }
  for (const i of baseOnly) reportVariant(w, path, bu.keyword, bb[i], i, 'base');
  for (const j of headOnly) reportVariant(w, path, hu.keyword, hb[j], j, 'head');
}

/**
 * One side is a union of several branches, the other a plain schema: the plain schema is compared with the
 * branch that matches it (same $ref name, else same types, else the first), merged with the union's own
 * keywords; every other branch is a variant added (union in head) or removed (union in base).
 */
export function compareUnionWithPlain(w: Walk, path: string, unionView: View, union: { keyword: 'oneOf' | 'anyOf'; branches: Json[] }, plain: View, unionSide: 'base' | 'head'): void {
  const unionDoc = unionSide === 'base' ? w.ctx.base : w.ctx.head;
  const branches = nonNullBranches(unionDoc, union.branches);
  const { [union.keyword]: _branches, ...own } = unionView.s;
  if (!branches.length) {
    const ownView: View = { s: own, refs: unionView.refs };
    if (unionSide === 'base') compare(w, path, ownView, plain);
    else compare(w, path, plain, ownView);
    return;
  }
  const plainTypes = ownTypes(plain.s)?.filter((t) => t !== 'null').sort().join('|');
  let match = branches.findIndex((branch) => plain.name !== undefined && refName(branch) === plain.name);
  if (match < 0 && plainTypes) match = branches.findIndex((branch) => ownTypes(normalize(unionDoc, branch).s)?.filter((t) => t !== 'null').sort().join('|') === plainTypes);
  if (match < 0) match = 0;
  const hasNullBranch = branches.length < union.branches.length;
  const merged = normalize(unionDoc, { ...own, allOf: [branches[match]] });
  if (hasNullBranch) {
    const types = typesOf(merged.s);
    if (types && !types.includes('null')) merged.s.type = [...types, 'null'];
  }
  const mergedView: View = { s: merged.s, refs: [...unionView.refs, ...merged.refs], name: refName(branches[match]) };
  if (unionSide === 'base') compare(w, path, mergedView, plain);
  else compare(w, path, plain, mergedView);
  branches.forEach((branch, index) => {
    if (index !== match) reportVariant(w, path, union.keyword, branch, index, unionSide);
  });
}
