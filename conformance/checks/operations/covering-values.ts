// The values that cover one input's contract deterministically: every enum value, each bound at its edge,
// both booleans, null where the type allows it, strings drawn from the pattern (never the example), the
// values of the normalization rules that name the input, and "left out" for an optional input.
import fc from 'fast-check';
import type { Json, OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { sandboxBounds } from '../../../contracts/lib/sandbox-defined.js';
import type { ContractSchemas } from '../../../contracts/lib/schemas.js';
import { flatten, jsonType, typesOf } from '../../harness/schema-arbitraries/resolve.js';
import { sampleValid, validValue } from '../../harness/schema-arbitraries/valid.js';
import { asFormValue } from './requests.js';
import { keptReason, variable } from './value-policy.js';

/** An optional input left out of the request. */
export const ABSENT: unique symbol = Symbol('absent');
export type CoverValue = unknown | typeof ABSENT;

/** Pattern draws per input: several, so that a server that knows only the example is seen. */
const PATTERN_DRAWS = 3;
/** Longer strings are covered by their invalid side only (a maxLength edge of 10 000 is not sent). */
const MAX_EDGE_LENGTH = 5000;
/** Arrays longer than this are not sent at their maxItems edge. */
const MAX_EDGE_ITEMS = 500;

export interface InputCover {
  values: CoverValue[];
  /** Constraints of the input that are not generated, with the reason (for the coverage report). */
  notGenerated: string[];
  /**
   * Values at the edge of a bound the sandbox chose (x-sandbox-defined-bounds): valid for our sandbox, but the
   * spec does not promise another deployment serves them, so a refusal proves nothing outside the simulator.
   */
  sandboxValues: Set<unknown>;
}

/** Text of exactly `length` code points, varied by the seed (so repeated runs do not send the same key). */
function textOfLength(length: number, seed: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let state = (seed >>> 0) || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += alphabet[(state >>> 16) % alphabet.length];
  }
  return out;
}

/**
 * The covering values of one input. `form`: the input is a multipart form field, so each value is taken in
 * its wire form (requests.ts asFormValue: line breaks as CRLF) and kept only when the schema still accepts
 * it: the value judged is the value the server receives.
 */
export function coverValues(doc: OpenApiDocument, schemas: ContractSchemas, raw: Json, name: string, required: boolean, seed: number, options: { form?: boolean } = {}): InputCover {
  const cover = coverValuesOf(doc, schemas, raw, name, required, seed);
  if (!options.form) return cover;
  const validate = schemas.validator(raw);
  return { ...cover, values: cover.values.map((v) => (v === ABSENT ? v : asFormValue(v))).filter((v) => v === ABSENT || validate(v)) };
}

function coverValuesOf(doc: OpenApiDocument, schemas: ContractSchemas, raw: Json, name: string, required: boolean, seed: number): InputCover {
  const schema = flatten(doc, raw);
  const values: CoverValue[] = [];
  const notGenerated: string[] = [];
  const sandboxValues = new Set<unknown>();
  const ours = sandboxBounds(schema);
  /** Pushes the values `add` appends to `values` into `sandboxValues` when `keyword` is a bound of ours. */
  const edge = (keyword: string, add: () => void) => {
    const before = values.length;
    add();
    if (ours.has(keyword)) for (const value of values.slice(before)) sandboxValues.add(value);
  };
  const types = typesOf(schema) ?? [];
  const kept = keptReason(name);
  const constrained = ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'].filter((k) => k in schema);
  if (kept && !Array.isArray(schema.enum)) {
    for (const keyword of constrained) notGenerated.push(`${keyword}: not generated: ${kept}`);
    if (!required) notGenerated.push(`optional: not generated: ${kept}`);
    if (!required) values.push(ABSENT);
    return { values, notGenerated, sandboxValues };
  }
  if ('const' in schema) values.push(schema.const);
  else if (Array.isArray(schema.enum)) values.push(...schema.enum.filter((v) => !types.length || types.includes(jsonType(v)) || (jsonType(v) === 'integer' && types.includes('number'))));
  else {
    if (types.includes('null')) values.push(null);
    if (types.includes('boolean')) values.push(true, false);
    if (types.includes('integer') || types.includes('number')) {
      const step = types.includes('integer') ? 1 : 0.01;
      if (typeof schema.minimum === 'number') edge('minimum', () => values.push(schema.minimum));
      if (typeof schema.maximum === 'number') edge('maximum', () => values.push(schema.maximum));
      if (typeof schema.exclusiveMinimum === 'number') values.push(Math.round((schema.exclusiveMinimum + step) * 100) / 100);
      if (typeof schema.exclusiveMaximum === 'number') values.push(Math.round((schema.exclusiveMaximum - step) * 100) / 100);
    }
    if (types.includes('string')) values.push(...stringValues(doc, schemas, raw, schema, seed, notGenerated, (keyword, value) => ours.has(keyword) && sandboxValues.add(value)));
    if (types.includes('array')) values.push(...arrayValues(doc, schemas, schema, name, seed, notGenerated, (keyword, value) => ours.has(keyword) && sandboxValues.add(value)));
  }
  if (!required) values.push(ABSENT);
  return { values, notGenerated, sandboxValues };
}

/** Characters tried as padding, at the end and at the start of a draw: path, digit, space, separator. */
const PADS = ['a', '0', ' ', '-', 'x'];

