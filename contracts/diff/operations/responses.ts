// Responses: statuses (a code matched by its range too), media types, headers, and the error codes each error
// response allows.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../lib/bundle.js';
import { deref } from '../../lib/refs.js';
import type { DiffContext } from '../types.js';
import { reportRemoval } from './deprecation-notices.js';
import { paramSchema } from './parameters.js';
import { mediaTypes } from './request-body.js';
import { schemaDiff } from './schema-handoff.js';

const isSuccess = (status: string) => /^[123]/.test(status);

function responseMap(doc: OpenApiDocument, responses: Json | undefined): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  if (!isObject(responses)) return found;
  for (const [status, raw] of Object.entries(responses)) {
    const response = deref(doc, raw);
    if (isObject(response)) found.set(status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(), response);
  }
  return found;
}

/** The head response that answers a base status: the same code, or its range (`2XX`), and the reverse. */
function counterpart(map: Map<string, JsonObject>, status: string): JsonObject | undefined {
  return map.get(status) ?? (/^\d{3}$/.test(status) ? map.get(`${status[0]}XX`) : undefined);
}

export function diffResponses(ctx: DiffContext, base: JsonObject, head: JsonObject, operation: string): void {
  const baseResponses = responseMap(ctx.base, base.responses);
  const headResponses = responseMap(ctx.head, head.responses);
  for (const [status, response] of baseResponses) {
    const other = counterpart(headResponses, status);
    if (other) {
      diffResponse(ctx, status, response, other, operation);
      continue;
    }
    if (isSuccess(status)) reportRemoval(ctx, response, 'response-success-status-removed', { operation, location: `response ${status}`, message: `status ${status} is no longer returned` });
    else ctx.emit('response-error-status-removed', { operation, location: `response ${status}`, message: `error status ${status} is no longer documented` });
  }
  for (const status of headResponses.keys()) {
    if (counterpart(baseResponses, status)) continue;
    if (isSuccess(status)) ctx.emit('response-success-status-added', { operation, location: `response ${status}`, message: `new success status ${status}: clients may not handle it` });
    else ctx.emit('response-error-status-added', { operation, location: `response ${status}`, message: `new error status ${status}: clients may not expect it` });
  }
}

function diffResponse(ctx: DiffContext, status: string, base: JsonObject, head: JsonObject, operation: string): void {
  const where = `response ${status}`;
  const baseMedia = mediaTypes(base.content);
  const headMedia = mediaTypes(head.content);
  for (const [type, media] of baseMedia) {
    if (!headMedia.has(type)) reportRemoval(ctx, media, 'response-media-type-removed', { operation, location: `${where} ${type}`, message: `status ${status} is no longer sent as ${type}` });
  }
  for (const type of headMedia.keys()) {
    if (!baseMedia.has(type)) ctx.emit('response-media-type-added', { operation, location: `${where} ${type}`, message: `status ${status} may now be sent as ${type}` });
  }
  for (const [type, media] of baseMedia) {
    const other = headMedia.get(type);
    if (!other || media.schema === undefined || other.schema === undefined) continue;
    if (!isSuccess(status)) diffErrorCodes(ctx, media.schema, other.schema, operation, `${where} ${type} .code`, status);
    schemaDiff(ctx, media.schema, other.schema, 'response', operation, `${where} ${type}`);
  }
  diffResponseHeaders(ctx, status, base, head, operation);
}

function headerMap(doc: OpenApiDocument, headers: Json | undefined): Map<string, { name: string; header: JsonObject }> {
  const found = new Map<string, { name: string; header: JsonObject }>();
  if (!isObject(headers)) return found;
  for (const [name, raw] of Object.entries(headers)) {
    const header = deref(doc, raw);
    // OpenAPI: a Content-Type header definition is ignored (the media type says it).
    if (isObject(header) && name.toLowerCase() !== 'content-type') found.set(name.toLowerCase(), { name, header });
  }
  return found;
}

