// How the values of a request are read before they are validated against the contract: query, path and
// header values arrive as strings and are read as their schema's type; multipart fields become the object
// the body schema describes. Shared by the simulator's request validation (simulator/kernel/http/
// validate-request.ts) and the validating proxy's request check (request-check.ts), so both read a request
// the same way.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './bundle.js';
import { deref } from './refs.js';

/** Query, path and header values arrive as strings: read them as the schema's type before validating. */
export function coerceValue(doc: OpenApiDocument, value: string | string[], rawSchema: Json): unknown {
  const schema = deref(doc, rawSchema);
  const type = isObject(schema) ? (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type) : undefined;
  if (type === 'array') {
    const items = isObject(schema) ? schema.items ?? {} : {};
    return (Array.isArray(value) ? value : String(value).split(',')).map((v) => coerceValue(doc, v, items));
  }
  const single = Array.isArray(value) ? value[value.length - 1] : value;
  if (type === 'integer' && /^-?\d+$/.test(single)) return Number(single);
  if (type === 'number' && single.trim() !== '' && Number.isFinite(Number(single))) return Number(single);
  if (type === 'boolean' && (single === 'true' || single === 'false')) return single === 'true';
  if (type === 'object' || type === undefined) {
    if (single.trimStart().startsWith('{')) {
      try {
        return JSON.parse(single);
      } catch {
        return single;
      }
    }
  }
  return single;
}

/** Multipart fields to the object the body schema describes: files become their names, JSON parts objects. */
export function formToObject(doc: OpenApiDocument, schema: Json, fields: Record<string, string | string[]>, files: Record<string, string>): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(fields ?? {})) {
    out[name] = coerceValue(doc, value, propertySchema(doc, schema, name) ?? {}) as Json;
  }
  for (const [name, fileName] of Object.entries(files)) out[name] = fileName;
  return out;
}

/** The schema of a property, looked up through $ref and allOf. */
export function propertySchema(doc: OpenApiDocument, raw: Json, name: string, depth = 0): Json | undefined {
  const schema = deref(doc, raw);
  if (!isObject(schema) || depth > 10) return undefined;
  if (isObject(schema.properties) && name in schema.properties) return schema.properties[name];
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found = propertySchema(doc, part, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}
