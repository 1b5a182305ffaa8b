// Values generated from the contract's JSON Schemas (OpenAPI 3.1 / 2020-12, as they appear in the bundled
// document): `validValue` gives a fast-check arbitrary of values the schema accepts, `invalidVariants` a list
// of named mutations of a valid value, each breaking exactly one rule of the schema (so a server must refuse
// it). Both cover the subset of JSON Schema the contract uses: type (also arrays of types with "null"), enum,
// const, string lengths / pattern / format, numeric bounds, array items / sizes / uniqueness, object
// properties / required / additionalProperties / propertyNames / dependentRequired, allOf, anyOf, oneOf,
// if / then / else and `not: { required: [...] }`. Refs (`#/components/...`) are followed with `deref`.
import fc from 'fast-check';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { deref } from '../../contracts/lib/operations.js';
import { createContractSchemas, type ContractSchemas } from '../../contracts/lib/schemas.js';

const MAX_DEPTH = 8;
/** Keywords that combine subschemas: `flatten` merges allOf; these stay for the generators to handle. */
const ALTERNATIVES = ['oneOf', 'anyOf'] as const;

const schemaCache = new WeakMap<OpenApiDocument, ContractSchemas>();

/** The contract's ajv (compiled once per document), unless the caller brings its own. */
export function contractSchemasOf(doc: OpenApiDocument, schemas?: ContractSchemas): ContractSchemas {
  if (schemas) return schemas;
  if (!schemaCache.has(doc)) schemaCache.set(doc, createContractSchemas(doc));
  return schemaCache.get(doc)!;
}

// ---------------------------------------------------------------------------------------------------------
// Flattening: refs followed, `$ref` siblings and allOf merged into one schema object.

/** Keys listed here are forbidden in generated objects (the other branches of a required-only oneOf). */
const FORBIDDEN = 'x-generator-forbidden';

export function flatten(doc: OpenApiDocument, raw: Json | undefined, depth = 0): JsonObject {
  if (raw === undefined || raw === true) return {};
  if (raw === false) return { not: {} };
  if (!isObject(raw) || depth > 40) return {};
  let out: JsonObject = {};
  const rest: JsonObject = { ...raw };
  if (typeof raw.$ref === 'string') {
    out = flatten(doc, deref(doc, { $ref: raw.$ref }), depth + 1);
    delete rest.$ref;
  }
  const parts = Array.isArray(rest.allOf) ? rest.allOf : [];
  delete rest.allOf;
  out = mergeSchemas(out, rest);
  for (const part of parts) out = mergeSchemas(out, flatten(doc, part, depth + 1));
  return out;
}

export const typesOf = (schema: JsonObject): string[] | undefined =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : undefined;

/** Merges two flattened schemas into one that asks for both (the subset of keywords the contract uses). */
export function mergeSchemas(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined) {
      out[key] = value;
      continue;
    }
    switch (key) {
      case 'properties': {
        const merged: JsonObject = { ...(mine as JsonObject) };
        for (const [name, schema] of Object.entries(value as JsonObject)) merged[name] = name in merged ? { allOf: [merged[name], schema] } : schema;
        out.properties = merged;
        break;
      }
      case 'required':
      case FORBIDDEN:
        out[key] = [...new Set([...(mine as string[]), ...(value as string[])])];
        break;
      case 'dependentRequired': {
        const merged: JsonObject = { ...(mine as JsonObject) };
        for (const [name, deps] of Object.entries(value as JsonObject)) merged[name] = [...new Set([...((merged[name] as string[]) ?? []), ...(deps as string[])])];
        out.dependentRequired = merged;
        break;
      }
      case 'type': {
        const left = typesOf(a) ?? [];
        const right = typesOf(b) ?? [];
        const both = left.filter((t) => right.includes(t) || (t === 'integer' && right.includes('number')));
        for (const t of right) if (t === 'integer' && left.includes('number') && !both.includes('integer')) both.push('integer');
        out.type = both.length === 1 ? both[0] : both;
        break;
      }
      case 'enum':
        out.enum = (mine as Json[]).filter((v) => (value as Json[]).some((w) => JSON.stringify(w) === JSON.stringify(v)));
        break;
      case 'minimum':
      case 'minLength':
      case 'minItems':
      case 'exclusiveMinimum':
        out[key] = Math.max(mine as number, value as number);
        break;
      case 'maximum':
      case 'maxLength':
      case 'maxItems':
      case 'exclusiveMaximum':
        out[key] = Math.min(mine as number, value as number);
        break;
      case 'items':
      case 'additionalProperties':
      case 'propertyNames':
        out[key] = value === false || mine === false ? false : { allOf: [mine, value] };
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}

