// The mutations of a valid value, one rule of the schema broken in each: type, enum / const, string and
// numeric bounds, pattern and format; array sizes, uniqueness and items; object keys (required, additional,
// property names, dependentRequired, forbidden combinations, if / then / else) and oneOf / anyOf over
// required keys. Each recurses into the values it holds.
import fc from 'fast-check';
import { isObject, type Json, type JsonObject } from '../../../contracts/lib/bundle.js';
import { hasSandboxShape, sandboxBounds } from '../../../contracts/lib/sandbox-defined.js';
import type { MutationKind } from './mutation-kinds.js';
import { settle, shapeOf } from './object-shape.js';
import { alternatives, codePoints, flatten, FORBIDDEN, inferTypes, jsonType, MAX_DEPTH, propertySchemaOf, requiredOnly, typesOf, without, type Gen } from './resolve.js';
import { sampleValid, validValue } from './valid.js';

/** One mutation, where it is from the value it was made for, before it is named. */
export interface Mutation {
  kind: MutationKind;
  detail: string;
  path: Array<string | number>;
  value: unknown;
  fields?: string[];
  sandboxDefined: boolean;
}

const BAD_FORMAT: Record<string, string> = {
  uuid: 'not-a-uuid',
  'date-time': 'not-a-date-time',
  date: '2026-13-45',
  email: 'not-an-email',
  uri: 'not a uri',
  ipv4: '999.999.1.1',
  ipv6: 'not-an-ipv6',
};

/** The keyword a bound mutation breaks. */
const BOUND_OF: Partial<Record<MutationKind, string>> = {
  'too-short': 'minLength',
  'too-long': 'maxLength',
  'pattern-mismatch': 'pattern',
  'below-minimum': 'minimum',
  'above-maximum': 'maximum',
  'exclusive-minimum': 'exclusiveMinimum',
  'exclusive-maximum': 'exclusiveMaximum',
  'too-few-items': 'minItems',
  'too-many-items': 'maxItems',
};

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
const preview = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

