// Builds a valid request for an operation from the contract's own examples: path parameters from their
// examples (or a value of their format), the request body from its example, credentials of the kind the
// operation's security asks for. Used to exercise mocks and servers with the contract's happy path.
import { randomUUID } from 'node:crypto';
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './bundle.js';
import { deref, type ContractOperation } from './operations.js';

export interface ExampleRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

export interface Credentials {
  bearer?: string;
  apiKey?: string;
  orgId?: string;
}

function sampleForSchema(doc: OpenApiDocument, raw: Json): string {
  const schema = deref(doc, raw);
  if (!isObject(schema)) return 'sample';
  if ('example' in schema) return String(schema.example);
  if (Array.isArray(schema.enum) && schema.enum.length) return String(schema.enum[0]);
  if (schema.format === 'uuid') return randomUUID();
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  return 'SAMPLE-1';
}

/** The example of a media type: its own example, the first of its examples, or its schema's example. */
export function mediaExample(doc: OpenApiDocument, media: Json): Json | undefined {
  if (!isObject(media)) return undefined;
  if ('example' in media) return media.example;
  if (isObject(media.examples)) {
    const first = deref(doc, Object.values(media.examples)[0] ?? null);
    if (isObject(first) && 'value' in first) return first.value;
  }
  const schema = deref(doc, media.schema ?? null);
  return isObject(schema) && 'example' in schema ? schema.example : undefined;
}

function securityHeaders(doc: OpenApiDocument, op: ContractOperation, credentials: Credentials): Record<string, string> {
  const requirements = (Array.isArray(op.operation.security) ? op.operation.security : doc.security) as Json;
  const first = Array.isArray(requirements) && isObject(requirements[0]) ? Object.keys(requirements[0]) : [];
  const schemes = isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const headers: Record<string, string> = {};
  for (const name of first) {
    const scheme = schemes[name];
    if (!isObject(scheme)) continue;
    if (scheme.type === 'http' && scheme.scheme === 'bearer') headers.authorization = `Bearer ${credentials.bearer ?? 'sandbox-token'}`;
    if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') {
      headers[scheme.name.toLowerCase()] = scheme.name.toLowerCase() === 'x-org-id' ? credentials.orgId ?? 'org-sample' : credentials.apiKey ?? 'sandbox-key';
    }
  }
  return headers;
}

export function buildExampleRequest(doc: OpenApiDocument, op: ContractOperation, credentials: Credentials = {}): ExampleRequest {
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = securityHeaders(doc, op, credentials);
  for (const raw of op.parameters) {
    const param = deref(doc, raw);
    if (!isObject(param) || typeof param.name !== 'string') continue;
    const value = 'example' in param ? String(param.example) : sampleForSchema(doc, param.schema ?? null);
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(value));
    else if (param.in === 'query' && param.required) query.set(param.name, value);
  }
  const request: ExampleRequest = { method: op.method.toUpperCase(), path: query.size ? `${path}?${query}` : path, headers };
  const body = deref(doc, op.operation.requestBody ?? null);
  if (isObject(body) && isObject(body.content)) {
    const [mediaType, media] = Object.entries(body.content)[0] ?? [];
    const example = mediaExample(doc, media ?? null);
    if (mediaType === 'multipart/form-data' && isObject(example)) {
      request.body = toFormData(example);
    } else if (example !== undefined) {
      request.headers['content-type'] = mediaType ?? 'application/json';
      request.body = JSON.stringify(example);
    }
  }
  return request;
}

/** Multipart body from an example object: `file` becomes a small CSV file, objects become JSON parts. */
function toFormData(example: JsonObject): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(example)) {
    if (name === 'file') {
      const fileName = typeof value === 'string' && /\.[a-z]+$/i.test(value) ? value : 'sample.csv';
      form.append('file', new Blob(['sku,name,hsCode\nSKU-1,Sample,6109.10\n'], { type: 'text/csv' }), fileName);
    } else if (Array.isArray(value)) {
      for (const item of value) form.append(name, String(item));
    } else if (isObject(value)) {
      form.append(name, new Blob([JSON.stringify(value)], { type: 'application/json' }));
    } else if (value !== null) {
      form.append(name, String(value));
    }
  }
  return form;
}
