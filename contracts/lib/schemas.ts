// One ajv instance per contract document: every component schema compiled once, in strict mode, with
// formats. The simulator (request validation) and the conformance suite (response validation) share it.
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './bundle.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SCHEMA_BASE = 'https://contract.invalid/schemas/';
/** OpenAPI keywords that are annotations in a Schema Object, not JSON Schema validation keywords. */
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

export interface ContractSchemas {
  ajv: Ajv2020;
  /** Compiles (and caches) a schema taken from anywhere in the bundled document. */
  validator(schema: Json): ValidateFunction;
  /** The validator of a named component schema. */
  component(name: string): ValidateFunction;
}

/** Rewrites `#/components/schemas/X` refs to the ids under which the component schemas are registered. */
function toAjvSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toAjvSchema);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      out.$ref = SCHEMA_BASE + value.slice('#/components/schemas/'.length);
    } else {
      out[key] = toAjvSchema(value);
    }
  }
  return out;
}

function vendorKeywords(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => vendorKeywords(item, found));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      vendorKeywords(value, found);
    }
  }
  return found;
}

export interface ContractSchemaOptions {
  strict?: boolean;
  /**
   * Report every error (default), so that a 400 can name the right field; false stops at the first one, for
   * the simulator's fail-fast pass over large bodies (simulator/kernel/http/fail-fast-schemas.ts).
   */
  allErrors?: boolean;
  /**
   * Check each component schema against the JSON Schema meta-schema when it is registered (default). The
   * simulator turns it off: it serves our own contracts, which contracts.test.ts checks with it on, and
   * meta-validating some two hundred schemas per document was a tenth of its start-up (issue 15 item 2).
   */
  checkComponents?: boolean;
}

export function createContractSchemas(doc: OpenApiDocument, options: ContractSchemaOptions = {}): ContractSchemas {
  const ajv = new Ajv2020({
    strict: options.strict ?? true,
    // Error variants narrow the shared envelope with `allOf: [Envelope, { required: [...] }]`; the required
    // keys are defined in the referenced schema, which strictRequired cannot see across allOf.
    strictRequired: false,
    allowUnionTypes: true, // OpenAPI 3.1 spells nullable as type: [T, "null"]
    allErrors: options.allErrors ?? true,
    // Errors carry the failing schema: a `not: { required: [a, b] }` (fields that may not come together)
    // can then name its field in a 400 (simulator/kernel/http/validate-request.ts).
    verbose: true,
    coerceTypes: false,
  });
  addFormats(ajv);
  for (const keyword of [...OPENAPI_SCHEMA_KEYWORDS, ...vendorKeywords(doc)]) ajv.addKeyword(keyword);
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema({ ...(toAjvSchema(schema) as JsonObject), $id: SCHEMA_BASE + name }, undefined, undefined, options.checkComponents ?? true);
  }
  const compiled = new WeakMap<object, ValidateFunction>();
  return {
    ajv,
    validator(schema) {
      if (isObject(schema) && compiled.has(schema)) return compiled.get(schema)!;
      const validate = ajv.compile(toAjvSchema(schema) as JsonObject);
      if (isObject(schema)) compiled.set(schema, validate);
      return validate;
    },
    component(name) {
      const validate = ajv.getSchema(SCHEMA_BASE + name);
      if (!validate) throw new Error(`no component schema named ${name}`);
      return validate;
    },
  };
}

export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim()).join('; ');
}
