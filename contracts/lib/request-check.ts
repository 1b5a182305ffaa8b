// Checks one request against the contract, the counterpart of response-check.ts: its path, query and header
// parameters (present when required, valid against their schema once read as their type, request-values.ts),
// a credential of one of the operation's security requirements, and the body (present when required, of a
// documented content type, valid against its schema). Used by the validating proxy (proxy/), which sees
// requests an integrator's client sends. With `specOnly` the schemas are held to their spec view, as
// responses are: a cap the contract marks as the sandbox's own is not asserted of a request to another server.
import { isObject, type Json, type OpenApiDocument } from './bundle.js';
import { deref, type ContractOperation } from './operations.js';
import { coerceValue, formToObject } from './request-values.js';
import { holdingValidator, type ResponseCheckOptions } from './response-check.js';
import { formatAjvErrors, type ContractSchemas } from './schemas.js';

export interface ObservedRequest {
  method: string;
  /** The path as sent, with its query string. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (empty: none). */
  body: Buffer;
}

/** A multipart body read into its fields and its file fields (name -> client file name). */
export interface MultipartFields {
  fields: Record<string, string | string[]>;
  files: Record<string, string>;
}

/** The values of a template's `{name}` segments in a concrete path (`/api/jobs/{id}` against `/api/jobs/42`). */
export function pathParameters(template: string, pathname: string): Record<string, string> {
  const names: string[] = [];
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
  const match = pattern.exec(pathname);
  if (!match) return {};
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
}

/** Query values by name, a repeated name as an array. */
function queryValues(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(url, 'http://request.invalid').searchParams) {
    const known = out[name];
    out[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return out;
}

/** Whether the request carries a credential of one of the operation's security requirements (OpenAPI:
 *  any one requirement object, all of its schemes). An empty list, or an empty requirement, needs none. */
function securityProblem(doc: OpenApiDocument, op: ContractOperation, headers: ObservedRequest['headers']): string | undefined {
  const requirements = Array.isArray(op.operation.security) ? op.operation.security : Array.isArray(doc.security) ? doc.security : [];
  if (requirements.length === 0) return undefined;
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const carries = (name: string): boolean => {
    const scheme = deref(doc, schemes[name] ?? null);
    if (!isObject(scheme)) return false;
    if (scheme.type === 'http' && typeof scheme.scheme === 'string') return new RegExp(`^${scheme.scheme}\\s+\\S`, 'i').test(String(headers.authorization ?? ''));
    if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') return headers[scheme.name.toLowerCase()] !== undefined;
    return true; // a kind this check does not read (cookie, oauth2): not held against the request
  };
  const met = requirements.some((requirement) => isObject(requirement) && Object.keys(requirement).every(carries));
  if (met) return undefined;
  const named = requirements.filter(isObject).map((r) => Object.keys(r).join(' + ') || '(none)');
  return `no credential of the operation's security requirements (${named.join(' or ')})`;
}

/**
 * What is wrong with a request to `op`, each problem one sentence naming the part. `multipart` reads a
 * multipart body (the caller owns the parser; undefined: not readable).
 */
export function requestProblems(doc: OpenApiDocument, schemas: ContractSchemas, op: ContractOperation, request: ObservedRequest, options: ResponseCheckOptions & { multipart?: MultipartFields } = {}): string[] {
  const problems: string[] = [];
  const pathname = request.url.split('?')[0];
  const sources = { path: pathParameters(op.path, pathname), query: queryValues(request.url), header: request.headers };
  for (const raw of op.parameters) {
    const param = deref(doc, raw);
    if (!isObject(param) || typeof param.name !== 'string' || !(param.in === 'path' || param.in === 'query' || param.in === 'header')) continue;
    const value = sources[param.in][param.in === 'header' ? param.name.toLowerCase() : param.name];
    if (value === undefined) {
      if (param.required === true) problems.push(`${param.in} parameter ${param.name} is required`);
      continue;
    }
    const validate = holdingValidator(doc, schemas, (param.schema ?? {}) as Json, options);
    if (!validate(coerceValue(doc, value, (param.schema ?? {}) as Json))) problems.push(`${param.in} parameter ${param.name}: ${formatAjvErrors(validate.errors)}`);
  }
  const security = securityProblem(doc, op, request.headers);
  if (security) problems.push(security);

  const requestBody = deref(doc, op.operation.requestBody ?? null);
  const content = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content : undefined;
  if (request.body.length === 0) {
    if (isObject(requestBody) && requestBody.required === true) problems.push('a request body is required');
    return problems;
  }
  if (!content) return [...problems, `a body was sent, and ${op.operationId} documents none`];
  const contentType = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const media = content[contentType];
  if (!isObject(media)) return [...problems, `content type ${contentType || '(none)'} is not documented for the request (documented: ${Object.keys(content).join(', ')})`];
  if (!media.schema) return problems;
  let body: unknown;
  if (contentType === 'multipart/form-data') {
    if (!options.multipart) return [...problems, 'the multipart body could not be read'];
    body = formToObject(doc, media.schema as Json, options.multipart.fields, options.multipart.files);
  } else if (contentType.endsWith('json')) {
    try {
      body = JSON.parse(request.body.toString('utf8'));
    } catch (error) {
      return [...problems, `the body is not JSON: ${(error as Error).message}`];
    }
  } else {
    return problems; // a media type without a structure this check reads (text/csv): its type is documented
  }
  const validate = holdingValidator(doc, schemas, media.schema as Json, options);
  if (!validate(body)) problems.push(`body does not match the request schema: ${formatAjvErrors(validate.errors)}`);
  return problems;
}