const without = (schema: JsonObject, ...keys: string[]): JsonObject => {
  const out = { ...schema };
  for (const key of keys) delete out[key];
  return out;
};

/** A oneOf/anyOf branch that only names required keys (`{ required: [classificationId] }`). */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', '$comment']);
const requiredOnly = (branch: JsonObject): boolean => Object.keys(branch).every((k) => k === 'required' || ANNOTATIONS.has(k)) && Array.isArray(branch.required);

/** The branches of a schema's oneOf / anyOf, each merged with the rest of the schema. */
export function alternatives(doc: OpenApiDocument, schema: JsonObject): { keyword: 'oneOf' | 'anyOf'; branches: JsonObject[] } | undefined {
  for (const keyword of ALTERNATIVES) {
    const list = schema[keyword];
    if (!Array.isArray(list) || list.length === 0) continue;
    const base = without(schema, keyword);
    const flat = list.map((b) => flatten(doc, b));
    const branches = flat.map((branch, index) => {
      let merged = mergeSchemas(base, branch);
      // oneOf over required-only branches: the other branches' keys must stay absent.
      if (keyword === 'oneOf' && flat.every(requiredOnly)) {
        const mine = new Set(branch.required as string[]);
        const others = flat.filter((_, i) => i !== index).flatMap((b) => b.required as string[]).filter((k) => !mine.has(k));
        merged = mergeSchemas(merged, { [FORBIDDEN]: others });
      }
      return merged;
    });
    // A branch whose merged types or enum leave nothing (`type: null` meeting an object branch) is dropped.
    const satisfiable = branches.filter((b) => !(Array.isArray(b.type) && b.type.length === 0) && !(Array.isArray(b.enum) && b.enum.length === 0));
    return { keyword, branches: satisfiable.length ? satisfiable : branches };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Valid values.

export interface GenerateOptions {
  /** The contract's ajv, to evaluate `if` conditions (default: one compiled for `doc`). */
  schemas?: ContractSchemas;
  /** Generate deprecated properties too (legacy aliases). Default false: a client sends canonical fields. */
  deprecated?: boolean;
}

interface Gen {
  doc: OpenApiDocument;
  schemas: ContractSchemas;
  deprecated: boolean;
}

/** A fast-check arbitrary of values the schema accepts. */
export function validValue(doc: OpenApiDocument, schema: Json, options: GenerateOptions = {}): fc.Arbitrary<unknown> {
  return arbitrary({ doc, schemas: contractSchemasOf(doc, options.schemas), deprecated: options.deprecated ?? false }, schema, 0);
}

/** One valid value, drawn with `seed` (deterministic). */
export function sampleValid(doc: OpenApiDocument, schema: Json, seed: number, options: GenerateOptions = {}): unknown {
  return fc.sample(validValue(doc, schema, options), { seed, numRuns: 1 })[0];
}

function arbitrary(gen: Gen, raw: Json, depth: number): fc.Arbitrary<unknown> {
  const schema = flatten(gen.doc, raw);
  if (isObject(schema.not) && Object.keys(schema.not).length === 0) throw new Error('a false schema has no valid value');
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) {
    const types = typesOf(schema);
    const values = types ? schema.enum.filter((v) => types.includes(jsonType(v)) || (jsonType(v) === 'integer' && types.includes('number'))) : schema.enum;
    return fc.constantFrom(...(values.length ? values : schema.enum));
  }
  if (schema.if !== undefined) {
    // if / then / else: either the condition and `then` hold, or the condition fails and `else` holds.
    const rest = without(schema, 'if', 'then', 'else');
    const condition = schema.if;
    const then = arbitrary(gen, mergeSchemas(mergeSchemas(rest, flatten(gen.doc, condition)), flatten(gen.doc, schema.then)), depth);
    const otherwise = arbitrary(gen, mergeSchemas(rest, flatten(gen.doc, schema.else)), depth).filter((v) => !conditionHolds(gen, condition, v));
    return fc.oneof(then, otherwise);
  }
  const alt = alternatives(gen.doc, schema);
  if (alt) {
    // anyOf over required-only branches: any one branch satisfied is enough (the others are optional keys).
    return fc.oneof(...alt.branches.map((branch) => arbitrary(gen, branch, depth)));
  }
  const types = typesOf(schema) ?? inferTypes(schema);
  const arbs = types.map((type) => ofType(gen, schema, type, depth));
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

function inferTypes(schema: JsonObject): string[] {
  if (isObject(schema.properties) || schema.required || schema.additionalProperties !== undefined || schema.dependentRequired) return ['object'];
  if (schema.items !== undefined || schema.minItems !== undefined) return ['array'];
  if (schema.pattern !== undefined || schema.format !== undefined || schema.minLength !== undefined || schema.maxLength !== undefined) return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.exclusiveMinimum !== undefined) return ['number'];
  // Untyped: any JSON value; keep it to simple scalars.
  return ['string', 'integer', 'boolean'];
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function ofType(gen: Gen, schema: JsonObject, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArb(schema);
    case 'number':
      return numberArb(schema);
    case 'string':
      return stringArb(schema);
    case 'array':
      return arrayArb(gen, schema, depth);
    case 'object':
      return objectArb(gen, schema, depth);
    default:
      return fc.constant(null);
  }
}

function bounds(schema: JsonObject, integer: boolean): { min: number; max: number; minExcluded: boolean; maxExcluded: boolean } {
  let min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  let max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let minExcluded = false;
  let maxExcluded = false;
  if (typeof schema.exclusiveMinimum === 'number' && (min === undefined || schema.exclusiveMinimum >= min)) {
    min = integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum;
    minExcluded = !integer;
  }
  if (typeof schema.exclusiveMaximum === 'number' && (max === undefined || schema.exclusiveMaximum <= max)) {
    max = integer ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum;
    maxExcluded = !integer;
  }
  if (min === undefined && max === undefined) return { min: -1000, max: 100_000, minExcluded, maxExcluded };
  if (min === undefined) min = max! - 100_000;
  if (max === undefined) max = min + 100_000;
  return { min, max, minExcluded, maxExcluded };
}

function integerArb(schema: JsonObject): fc.Arbitrary<number> {
  const { min, max } = bounds(schema, true);
  return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
}

function numberArb(schema: JsonObject): fc.Arbitrary<number> {
  const { min, max, minExcluded, maxExcluded } = bounds(schema, false);
  const lo = Math.ceil(min * 100) + (minExcluded && Number.isInteger(min * 100) ? 1 : 0);
  const hi = Math.floor(max * 100) - (maxExcluded && Number.isInteger(max * 100) ? 1 : 0);
  // Amounts as a client sends them (two decimals): no denormals a server could fairly read as 0.
  const cents = fc.integer({ min: lo, max: hi }).map((v) => v / 100).filter((v) => (minExcluded ? v > min : v >= min) && (maxExcluded ? v < max : v <= max));
  if (lo <= hi) return cents;
  return fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true }).map((v) => (Object.is(v, -0) ? 0 : v));
}

