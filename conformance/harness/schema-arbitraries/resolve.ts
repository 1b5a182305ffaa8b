// Resolving the contract's JSON Schemas (OpenAPI 3.1 / 2020-12, as they appear in the bundled document) for
// the generators: refs followed (`#/components/...`, with `deref`), `$ref` siblings and allOf merged into one
// schema object, oneOf / anyOf spread into branches, and the small type helpers both generators share.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { deref } from '../../../contracts/lib/operations.js';
import { createContractSchemas, type ContractSchemas } from '../../../contracts/lib/schemas.js';

export const MAX_DEPTH = 8;
/** Keywords that combine subschemas: `flatten` merges allOf; these stay for the generators to handle. */
const ALTERNATIVES = ['oneOf', 'anyOf'] as const;

const schemaCache = new WeakMap<OpenApiDocument, ContractSchemas>();

/** The contract's ajv (compiled once per document), unless the caller brings its own. */
export function contractSchemasOf(doc: OpenApiDocument, schemas?: ContractSchemas): ContractSchemas {
  if (schemas) return schemas;
  if (!schemaCache.has(doc)) schemaCache.set(doc, createContractSchemas(doc));
  return schemaCache.get(doc)!;
}

export interface GenerateOptions {
  /** The contract's ajv, to evaluate `if` conditions (default: one compiled for `doc`). */
  schemas?: ContractSchemas;
  /** Generate deprecated properties too (legacy aliases). Default false: a client sends canonical fields. */
  deprecated?: boolean;
}

/** What every generator carries: the document, its ajv, and whether deprecated properties are generated. */
export interface Gen {
  doc: OpenApiDocument;
  schemas: ContractSchemas;
  deprecated: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Flattening: refs followed, `$ref` siblings and allOf merged into one schema object.

/** Keys listed here are forbidden in generated objects (the other branches of a required-only oneOf). */
export const FORBIDDEN = 'x-generator-forbidden';

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

export const without = (schema: JsonObject, ...keys: string[]): JsonObject => {
  const out = { ...schema };
  for (const key of keys) delete out[key];
  return out;
};

/** A oneOf/anyOf branch that only names required keys (`{ required: [classificationId] }`). */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', '$comment']);
export const requiredOnly = (branch: JsonObject): boolean => Object.keys(branch).every((k) => k === 'required' || ANNOTATIONS.has(k)) && Array.isArray(branch.required);

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

/** The schema of one declared property of a flattened object schema, `{}` when it is not declared. */
export function propertySchemaOf(schema: JsonObject, key: string): Json {
  return isObject(schema.properties) && key in schema.properties ? schema.properties[key] : {};
}

// ---------------------------------------------------------------------------------------------------------
// Types of schemas and values.

/** The types an untyped schema's keywords imply. */
export function inferTypes(schema: JsonObject): string[] {
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

/** Length in code points, as JSON Schema counts minLength / maxLength. */
export const codePoints = (value: string) => [...value].length;
