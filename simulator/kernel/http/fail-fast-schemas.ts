// Fail-fast validators for large request bodies. The contract's validators (contracts/lib/schemas.ts) report
// every error (`allErrors`), so a 400 can name the right field; but ajv gathers the errors of items checked
// through a `$ref` by concatenating arrays, which is quadratic in the number of failing items: 20,000 bad
// items of a `classify/batch` body took about 1 s, 100,000 about 50 s of a blocked event loop (issue 15).
// A large body is therefore checked first by a validator that stops at its first error: valid bodies pass
// as before (validity does not depend on `allErrors`), invalid ones are refused in linear time.
// Same document, formats and vocabulary as contracts/lib/schemas.ts; only `allErrors` differs.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { toAjvSchema } from '../../../contracts/lib/schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SCHEMA_BASE = 'https://contract.invalid/schemas/';
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/** Bodies with more values than this (arrays, objects and scalars counted) are validated fail-fast first. */
export const LARGE_BODY_VALUES = 2_000;

/** The `x-` keywords used anywhere in the document (annotations to ajv), found without recursion. */
function vendorKeywords(doc: Json): string[] {
  const found = new Set<string>();
  const pending: Json[] = [doc];
  while (pending.length) {
    const node = pending.pop()!;
    if (Array.isArray(node)) pending.push(...node);
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        pending.push(value);
      }
    }
  }
  return [...found];
}

export interface FailFastSchemas {
  /** A validator of `schema` that stops at the first error; compiled on first use, then cached. */
  validator(schema: Json): ValidateFunction;
}

export function createFailFastSchemas(doc: OpenApiDocument): FailFastSchemas {
  let ajv: Ajv2020 | undefined;
  const compiled = new WeakMap<object, ValidateFunction>();
  // Built on the first large body, so start-up does not pay for a second compilation of the contract.
  const instance = () => {
    if (ajv) return ajv;
    ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: false, verbose: true, coerceTypes: false });
    addFormats(ajv);
    for (const keyword of [...OPENAPI_SCHEMA_KEYWORDS, ...vendorKeywords(doc)]) ajv.addKeyword(keyword);
    const components = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    for (const [name, schema] of Object.entries(components)) ajv.addSchema({ ...(toAjvSchema(schema) as JsonObject), $id: SCHEMA_BASE + name });
    return ajv;
  };
  return {
    validator(schema) {
      const cached = isObject(schema) ? compiled.get(schema) : undefined;
      if (cached) return cached;
      const validate = instance().compile(toAjvSchema(schema) as JsonObject);
      if (isObject(schema)) compiled.set(schema, validate);
      return validate;
    },
  };
}

const perDocument = new WeakMap<OpenApiDocument, FailFastSchemas>();

/** One set of fail-fast validators per contract document. */
export function failFastSchemasOf(doc: OpenApiDocument): FailFastSchemas {
  if (!perDocument.has(doc)) perDocument.set(doc, createFailFastSchemas(doc));
  return perDocument.get(doc)!;
}
