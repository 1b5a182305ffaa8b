// Checks one response against the contract: the status is documented for the operation, the content type
// is a documented one, documented required headers are present, and the body is valid against the schema.
// Shared by the simulator's tests (every call) and the conformance suite. With `specOnly` (the suite outside
// its simulator profile) the body is checked against the spec view of the schema (sandbox-defined.ts): what
// the contract chose where the spec says "not shown" is not asserted of another deployment.
import { isObject, type Json, type OpenApiDocument } from './bundle.js';
import { deref, type ContractOperation } from './operations.js';
import { specView } from './sandbox-defined.js';
import { createContractSchemas, formatAjvErrors, type ContractSchemas } from './schemas.js';

export interface ResponseCheckOptions {
  /** Hold the body only to what the spec fixes (sandbox-defined parts not asserted). Default false. */
  specOnly?: boolean;
}

/** The ajv of a document's spec view, built once per document. */
const specViews = new WeakMap<OpenApiDocument, ContractSchemas>();
export function specViewSchemas(doc: OpenApiDocument): ContractSchemas {
  let schemas = specViews.get(doc);
  if (!schemas) {
    schemas = createContractSchemas(specView(doc) as OpenApiDocument, { checkComponents: false });
    specViews.set(doc, schemas);
  }
  return schemas;
}

export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text of a non-JSON body. */
  body: unknown;
}

/** The spec view of a response schema, made once per schema object (so its validator is compiled once). */
const viewed = new WeakMap<object, Json>();
function viewOf(schema: Json): Json {
  if (!isObject(schema)) return specView(schema);
  if (!viewed.has(schema)) viewed.set(schema, specView(schema));
  return viewed.get(schema)!;
}

/** The validator a schema is held to: with `specOnly` its spec view (sandbox-defined parts not asserted),
 *  else all of it. Responses here, requests in request-check.ts. */
export function holdingValidator(doc: OpenApiDocument, schemas: ContractSchemas, schema: Json, options: ResponseCheckOptions = {}) {
  return options.specOnly ? specViewSchemas(doc).validator(viewOf(schema)) : schemas.validator(schema);
}

export function responseProblems(doc: OpenApiDocument, schemas: ContractSchemas, op: ContractOperation, response: ObservedResponse, options: ResponseCheckOptions = {}): string[] {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const declared = deref(doc, responses[String(response.status)] ?? responses[`${String(response.status)[0]}XX`] ?? responses.default ?? null);
  if (!isObject(declared)) return [`status ${response.status} is not documented for ${op.operationId} (documented: ${Object.keys(responses).join(', ')})`];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(isObject(declared.headers) ? declared.headers : {})) {
    const header = deref(doc, raw);
    const value = response.headers[name.toLowerCase()];
    if (isObject(header) && header.required === true && value === undefined) problems.push(`required header ${name} is missing`);
    if (isObject(header) && header.schema && value !== undefined) {
      const schema = deref(doc, header.schema);
      const typed = isObject(schema) && (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(String(value)) ? Number(value) : value;
      const validate = schemas.validator(header.schema);
      if (!validate(typed)) problems.push(`header ${name}: ${formatAjvErrors(validate.errors)}`);
    }
  }
  const content = isObject(declared.content) ? declared.content : undefined;
  if (!content) return problems;
  const contentType = String(response.headers['content-type'] ?? '').split(';')[0].trim();
  const media = content[contentType];
  if (!isObject(media)) return [...problems, `content type ${contentType || '(none)'} is not documented for ${response.status} (documented: ${Object.keys(content).join(', ')})`];
  if (media.schema) {
    const validate = holdingValidator(doc, schemas, media.schema as Json, options);
    if (!validate(response.body)) problems.push(`body does not match the ${response.status} schema: ${formatAjvErrors(validate.errors)}`);
  }
  return problems;
}