/**
 * A string of exactly `length` characters the schema accepts: a draw (from its pattern or format) padded at
 * one end, or undefined. Never a line break: a multipart form field's `\n` travels as `\r\n` (longer).
 */
function paddedOfLength(doc: OpenApiDocument, schemas: ContractSchemas, raw: Json, schema: Record<string, unknown>, length: number, seed: number): string | undefined {
  const validate = schemas.validator(raw);
  const unbounded = { ...schema, minLength: undefined, maxLength: undefined } as unknown as Json;
  for (const draw of fc.sample(validValue(doc, unbounded, { schemas }), { seed, numRuns: 20 }) as string[]) {
    if (typeof draw !== 'string' || draw.length > length || /[\r\n]/.test(draw)) continue;
    for (const pad of PADS) {
      const fill = pad.repeat(length - draw.length);
      for (const candidate of [draw + fill, fill + draw]) if (validate(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Records that `value` was made to sit at the edge of `keyword`. */
type EdgeOf = (keyword: string, value: unknown) => void;

function stringValues(doc: OpenApiDocument, schemas: ContractSchemas, raw: Json, schema: Record<string, unknown>, seed: number, notGenerated: string[], edgeOf: EdgeOf): unknown[] {
  const out: unknown[] = [];
  if (typeof schema.pattern === 'string') {
    try {
      // Drawn from the pattern with the seed (fast-check stringMatching; lookaheads are stripped and the
      // whole pattern filters the draws, schema-arbitraries/valid.ts).
      // A form field's draws are taken in their wire form by coverValues (line breaks as CRLF).
      out.push(...fc.sample(validValue(doc, raw, { schemas }), { seed, numRuns: PATTERN_DRAWS }));
    } catch (error) {
      notGenerated.push(`pattern: not generated: ${(error as Error).message.split('\n')[0]}`);
      return out;
    }
    // Length edges of a patterned string: a draw from the pattern padded to the bound (filtering draws for
    // an exact length can take forever: `\S` at 200 characters, a URL at 2,048).
    for (const keyword of ['minLength', 'maxLength'] as const) {
      const bound = schema[keyword];
      if (typeof bound !== 'number' || bound > MAX_EDGE_LENGTH) continue;
      const edge = paddedOfLength(doc, schemas, raw, schema, bound, seed);
      if (edge === undefined) notGenerated.push(`${keyword}: not generated: no draw of the pattern padded to length ${bound} is valid`);
      else {
        out.push(edge);
        edgeOf(keyword, edge);
      }
    }
    return out;
  }
  if (typeof schema.format === 'string') {
    out.push(sampleValid(doc, raw, seed, { schemas }));
    // Length edges of a formatted string (an e-mail address of 254 characters): a draw padded to the bound.
    for (const keyword of ['minLength', 'maxLength'] as const) {
      const bound = schema[keyword];
      if (typeof bound !== 'number' || bound > MAX_EDGE_LENGTH) continue;
      const edge = paddedOfLength(doc, schemas, raw, schema, bound, seed);
      if (edge === undefined) notGenerated.push(`${keyword}: not generated: no draw of the ${String(schema.format)} format padded to length ${bound} is valid`);
      else {
        out.push(edge);
        edgeOf(keyword, edge);
      }
    }
    return out;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (min !== undefined && min > 0) {
    out.push(textOfLength(min, seed));
    edgeOf('minLength', out[out.length - 1]);
  }
  if (max !== undefined) {
    if (max <= MAX_EDGE_LENGTH) {
      out.push(textOfLength(max, seed + 1));
      edgeOf('maxLength', out[out.length - 1]);
    }
    else notGenerated.push(`maxLength: not generated: ${max} characters is beyond the ${MAX_EDGE_LENGTH} the suite sends`);
  }
  return out;
}

function arrayValues(doc: OpenApiDocument, schemas: ContractSchemas, schema: Record<string, unknown>, name: string, seed: number, notGenerated: string[], edgeOf: EdgeOf): unknown[] {
  const items = (schema.items ?? {}) as Json;
  if (!variable(doc, items)) {
    for (const keyword of ['minItems', 'maxItems'].filter((k) => k in schema)) notGenerated.push(`${keyword}: not generated: the items of ${name} are not generated (free text or objects keep their example)`);
    return [];
  }
  const itemSchema = flatten(doc, items);
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  const draw = (count: number, offset: number) => fc.sample(validValue(doc, items, { schemas }), { seed: seed + offset, numRuns: count });
  const out: unknown[] = [];
  // Every enum value of the items at least once, in arrays of the smallest allowed size.
  if (Array.isArray(itemSchema.enum)) for (const value of itemSchema.enum) out.push([value, ...draw(Math.max(0, min - 1), 1)]);
  if (min > 0) {
    out.push(draw(min, 2));
    edgeOf('minItems', out[out.length - 1]);
  }
  if (max !== undefined) {
    if (max <= MAX_EDGE_ITEMS) {
      out.push(schema.uniqueItems === true ? [...new Set(draw(max * 2, 3).map((v) => JSON.stringify(v)))].slice(0, max).map((v) => JSON.parse(v)) : draw(max, 3));
      edgeOf('maxItems', out[out.length - 1]);
    }
    else notGenerated.push(`maxItems: not generated: ${max} items is beyond the ${MAX_EDGE_ITEMS} the suite sends`);
  }
  return out;
}