export function mutations(gen: Gen, raw: Json, base: unknown, depth: number, sandbox: boolean, seed: number): Mutation[] {
  if (depth > MAX_DEPTH) return [];
  const schema = flatten(gen.doc, raw);
  const sb = sandbox || hasSandboxShape(schema);
  // A bound the sandbox chose (x-sandbox-defined-bounds): breaking it is a refusal only our sandbox owes.
  const ours = sandboxBounds(schema);
  const out: Mutation[] = [];
  const add = (kind: MutationKind, value: unknown, detail = '', extra: Partial<Mutation> = {}) => out.push({ kind, detail, path: [], value, sandboxDefined: sb || (BOUND_OF[kind] !== undefined && ours.has(BOUND_OF[kind]!)), ...extra });

  const alt = alternatives(gen.doc, schema);
  if (alt) {
    // Object-level alternatives over required keys: none of them, or (oneOf) all of them.
    const flat = (schema[alt.keyword] as Json[]).map((b) => flatten(gen.doc, b));
    if (flat.every(requiredOnly) && isObject(base)) {
      const keys = [...new Set(flat.flatMap((b) => b.required as string[]))];
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const none = clone(base) as Record<string, unknown>;
      keys.filter((k) => !required.has(k)).forEach((k) => delete none[k]);
      add('none-of-alternatives', none, keys.join(' / '), { fields: keys });
      if (alt.keyword === 'oneOf') {
        const all = clone(base) as Record<string, unknown>;
        for (const key of keys) if (!(key in all)) all[key] = sampleValid(gen.doc, propertySchemaOf(schema, key), seed, { schemas: gen.schemas });
        add('several-alternatives', all, keys.join(' + '), { fields: keys });
      }
      out.push(...mutations(gen, without(schema, alt.keyword), base, depth, sb, seed));
      return out;
    }
    // Value-level alternatives: the mutations of every branch (from a value of that branch), kept when the
    // whole schema refuses them.
    for (const branch of alt.branches) {
      const allowed = typesOf(branch) ?? inferTypes(branch);
      const own = allowed.includes(jsonType(base)) || (jsonType(base) === 'integer' && allowed.includes('number')) ? base : sampleValid(gen.doc, without(branch, FORBIDDEN), seed, { schemas: gen.schemas });
      out.push(...mutations(gen, branch, own, depth, sb, seed));
    }
    return out;
  }

  const types = typesOf(schema);
  if ('const' in schema) {
    const c = schema.const;
    add('const-violated', typeof c === 'string' ? `${c}-invalid` : typeof c === 'number' ? c + 1 : typeof c === 'boolean' ? !c : 'not-the-constant', preview(c));
  }
  if (Array.isArray(schema.enum)) {
    const first = schema.enum[0];
    const candidate = typeof first === 'number' ? Math.max(...(schema.enum as number[])) + 1 : `${String(first)}_NOT_IN_ENUM`;
    add('not-in-enum', candidate, preview(candidate));
  }
  if (types) {
    const allows = (t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));
    const candidates: Array<[string, unknown]> = [
      ['string', 'wrong-type'],
      ['integer', 12345],
      ['boolean', true],
      ['object', { unexpected: true }],
      ['array', ['wrong-type']],
    ];
    const wrong = candidates.find(([t]) => !allows(t));
    if (wrong) add('wrong-type', wrong[1], `${wrong[0]} instead of ${types.join(' or ')}`);
    if (types.includes('integer') && !types.includes('number')) add('not-integer', 1.5, '1.5');
  }
  const stringy = types ? types.includes('string') : typeof base === 'string';
  if (stringy) {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    if (min > 0) add('too-short', 'x'.repeat(min - 1), `length ${min - 1} < ${min}`);
    if (max !== undefined) add('too-long', 'x'.repeat(max + 1), `length ${max + 1} > ${max}`);
    if (typeof schema.pattern === 'string') {
      const regex = new RegExp(schema.pattern, 'u');
      const fits = (v: string) => codePoints(v) >= min && (max === undefined || codePoints(v) <= max);
      const candidates = ['#invalid#', 'not valid', '!', 'x', '0', 'ZZZZ', '9', ' ', ''];
      const bad = candidates.find((v) => !regex.test(v) && fits(v)) ?? candidates.find((v) => !regex.test(v));
      if (bad !== undefined) add('pattern-mismatch', bad, `${preview(bad)} !~ /${schema.pattern}/`);
    }
    if (typeof schema.format === 'string' && schema.format in BAD_FORMAT) add('bad-format', BAD_FORMAT[schema.format], `${schema.format}: ${preview(BAD_FORMAT[schema.format])}`);
  }
  const numeric = types ? types.includes('number') || types.includes('integer') : typeof base === 'number';
  if (numeric) {
    if (typeof schema.minimum === 'number') add('below-minimum', schema.minimum - 1, `${schema.minimum - 1} < ${schema.minimum}`);
    if (typeof schema.maximum === 'number') add('above-maximum', schema.maximum + 1, `${schema.maximum + 1} > ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number') add('exclusive-minimum', schema.exclusiveMinimum, `${schema.exclusiveMinimum} is not > ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === 'number') add('exclusive-maximum', schema.exclusiveMaximum, `${schema.exclusiveMaximum} is not < ${schema.exclusiveMaximum}`);
  }
  const arrayish = types ? types.includes('array') : Array.isArray(base);
  if (arrayish) out.push(...arrayMutations(gen, schema, Array.isArray(base) ? base : undefined, depth, sb, seed));
  const objectish = types ? types.includes('object') : isObject(base);
  if (objectish) out.push(...objectMutations(gen, schema, isObject(base) ? (base as Record<string, unknown>) : undefined, depth, sb, seed));
  return out;
}