function diffResponseHeaders(ctx: DiffContext, status: string, base: JsonObject, head: JsonObject, operation: string): void {
  const baseHeaders = headerMap(ctx.base, base.headers);
  const headHeaders = headerMap(ctx.head, head.headers);
  for (const [key, { name, header }] of baseHeaders) {
    const location = `response ${status} header ${name}`;
    const other = headHeaders.get(key);
    const wasRequired = header.required === true;
    if (!other) {
      reportRemoval(ctx, header, wasRequired ? 'response-header-removed' : 'response-optional-header-removed', { operation, location, message: `${wasRequired ? 'required' : 'optional'} header ${name} is no longer sent with ${status}` });
      continue;
    }
    if (wasRequired && other.header.required !== true) ctx.emit('response-header-made-optional', { operation, location, message: `header ${name} of ${status} is no longer always sent`, before: true, after: false });
    const before = paramSchema(header);
    const after = paramSchema(other.header);
    if (before !== undefined && after !== undefined) schemaDiff(ctx, before, after, 'response', operation, `response ${status} header ${other.name}`);
  }
  for (const [key, { name }] of headHeaders) {
    if (!baseHeaders.has(key)) ctx.emit('response-header-added', { operation, location: `response ${status} header ${name}`, message: `status ${status} now sends header ${name}` });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Error codes: each error response narrows the envelope's `code` with an enum, usually through allOf.

/** The codes a schema allows, or undefined when any string is allowed. */
function codeSet(doc: OpenApiDocument, node: Json | undefined, depth = 0): Set<string> | undefined {
  const schema = deref(doc, node ?? null);
  if (!isObject(schema) || depth > 16) return undefined;
  let result: Set<string> | undefined;
  const intersect = (codes: Set<string> | undefined) => {
    if (!codes) return;
    result = result ? new Set([...result].filter((code) => codes.has(code))) : new Set(codes);
  };
  if (isObject(schema.properties)) intersect(valueSet(doc, schema.properties.code, depth + 1));
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) intersect(codeSet(doc, branch, depth + 1));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const sets = branches.map((branch) => codeSet(doc, branch, depth + 1));
    if (sets.every((set): set is Set<string> => set !== undefined)) intersect(new Set(sets.flatMap((set) => [...set])));
  }
  return result;
}

/** The values an enum, a const (or an allOf of them) allows; undefined when not restricted. */
function valueSet(doc: OpenApiDocument, node: Json | undefined, depth: number): Set<string> | undefined {
  const schema = deref(doc, node ?? null);
  if (!isObject(schema) || depth > 16) return undefined;
  let result: Set<string> | undefined;
  const intersect = (values: Set<string> | undefined) => {
    if (!values) return;
    result = result ? new Set([...result].filter((value) => values.has(value))) : new Set(values);
  };
  if (Array.isArray(schema.enum)) intersect(new Set(schema.enum.map(String)));
  if (schema.const !== undefined) intersect(new Set([String(schema.const)]));
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) intersect(valueSet(doc, branch, depth + 1));
  return result;
}

function diffErrorCodes(ctx: DiffContext, base: Json, head: Json, operation: string, location: string, status: string): void {
  const before = codeSet(ctx.base, base);
  const after = codeSet(ctx.head, head);
  if (!before) return; // any code was allowed: restricting it is no new code
  if (!after) {
    ctx.emit('error-code-added', { operation, location, message: `status ${status} no longer restricts its code (was ${[...before].join(', ')})`, before: [...before], after: null });
    return;
  }
  const added = [...after].filter((code) => !before.has(code));
  const removed = [...before].filter((code) => !after.has(code));
  if (added.length) ctx.emit('error-code-added', { operation, location, message: `status ${status} may now carry code ${added.join(', ')}`, before: [...before], after: [...after] });
  if (removed.length) ctx.emit('error-code-removed', { operation, location, message: `status ${status} no longer carries code ${removed.join(', ')}`, before: [...before], after: [...after] });
}
