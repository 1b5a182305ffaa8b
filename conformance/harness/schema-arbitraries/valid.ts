// Valid values: a fast-check arbitrary of values a schema accepts (the subset of JSON Schema the contract
// uses: type, also arrays of types with "null"; enum, const; string lengths / pattern / format; numeric
// bounds; array items / sizes / uniqueness; object properties / required / additionalProperties /
// propertyNames / dependentRequired; allOf, anyOf, oneOf; if / then / else; `not: { required: [...] }`).
import fc from 'fast-check';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { conditionHolds, settle, shapeOf } from './object-shape.js';
import { alternatives, codePoints, contractSchemasOf, flatten, inferTypes, jsonType, MAX_DEPTH, mergeSchemas, typesOf, without, type Gen, type GenerateOptions } from './resolve.js';

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