function arrayMutations(gen: Gen, schema: JsonObject, base: unknown[] | undefined, depth: number, sb: boolean, seed: number): Mutation[] {
  const out: Mutation[] = [];
  const itemSchema = schema.items === undefined || schema.items === true ? {} : (schema.items as Json);
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  const items = (count: number, unique: boolean): unknown[] => {
    const arb = validValue(gen.doc, itemSchema, { schemas: gen.schemas });
    const list = unique ? fc.uniqueArray(arb, { minLength: count, maxLength: count, selector: (v) => JSON.stringify(v) }) : fc.array(arb, { minLength: count, maxLength: count });
    return fc.sample(list, { seed, numRuns: 1 })[0];
  };
  const ours = sandboxBounds(schema);
  const add = (kind: MutationKind, value: unknown, detail: string, path: Array<string | number> = []) => out.push({ kind, detail, path, value, sandboxDefined: sb || (BOUND_OF[kind] !== undefined && ours.has(BOUND_OF[kind]!)) });
  const start = base && base.length ? base : items(Math.max(1, minItems), schema.uniqueItems === true);
  if (minItems > 0) add('too-few-items', start.slice(0, minItems - 1), `${minItems - 1} < ${minItems}`);
  // Unique items drawn from an enum of fewer values than maxItems + 1 cannot exist (uniqueness already bounds
  // the array): asking fast-check for them never ends.
  const itemChoices = isObject(itemSchema) && Array.isArray(itemSchema.enum) ? itemSchema.enum.length : Infinity;
  if (maxItems !== undefined && maxItems < 1000 && !(schema.uniqueItems === true && itemChoices < maxItems + 1)) {
    try {
      add('too-many-items', items(maxItems + 1, schema.uniqueItems === true), `${maxItems + 1} > ${maxItems}`);
    } catch {
      // Not enough distinct items exist (an enum shorter than maxItems + 1): nothing to send.
    }
  }
  if (schema.uniqueItems === true && (maxItems === undefined || maxItems >= 2)) add('duplicate-items', [start[0], start[0], ...start.slice(1, Math.max(1, (maxItems ?? 3) - 1))], 'first item repeated');
  for (const child of mutations(gen, itemSchema, start[0], depth + 1, sb, seed)) {
    const copy = clone(start);
    copy[0] = child.value;
    out.push({ ...child, path: [0, ...child.path], value: copy, fields: undefined });
  }
  return out;
}

