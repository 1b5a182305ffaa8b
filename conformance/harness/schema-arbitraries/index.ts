// Values generated from the contract's JSON Schemas (OpenAPI 3.1 / 2020-12, as they appear in the bundled
// document): `validValue` gives a fast-check arbitrary of values the schema accepts, `invalidVariants` a list
// of named mutations of a valid value, each breaking exactly one rule of the schema (so a server must refuse
// it). Both cover the subset of JSON Schema the contract uses: type (also arrays of types with "null"), enum,
// const, string lengths / pattern / format, numeric bounds, array items / sizes / uniqueness, object
// properties / required / additionalProperties / propertyNames / dependentRequired, allOf, anyOf, oneOf,
// if / then / else and `not: { required: [...] }`. Refs (`#/components/...`) are followed with `deref`.
//
//   resolve.ts         flattening (refs, allOf), oneOf / anyOf branches, type helpers, the shared ajv
//   object-shape.ts    what an object schema asks of its keys, and keeping a set of keys consistent with it
//   valid.ts           validValue, sampleValid
//   mutation-kinds.ts  MutationKind, MUTATION_PRIORITY and the kinds' report names
//   mutations.ts       the mutations of a value, schema keyword by keyword
//   invalid.ts         invalidVariants: the mutations the schema refuses, named
export { invalidVariants } from './invalid.js';
export { type MutationKind } from './mutation-kinds.js';
export { flatten } from './resolve.js';
export { validValue } from './valid.js';
