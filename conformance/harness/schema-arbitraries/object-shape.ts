// What an object schema asks of its keys, as both generators need it: the properties to generate, the
// required ones, dependentRequired, forbidden combinations (`not: { required: [...] }`) and if / then / else;
// `settle` makes a set of present keys consistent with all of them.
import { isObject, type Json, type JsonObject } from '../../../contracts/lib/bundle.js';
import { flatten, FORBIDDEN, requiredOnly, type Gen } from './resolve.js';

export interface ObjectShape {
  properties: Record<string, Json>;
  required: Set<string>;
  dependentRequired: Record<string, string[]>;
  forbiddenTogether: string[][];
  conditions: Array<{ if: Json; then?: string[]; else?: string[] }>;
}

export function shapeOf(gen: Gen, schema: JsonObject): ObjectShape {
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
export function settle(gen: Gen, shape: ObjectShape, values: Record<string, unknown>, present: Set<string>, keep?: string): Set<string> {
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
export function conditionHolds(gen: Gen, condition: Json, value: unknown): boolean {
  if (!isObject(condition)) return condition !== false;
  if (!conditionValidators.has(condition)) {
    const validate = gen.schemas.validator({ type: 'object', allOf: [condition] } as Json);
    conditionValidators.set(condition, (v) => validate(v) as boolean);
  }
  return conditionValidators.get(condition)!(value);
}