const LABEL = fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/);

/** Values of the formats the contract uses. URLs and e-mail addresses are in reserved domains (RFC 2606). */
function formatArb(format: string): fc.Arbitrary<string> | undefined {
  const dates = fc.date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true });
  switch (format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return dates.map((d) => d.toISOString());
    case 'date':
      return dates.map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.tuple(LABEL, LABEL).map(([local, domain]) => `${local}@${domain}.example`);
    case 'uri':
      return fc.tuple(LABEL, fc.array(LABEL, { maxLength: 3 })).map(([host, path]) => `https://${host}.example/${path.join('/')}`);
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    default:
      return undefined;
  }
}

const codePoints = (value: string) => [...value].length;

/** fast-check cannot generate lookaheads: strip them, generate from the rest, keep what the whole pattern accepts. */
function patternArb(pattern: string): fc.Arbitrary<string> {
  const regex = new RegExp(pattern, 'u');
  try {
    return fc.stringMatching(regex);
  } catch {
    const stripped = stripLookarounds(pattern);
    return fc.stringMatching(new RegExp(stripped, 'u')).filter((v) => regex.test(v));
  }
}

function stripLookarounds(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) || pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
      let level = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '(') level++;
        else if (pattern[i] === ')' && --level === 0) break;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}

function stringArb(schema: JsonObject): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const format = typeof schema.format === 'string' ? formatArb(schema.format) : undefined;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const fits = (v: string) => codePoints(v) >= min && (max === undefined || codePoints(v) <= max) && (!pattern || new RegExp(pattern, 'u').test(v));
  if (format) return format.filter(fits);
  if (pattern) return patternArb(pattern).filter(fits);
  return fc.string({ minLength: min, maxLength: Math.min(max ?? min + 16, min + 16) });
}

