// Request validation from the contract: path, query and header parameters and the body of each operation
// are checked with validators compiled on an operation's first request (compiling all of them at start-up
// took most of the start-up's validator time, issue 15), then kept. A failure is 400 INVALID_REQUEST naming the field.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isObject, type Json, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { deref, type ContractOperation } from '../../../contracts/lib/operations.js';
import { coerceValue, formToObject } from '../../../contracts/lib/request-values.js';
import type { ContractSchemas } from '../../../contracts/lib/schemas.js';
import { NO_DEFECTS, type Defects } from '../defects.js';
import { KERNEL_HOOKS } from '../kernel.hooks.js';
import { ApiError, invalidRequest } from '../errors.js';
import { failFastSchemasOf, LARGE_BODY_VALUES } from './fail-fast-schemas.js';
import { bodyShape, MAX_BODY_DEPTH } from './json-depth.js';
import { inWords, listed, patternWordsOf, type PatternWords } from './validation-words.js';

interface RawRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or multipart fields (strings or string arrays). */
  body: unknown;
  /** Multipart file fields present, with their client file names. */
  fileFields: Record<string, string>;
  contentType: string | undefined;
  /** Whether the request carried body bytes at all (a JSON `{}` is a body; no bytes is none). */
  hasBody: boolean;
}

interface ValidRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

interface ParameterRule {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  validator: () => ValidateFunction;
}

/** A validator compiled on first use (ContractSchemas.validator caches it per schema). */
const lazily = (schemas: ContractSchemas, schema: Json): (() => ValidateFunction) => {
  let compiled: ValidateFunction | undefined;
  return () => (compiled ??= schemas.validator(schema));
};

export type RequestValidator = (raw: RawRequest) => ValidRequest;

/** A parameter schema's `maximum` (after a $ref), for validation.limit-max-refused. */
const maximumOf = (doc: OpenApiDocument, schema: Json): unknown => {
  const resolved = deref(doc, schema);
  return isObject(resolved) ? resolved.maximum : undefined;
};

/** The length caps a deployment may set otherwise where the contract marks them as the sandbox's (x-sandbox-defined-bounds). */
const CAPS = new Set(['maxLength', 'maxItems']);

/**
 * Whether every error is a sandbox-defined length cap exceeded by no more than `factor` times the cap
 * (ajv's verbose errors carry the schema and the value): then a deployment with caps raised that far
 * takes the value. Any other error, or a cap the contract does not mark as ours, keeps the refusal.
 */
function onlyRaisedCaps(errors: ErrorObject[] | null | undefined, factor: number): boolean {
  if (factor <= 1 || !errors?.length) return false;
  return errors.every((e) => {
    const ours = (e.parentSchema as Record<string, unknown> | undefined)?.['x-sandbox-defined-bounds'];
    const limit = (e.params as { limit?: unknown }).limit;
    const length = typeof e.data === 'string' ? [...e.data].length : Array.isArray(e.data) ? e.data.length : undefined;
    return CAPS.has(e.keyword) && Array.isArray(ours) && ours.includes(e.keyword) && typeof limit === 'number' && length !== undefined && length <= limit * factor;
  });
}

/** Keywords of a bound (validation.lenient-bounds ignores only these). */
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/** Each document's pattern words, read once (every operation's validator shares them). */
const wordsOfDocument = new WeakMap<OpenApiDocument, PatternWords>();
const patternWords = (doc: OpenApiDocument): PatternWords => {
  let words = wordsOfDocument.get(doc);
  if (!words) wordsOfDocument.set(doc, (words = patternWordsOf(doc)));
  return words;
};