function objectMutations(gen: Gen, schema: JsonObject, given: Record<string, unknown> | undefined, depth: number, sb: boolean, seed: number): Mutation[] {
  const out: Mutation[] = [];
  const shape = shapeOf(gen, schema);
  const base: Record<string, unknown> = given ? clone(given) : {};
  const sample = (key: string) => sampleValid(gen.doc, shape.properties[key] ?? {}, seed, { schemas: gen.schemas });
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(shape.properties)) values[key] = key in base ? base[key] : undefined;
  const withKey = (key: string, value: unknown): Record<string, unknown> => {
    // Set `key`, keep the rest consistent (dependencies present, no forbidden combination completed).
    const pool: Record<string, unknown> = { ...base, [key]: value };
    for (const name of Object.keys(shape.properties)) if (!(name in pool)) pool[name] = undefined;
    const lazy = new Proxy(pool, { get: (t, k: string) => (t[k] === undefined && k in shape.properties ? (t[k] = sample(k)) : t[k]) });
    const present = settle(gen, shape, lazy as Record<string, unknown>, new Set([...Object.keys(base), key]), key);
    const result: Record<string, unknown> = {};
    for (const name of present) result[name] = name === key ? value : lazy[name];
    for (const [k, v] of Object.entries(base)) if (!(k in shape.properties) && present.has(k)) result[k] = v;
    return result;
  };
  const add = (kind: MutationKind, value: unknown, detail: string, path: Array<string | number>, fields: string[], sandboxDefined = sb) =>
    out.push({ kind, detail, path, value, fields, sandboxDefined });

  for (const key of shape.required) {
    if (!(key in base)) continue;
    const copy = clone(base);
    delete copy[key];
    add('missing-required', copy, '', [key], [key]);
  }
  const additional = schema.additionalProperties;
  if (additional === false) add('additional-property', { ...clone(base), unexpectedField: 'x' }, 'unexpectedField', ['unexpectedField'], ['unexpectedField']);
  else if (isObject(additional) && Object.keys(additional).length) {
    const key = schema.propertyNames !== undefined ? String(sampleValid(gen.doc, schema.propertyNames, seed, { schemas: gen.schemas })) : 'extraKey';
    const sub = flatten(gen.doc, additional);
    const subSb = sb || hasSandboxShape(sub);
    for (const child of mutations(gen, additional, sampleValid(gen.doc, additional, seed, { schemas: gen.schemas }), depth + 1, subSb, seed)) {
      add(child.kind, { ...clone(base), [key]: child.value }, child.detail, [key, ...child.path], [key], child.sandboxDefined);
    }
    if (schema.propertyNames !== undefined) {
      const names = mutations(gen, schema.propertyNames, key, depth + 1, sb, seed).filter((m) => typeof m.value === 'string' && m.value !== '');
      const name = names[0];
      if (name) add('bad-property-name', { ...clone(base), [name.value as string]: sampleValid(gen.doc, additional, seed, { schemas: gen.schemas }) }, preview(name.value), [name.value as string], []);
    }
  }
  for (const [key, raw] of Object.entries(shape.properties)) {
    const prop = flatten(gen.doc, raw);
    // A declared property with no constraint at all (a legacy alias) cannot be broken.
    if (prop.deprecated === true) continue;
    const propSb = sb || hasSandboxShape(prop);
    const childBase = key in base ? base[key] : sample(key);
    for (const child of mutations(gen, raw, childBase, depth + 1, propSb, seed)) {
      add(child.kind, withKey(key, child.value), child.detail, [key, ...child.path], [key], child.sandboxDefined);
    }
  }
  for (const [key, deps] of Object.entries(shape.dependentRequired)) {
    const missing = deps.filter((d) => !shape.required.has(d));
    if (!missing.length || !(key in shape.properties)) continue;
    const copy: Record<string, unknown> = { ...clone(base), [key]: key in base ? base[key] : sample(key) };
    missing.forEach((d) => delete copy[d]);
    add('dependent-required', copy, `${key} without ${missing.join(', ')}`, [key], [key, ...missing]);
  }
  for (const group of shape.forbiddenTogether) {
    let copy: Record<string, unknown> = clone(base);
    for (const key of group) copy = { ...copy, ...withKeyLoose(copy, key) };
    add('forbidden-combination', copy, group.join(' + '), [group[0]], group);
  }
  function withKeyLoose(current: Record<string, unknown>, key: string): Record<string, unknown> {
    const next: Record<string, unknown> = { ...current, [key]: key in current ? current[key] : sample(key) };
    for (const dep of shape.dependentRequired[key] ?? []) if (!(dep in next)) next[dep] = sample(dep);
    return next;
  }
  for (const condition of shape.conditions) {
    const trigger = isObject(condition.if) ? flatten(gen.doc, condition.if) : {};
    const forced: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(isObject(trigger.properties) ? trigger.properties : {})) {
      const flat = flatten(gen.doc, sub);
      if ('const' in flat) forced[key] = flat.const;
      else if (Array.isArray(flat.enum)) forced[key] = flat.enum[0];
    }
    for (const key of condition.then ?? []) {
      const copy: Record<string, unknown> = { ...clone(base), ...forced };
      delete copy[key];
      add('conditional-required', copy, `${key} when ${Object.entries(forced).map(([k, v]) => `${k}=${preview(v)}`).join(', ')}`, [key], [key, ...Object.keys(forced)]);
    }
  }
  return out;
}