function arrayArb(gen: Gen, schema: JsonObject, depth: number): fc.Arbitrary<unknown[]> {
  const items = schema.items === undefined || schema.items === true ? { type: 'string', maxLength: 8 } : (schema.items as Json);
  const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const cap = depth >= MAX_DEPTH ? minLength : minLength + 3;
  const maxLength = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : cap, cap);
  const item = arbitrary(gen, items, depth + 1);
  return schema.uniqueItems === true ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(item, { minLength, maxLength });
}

interface ObjectShape {
  properties: Record<string, Json>;
  required: Set<string>;
  dependentRequired: Record<string, string[]>;
  forbiddenTogether: string[][];
  conditions: Array<{ if: Json; then?: string[]; else?: string[] }>;
}

function shapeOf(gen: Gen, schema: JsonObject): ObjectShape {
  const forbidden = new Set((schema[FORBIDDEN] as string[] | undefined) ?? []);
  const properties: Record<string, Json> = {};
  for (const [name, prop] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    if (forbidden.has(name)) continue;
    if (!gen.deprecated && isObject(prop) && prop.deprecated === true) continue;
    properties[name] = prop;
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const name of required) if (!(name in properties)) properties[name] = {};
  const dependentRequired = (isObject(schema.dependentRequired) ? schema.dependentRequired : {}) as Record<string, string[]>;
  const forbiddenTogether: string[][] = [];
  if (isObject(schema.not) && requiredOnly(schema.not)) forbiddenTogether.push(schema.not.required as string[]);
  const conditions: ObjectShape['conditions'] = [];
  if (schema.if !== undefined) {
    const then = flatten(gen.doc, schema.then);
    const otherwise = flatten(gen.doc, schema.else);
    conditions.push({ if: schema.if, then: then.required as string[] | undefined, else: otherwise.required as string[] | undefined });
  }
  return { properties, required, dependentRequired, forbiddenTogether, conditions };
}

/**
 * Makes a set of present keys consistent with dependentRequired, `not: { required }` and if/then/else:
 * adds what a present key depends on, drops optional keys that complete a forbidden combination (and what
 * depended on them). `keep` is never dropped.
 */