export function compileRequestValidator(doc: OpenApiDocument, op: ContractOperation, schemas: ContractSchemas, options: { defects?: Defects } = {}): RequestValidator {
  const defects = options.defects ?? NO_DEFECTS;
  const words = patternWords(doc);
  const parameters: ParameterRule[] = [];
  for (const raw of op.parameters) {
    const param = deref(doc, raw);
    if (!isObject(param) || typeof param.name !== 'string' || !['path', 'query', 'header'].includes(String(param.in))) continue;
    const schema = param.schema ?? {};
    parameters.push({ name: param.name, in: param.in as ParameterRule['in'], required: param.required === true, schema, validator: lazily(schemas, schema) });
  }
  const requestBody = deref(doc, op.operation.requestBody ?? null);
  const content = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content : {};
  const bodyRequired = isObject(requestBody) && requestBody.required === true;
  const bodies = Object.entries(content).map(([mediaType, media]) => {
    const schema = isObject(media) ? media.schema ?? {} : {};
    return { mediaType, schema, validator: lazily(schemas, schema) };
  });

  return (raw) => {
    const valid: ValidRequest = { params: {}, query: {}, headers: {}, body: undefined };
    for (const rule of parameters) {
      const source = rule.in === 'path' ? raw.params : rule.in === 'query' ? raw.query : raw.headers;
      const value = source[rule.in === 'header' ? rule.name.toLowerCase() : rule.name];
      // An empty value (`?cursor=`) is a value, not an absence: OpenAPI's `allowEmptyValue` is false unless a
      // parameter says otherwise, so it is validated like any other (a `minLength: 1` cursor is 400).
      // defect injection (SIM_DEFECTS): validation.empty-query-as-absent reads `?name=` as no parameter.
      const emptyAsAbsent = value === '' && rule.in === 'query' && defects.has('validation.empty-query-as-absent');
      if (value === undefined || emptyAsAbsent) {
        if (rule.required) throw invalidRequest(`${rule.in} parameter ${rule.name} is required`, rule.name);
        continue;
      }
      const coerced = coerceValue(doc, value, rule.schema);
      const validate = rule.validator();
      if (!validate(coerced) && !onlyRaisedCaps(validate.errors, defects.at(KERNEL_HOOKS.sandboxCapFactor, 1))) {
        // defect injection (SIM_DEFECTS): validation.lenient-bounds serves an out-of-range query limit/offset.
        const lenient = defects.has('validation.lenient-bounds') && rule.in === 'query' && (rule.name === 'limit' || rule.name === 'offset');
        if (!(lenient && (validate.errors ?? []).every((e) => BOUNDS.has(e.keyword)))) throw invalidRequest(`${rule.name} ${describe(validate.errors, words)}`, rule.name);
      }
      // defect injection (SIM_DEFECTS): validation.limit-max-refused reads a query limit's maximum as
      // exclusive (an off-by-one bound): the largest page the contract allows is 400.
      if (defects.has('validation.limit-max-refused') && rule.in === 'query' && rule.name === 'limit' && coerced === maximumOf(doc, rule.schema)) {
        throw invalidRequest(`limit must be below ${String(coerced)}`, rule.name);
      }
      const target = rule.in === 'path' ? valid.params : rule.in === 'query' ? valid.query : valid.headers;
      target[rule.in === 'header' ? rule.name.toLowerCase() : rule.name] = coerced as never;
    }
    if (bodies.length === 0) return valid;
    if (!raw.hasBody) {
      if (bodyRequired) throw invalidRequest('a request body is required', 'body');
      return valid;
    }
    const multipart = bodies.find((b) => b.mediaType === 'multipart/form-data');
    const isMultipart = multipart !== undefined && (raw.contentType ?? '').startsWith('multipart/form-data');
    const chosen = isMultipart ? multipart : bodies.find((b) => b.mediaType === 'application/json') ?? bodies[0];
    if (multipart && !isMultipart && chosen === multipart) {
      throw new ApiError('INVALID_FILE_FORMAT', 'this endpoint takes multipart/form-data', { field: 'file' });
    }
    const body = isMultipart ? formToObject(doc, chosen.schema, raw.body as Record<string, string | string[]>, raw.fileFields) : raw.body;
    // Before anything recursive reads it (ajv, the idempotency fingerprint): json-depth.ts.
    const shape = bodyShape(body, MAX_BODY_DEPTH);
    if (shape.tooDeep) throw invalidRequest(`the body nests deeper than ${MAX_BODY_DEPTH} levels`, 'body');
    // A large body is checked fail-fast first (fail-fast-schemas.ts): collecting every error is quadratic.
    const validate = shape.values > LARGE_BODY_VALUES ? failFastSchemasOf(doc).validator(chosen.schema) : chosen.validator();
    // A large body's fail-fast errors are not all its errors: its caps are never raised.
    if (!validate(body) && !(shape.values <= LARGE_BODY_VALUES && onlyRaisedCaps(validate.errors, defects.at(KERNEL_HOOKS.sandboxCapFactor, 1)))) {
      const field = fieldOf(validate.errors);
      throw invalidRequest(`${field ?? 'the body'} ${describe(validate.errors, words)}`, field ?? 'body');
    }
    valid.body = body;
    return valid;
  };
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not', 'then', 'else']);

function primaryError(errors: ErrorObject[] | null | undefined): ErrorObject | undefined {
  const list = errors ?? [];
  return list.find((e) => !COMBINATORS.has(e.keyword)) ?? list[0];
}

/** The request field an ajv error is about: `confirmation.source`, `findingIds[0]`, or the missing key. */
function fieldOf(errors: ErrorObject[] | null | undefined): string | undefined {
  const error = primaryError(errors);
  if (!error) return undefined;
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === 'dependentRequired') segments.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
  // `not: { required: [provider, quantity] }` (spec 4.6 rule 1): fields that may not come together; the
  // first is the one to drop.
  const forbidden = error.keyword === 'not' ? (error.schema as { required?: unknown } | undefined)?.required : undefined;
  if (Array.isArray(forbidden) && typeof forbidden[0] === 'string') segments.push(forbidden[0]);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '') || undefined;
}

/** The failed rule in words (validation-words.ts); a `not: { required }` of spec 4.6 rule 1 names the fields. */
function describe(errors: ErrorObject[] | null | undefined, words: PatternWords): string {
  const error = primaryError(errors);
  if (!error) return 'is invalid';
  const forbidden = error.keyword === 'not' ? (error.schema as { required?: unknown } | undefined)?.required : undefined;
  if (Array.isArray(forbidden) && forbidden.length > 1) return `may not be sent together with ${listed(forbidden.slice(1))}`;
  return inWords(error, words);
}
