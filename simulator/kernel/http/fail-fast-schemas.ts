// Fail-fast validators for large request bodies. The contract's validators (contracts/lib/schemas.ts) report
// every error (`allErrors`), so a 400 can name the right field; but ajv gathers the errors of items checked
// through a `$ref` by concatenating arrays, which is quadratic in the number of failing items: 20,000 bad
// items of a `classify/batch` body took about 1 s, 100,000 about 50 s of a blocked event loop (issue 15).
// A large body is therefore checked first by a validator that stops at its first error: valid bodies pass
// as before (validity does not depend on `allErrors`), invalid ones are refused in linear time.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Json, OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { createContractSchemas, type ContractSchemas } from '../../../contracts/lib/schemas.js';

/** Bodies with more values than this (arrays, objects and scalars counted) are validated fail-fast first. */
export const LARGE_BODY_VALUES = 2_000;

export interface FailFastSchemas {
  /** A validator of `schema` that stops at the first error; compiled on first use, then cached. */
  validator(schema: Json): ValidateFunction;
}

/** The contract's own schema set with `allErrors: false`, built on the first large body (not at start-up). */
export function createFailFastSchemas(doc: OpenApiDocument): FailFastSchemas {
  let schemas: ContractSchemas | undefined;
  return {
    validator(schema) {
      schemas ??= createContractSchemas(doc, { allErrors: false });
      return schemas.validator(schema);
    },
  };
}

const perDocument = new WeakMap<OpenApiDocument, FailFastSchemas>();

/** One set of fail-fast validators per contract document. */
export function failFastSchemasOf(doc: OpenApiDocument): FailFastSchemas {
  if (!perDocument.has(doc)) perDocument.set(doc, createFailFastSchemas(doc));
  return perDocument.get(doc)!;
}