function settle(gen: Gen, shape: ObjectShape, values: Record<string, unknown>, present: Set<string>, keep?: string): Set<string> {
  const out = new Set(present);
  const build = () => Object.fromEntries([...out].filter((k) => k in values).map((k) => [k, values[k]]));
  for (let round = 0; round < 6; round++) {
    let changed = false;
    for (const group of shape.forbiddenTogether) {
      if (group.every((k) => out.has(k))) {
        const drop = [...group].reverse().find((k) => !shape.required.has(k) && k !== keep);
        if (drop) {
          out.delete(drop);
          changed = true;
        }
      }
    }
    for (const key of [...out]) {
      const deps = shape.dependentRequired[key] ?? [];
      const missing = deps.filter((d) => !out.has(d));
      if (!missing.length) continue;
      // A dependency that was dropped for a forbidden combination takes its dependent with it.
      const droppedForCombination = missing.some((d) => shape.forbiddenTogether.some((g) => g.includes(d) && g.every((k) => k === d || out.has(k))));
      if (droppedForCombination && !shape.required.has(key) && key !== keep) out.delete(key);
      else missing.forEach((d) => d in values && out.add(d));
      changed = true;
    }
    for (const condition of shape.conditions) {
      const holds = conditionHolds(gen, condition.if, build());
      for (const key of (holds ? condition.then : condition.else) ?? []) {
        if (!out.has(key) && key in values) {
          out.add(key);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return out;
}

const conditionValidators = new WeakMap<object, (value: unknown) => boolean>();

/** Evaluates an `if` subschema on an object (compiled once, as an object schema for ajv's strict mode). */
function conditionHolds(gen: Gen, condition: Json, value: unknown): boolean {
  if (!isObject(condition)) return condition !== false;
  if (!conditionValidators.has(condition)) {
    const validate = gen.schemas.validator({ type: 'object', allOf: [condition] } as Json);
    conditionValidators.set(condition, (v) => validate(v) as boolean);
  }
  return conditionValidators.get(condition)!(value);
}

function objectArb(gen: Gen, schema: JsonObject, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(gen, schema);
  const names = Object.keys(shape.properties);
  const optional = names.filter((n) => !shape.required.has(n));
  const deep = depth >= MAX_DEPTH;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of deep ? names.filter((n) => shape.required.has(n)) : names) {
    model[name] = arbitrary(gen, shape.properties[name], depth + 1);
  }
  const extra = extraArb(gen, schema, names, depth);
  return fc.tuple(fc.record(model), deep ? fc.constant([] as string[]) : fc.subarray(optional), extra).map(([values, chosen, extras]) => {
    const present = settle(gen, shape, values, new Set([...shape.required, ...chosen].filter((k) => k in values)));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(extras)) if (!(k in shape.properties)) out[k] = v;
    for (const name of names) if (present.has(name)) out[name] = values[name];
    return out;
  });
}

/** Keys beyond the declared properties: from `additionalProperties` / `propertyNames`, or none. */
function extraArb(gen: Gen, schema: JsonObject, declared: string[], depth: number): fc.Arbitrary<Record<string, unknown>> {
  const additional = schema.additionalProperties;
  if (additional === false || depth >= MAX_DEPTH) return fc.constant({});
  const keyArb = schema.propertyNames !== undefined ? (arbitrary(gen, schema.propertyNames, depth + 1) as fc.Arbitrary<string>) : LABEL;
  const keys = keyArb.filter((k) => typeof k === 'string' && !declared.includes(k));
  if (isObject(additional) && Object.keys(additional).length) return fc.dictionary(keys, arbitrary(gen, additional, depth + 1), { maxKeys: 2 });
  // Free-form objects (no declared properties): a few scalar entries; declared objects stay as declared.
  if (declared.length === 0) return fc.dictionary(keys, fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()), { maxKeys: 2 });
  return fc.constant({});
}

// ---------------------------------------------------------------------------------------------------------
// Invalid variants.

export type MutationKind =
  | 'wrong-type'
  | 'not-integer'
  | 'below-minimum'
  | 'above-maximum'
  | 'exclusive-minimum'
  | 'exclusive-maximum'
  | 'not-in-enum'
  | 'const-violated'
  | 'too-short'
  | 'too-long'
  | 'pattern-mismatch'
  | 'bad-format'
  | 'missing-required'
  | 'additional-property'
  | 'bad-property-name'
  | 'dependent-required'
  | 'forbidden-combination'
  | 'conditional-required'
  | 'none-of-alternatives'
  | 'several-alternatives'
  | 'too-few-items'
  | 'too-many-items'
  | 'duplicate-items';

/** Mutations that break a bound or a required key first: what servers most often forget to enforce. */
export const MUTATION_PRIORITY: MutationKind[] = [
  'below-minimum',
  'above-maximum',
  'exclusive-minimum',
  'missing-required',
  'not-in-enum',
  'too-long',
  'pattern-mismatch',
  'bad-format',
  'dependent-required',
  'forbidden-combination',
  'conditional-required',
  'too-short',
  'wrong-type',
  'not-integer',
  'const-violated',
  'additional-property',
  'bad-property-name',
  'too-few-items',
  'too-many-items',
  'duplicate-items',
  'none-of-alternatives',
  'several-alternatives',
  'exclusive-maximum',
];

export interface InvalidVariant {
  /** What is broken, for reports: `limit: above maximum (101)`. */
  name: string;
  kind: MutationKind;
  /** Where the mutation is, from the root value (property names and array indexes); [] is the value itself. */
  path: Array<string | number>;
  /** The whole value with the mutation applied. */
  value: unknown;
  /** Top-level names a server may give in `details.field` for this refusal; [] when no field is named. */
  fields: string[];
  /** A schema on the way to the mutation is `x-sandbox-defined` (the sandbox's choice, not the spec's). */
  sandboxDefined: boolean;
}

export interface VariantOptions extends GenerateOptions {
  /** The valid value to mutate (default: one drawn with `seed`). Ignored when the schema refuses it. */
  base?: unknown;
  seed?: number;
  /** Keep mutations the schema still accepts (to measure the generator; never to send). */
  unfiltered?: boolean;
}

interface Local {
  kind: MutationKind;
  detail: string;
  path: Array<string | number>;
  value: unknown;
  fields?: string[];
  sandboxDefined: boolean;
}

const KIND_TEXT: Record<MutationKind, string> = {
  'wrong-type': 'wrong type',
  'not-integer': 'not an integer',
  'below-minimum': 'below minimum',
  'above-maximum': 'above maximum',
  'exclusive-minimum': 'exclusiveMinimum violated',
  'exclusive-maximum': 'exclusiveMaximum violated',
  'not-in-enum': 'not in enum',
  'const-violated': 'const violated',
  'too-short': 'too short',
  'too-long': 'too long',
  'pattern-mismatch': 'pattern mismatch',
  'bad-format': 'bad format',
  'missing-required': 'missing required property',
  'additional-property': 'additionalProperties:false violated',
  'bad-property-name': 'property name not allowed',
  'dependent-required': 'dependentRequired violated',
  'forbidden-combination': 'forbidden combination',
  'conditional-required': 'conditionally required property missing',
  'none-of-alternatives': 'matches none of the alternatives',
  'several-alternatives': 'matches several oneOf alternatives',
  'too-few-items': 'too few items',
  'too-many-items': 'too many items',
  'duplicate-items': 'duplicate items',
};

/** Rules over several fields at once: a refusal need not name one of them (spec 7 "where applicable"). */
const CROSS_FIELD = new Set<MutationKind>(['forbidden-combination', 'none-of-alternatives', 'several-alternatives']);

const BAD_FORMAT: Record<string, string> = {
  uuid: 'not-a-uuid',
  'date-time': 'not-a-date-time',
  date: '2026-13-45',
  email: 'not-an-email',
  uri: 'not a uri',
  ipv4: '999.999.1.1',
  ipv6: 'not-an-ipv6',
};

/**
 * Named mutations of a valid value, each breaking one rule of the schema, all refused by the contract's
 * ajv (a mutation the schema still accepts, e.g. one that happens to satisfy another anyOf branch, is left
 * out). Deterministic for a given seed.
 */
export function invalidVariants(doc: OpenApiDocument, schema: Json, options: VariantOptions = {}): InvalidVariant[] {
  const gen: Gen = { doc, schemas: contractSchemasOf(doc, options.schemas), deprecated: options.deprecated ?? false };
  const seed = options.seed ?? 0;
  const validate = gen.schemas.validator(schema);
  const base = options.base !== undefined && validate(options.base) ? options.base : sampleValid(doc, schema, seed, { schemas: gen.schemas });
  const locals = mutations(gen, schema, base, 0, false, seed);
  const seen = new Set<string>();
  const out: InvalidVariant[] = [];
  for (const local of locals) {
    const key = JSON.stringify(local.value) ?? 'undefined';
    if (seen.has(key) || local.value === undefined || (!options.unfiltered && validate(local.value))) continue;
    seen.add(key);
    const where = pathText(local.path);
    out.push({
      name: `${where || '(value)'}: ${KIND_TEXT[local.kind]}${local.detail ? ` (${local.detail})` : ''}`,
      kind: local.kind,
      path: local.path,
      value: local.value,
      fields: CROSS_FIELD.has(local.kind) ? [] : local.fields ?? (typeof local.path[0] === 'string' ? [local.path[0]] : []),
      sandboxDefined: local.sandboxDefined,
    });
  }
  return out;
}

export function pathText(path: Array<string | number>): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
}

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
const preview = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

