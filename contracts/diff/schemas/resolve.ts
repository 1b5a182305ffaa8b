// Reading a schema: $refs followed in its own document (refs.ts), allOf merged in, OpenAPI 3.0 spellings read as 3.1,
// a one-variant oneOf/anyOf unwrapped (the nullable-ref idiom); and the types and nullability it declares.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../lib/bundle.js';
import { resolveRef } from '../../lib/refs.js';

export interface View {
  s: JsonObject;
  /** Every $ref followed to build the view (the cycle guard's key). */
  refs: string[];
  /** Component name when the schema is a direct $ref. */
  name?: string;
}

export function normalize(doc: OpenApiDocument, node: Json | undefined, expanding: Set<string> = new Set()): View {
  if (node === undefined || node === true || !isObject(node)) {
    return { s: node === false ? { not: {} } : {}, refs: [] };
  }
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const { $ref: _ref, ...siblings } = node;
    const name = ref.split('/').pop();
    if (Object.keys(siblings).length) {
      // OpenAPI 3.1: keywords beside a $ref apply together with it (and the node's annotations win).
      const view = normalize(doc, { ...siblings, allOf: [{ $ref: ref }, ...(Array.isArray(siblings.allOf) ? siblings.allOf : [])] }, expanding);
      return { ...view, name };
    }
    if (expanding.has(ref)) return { s: {}, refs: [ref], name };
    const target = resolveRef(doc, ref);
    if (target === undefined) return { s: {}, refs: [ref], name }; // not resolvable here: compared by name only
    const view = normalize(doc, target, new Set([...expanding, ref]));
    return { s: view.s, refs: [ref, ...view.refs], name };
  }
  const { allOf, ...own } = node;
  const s = legacyKeywords(own);
  const refs: string[] = [];
  if (Array.isArray(allOf)) {
    for (const part of allOf) {
      const view = normalize(doc, part, expanding);
      refs.push(...view.refs);
      mergeInto(s, view.s);
    }
  }
  // A oneOf/anyOf with a single non-null branch is the nullable-ref idiom: merge the branch in.
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = s[keyword];
    if (!Array.isArray(branches)) continue;
    const views = branches.map((branch) => normalize(doc, branch, expanding));
    const nonNull = views.filter((view) => !isNullOnly(view.s));
    if (nonNull.length > 1) continue;
    const hasNull = nonNull.length < views.length;
    delete s[keyword];
    if (nonNull.length === 1) {
      refs.push(...nonNull[0].refs);
      mergeInto(s, nonNull[0].s);
      const types = typesOf(s);
      if (hasNull && types && !types.includes('null')) s.type = [...types, 'null'];
    } else if (hasNull) {
      s.type = ['null'];
    }
  }
  return { s, refs };
}

/** OpenAPI 3.0 spellings read as 3.1: `nullable: true`, boolean exclusive bounds. */
function legacyKeywords(own: JsonObject): JsonObject {
  const s: JsonObject = { ...own };
  if (s.nullable === true) {
    const types = typesOf(s);
    if (types && !types.includes('null')) s.type = [...types, 'null'];
  }
  delete s.nullable;
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof s[exclusive] !== 'boolean') continue;
    if (s[exclusive] === true && typeof s[bound] === 'number') {
      s[exclusive] = s[bound];
      delete s[bound];
    } else {
      delete s[exclusive];
    }
  }
  return s;
}

const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/** Merges an allOf part into `target` (conjunction: constraints combine, the target's annotations win). */
function mergeInto(target: JsonObject, part: JsonObject): void {
  for (const [key, value] of Object.entries(part)) {
    if (!(key in target)) {
      target[key] = value;
      continue;
    }
    const mine = target[key];
    if (key === 'properties' && isObject(mine) && isObject(value)) {
      const merged: JsonObject = { ...mine };
      for (const [name, schema] of Object.entries(value)) merged[name] = name in merged ? { allOf: [merged[name], schema] } : schema;
      target[key] = merged;
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) {
      target[key] = [...new Set([...mine, ...value].filter((v): v is string => typeof v === 'string'))];
    } else if (key === 'type') {
      const a = typesOf({ type: mine }) ?? [];
      const b = typesOf({ type: value }) ?? [];
      const both: string[] = [];
      for (const t of a) {
        if (b.includes(t)) both.push(t);
        else if ((t === 'number' && b.includes('integer')) || (t === 'integer' && b.includes('number'))) both.push('integer');
      }
      target[key] = [...new Set(both)];
    } else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const keep = new Set(value.map((v) => JSON.stringify(v)));
      target[key] = mine.filter((v) => keep.has(JSON.stringify(v)));
    } else if (LOWER.has(key) && typeof mine === 'number' && typeof value === 'number') {
      target[key] = Math.max(mine, value);
    } else if (UPPER.has(key) && typeof mine === 'number' && typeof value === 'number') {
      target[key] = Math.min(mine, value);
    } else if (key === 'uniqueItems') {
      target[key] = mine === true || value === true;
    } else if (key === 'additionalProperties' || key === 'unevaluatedProperties') {
      if (mine === false || value === false) target[key] = false;
      else if (isObject(mine) && isObject(value)) target[key] = { allOf: [mine, value] };
      else if (mine === true) target[key] = value;
    } else if (key === 'items' && isObject(mine) && isObject(value)) {
      target[key] = { allOf: [mine, value] };
    } else if (key === 'dependentRequired' && isObject(mine) && isObject(value)) {
      const merged: JsonObject = { ...mine };
      for (const [name, deps] of Object.entries(value)) {
        merged[name] = [...new Set([...(Array.isArray(merged[name]) ? (merged[name] as Json[]) : []), ...(Array.isArray(deps) ? deps : [])])];
      }
      target[key] = merged;
    } else if (key === 'not') {
      target[key] = { anyOf: [mine, value] }; // not A and not B = not (A or B)
    }
    // Anything else (annotations, a second oneOf, ...): the target's own value stands.
  }
}

export function typesOf(s: JsonObject): string[] | undefined {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function typeOfValue(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The declared types, or those of the enum/const values when no type is declared; undefined: any. */
export function ownTypes(s: JsonObject): string[] | undefined {
  const declared = typesOf(s);
  if (declared) return declared;
  if ('const' in s) return [typeOfValue(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(typeOfValue))];
  return undefined;
}

export function isNullOnly(s: JsonObject): boolean {
  const types = ownTypes(s);
  return !!types && types.length === 1 && types[0] === 'null';
}

/** The non-null branches of a oneOf/anyOf left after normalizing (two or more), with the keyword. */
export function unionOf(s: JsonObject): { keyword: 'oneOf' | 'anyOf'; branches: Json[] } | undefined {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[keyword])) return { keyword, branches: s[keyword] as Json[] };
  }
  return undefined;
}

export function nullableOf(doc: OpenApiDocument, s: JsonObject): boolean | undefined {
  const types = ownTypes(s);
  if (types) return types.includes('null');
  const union = unionOf(s);
  if (union) return union.branches.some((branch) => isNullOnly(normalize(doc, branch).s));
  return undefined;
}