function mutations(gen: Gen, raw: Json, base: unknown, depth: number, sandbox: boolean, seed: number): Local[] {
  if (depth > MAX_DEPTH) return [];
  const schema = flatten(gen.doc, raw);
  const sb = sandbox || schema['x-sandbox-defined'] === true;
  const out: Local[] = [];
  const add = (kind: MutationKind, value: unknown, detail = '', extra: Partial<Local> = {}) => out.push({ kind, detail, path: [], value, sandboxDefined: sb, ...extra });

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

function propertySchemaOf(schema: JsonObject, key: string): Json {
  return isObject(schema.properties) && key in schema.properties ? schema.properties[key] : {};
}

function arrayMutations(gen: Gen, schema: JsonObject, base: unknown[] | undefined, depth: number, sb: boolean, seed: number): Local[] {
  const out: Local[] = [];
  const itemSchema = schema.items === undefined || schema.items === true ? {} : (schema.items as Json);
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  const items = (count: number, unique: boolean): unknown[] => {
    const arb = validValue(gen.doc, itemSchema, { schemas: gen.schemas });
    const list = unique ? fc.uniqueArray(arb, { minLength: count, maxLength: count, selector: (v) => JSON.stringify(v) }) : fc.array(arb, { minLength: count, maxLength: count });
    return fc.sample(list, { seed, numRuns: 1 })[0];
  };
  const add = (kind: MutationKind, value: unknown, detail: string, path: Array<string | number> = []) => out.push({ kind, detail, path, value, sandboxDefined: sb });
  const start = base && base.length ? base : items(Math.max(1, minItems), schema.uniqueItems === true);
  if (minItems > 0) add('too-few-items', start.slice(0, minItems - 1), `${minItems - 1} < ${minItems}`);
  if (maxItems !== undefined && maxItems < 1000) {
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

function objectMutations(gen: Gen, schema: JsonObject, given: Record<string, unknown> | undefined, depth: number, sb: boolean, seed: number): Local[] {
  const out: Local[] = [];
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
    const subSb = sb || sub['x-sandbox-defined'] === true;
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
    const propSb = sb || prop['x-sandbox-defined'] === true;
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
