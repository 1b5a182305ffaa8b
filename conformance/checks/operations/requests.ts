// Requests to an operation: the prepared example (the contract's example values, or values generated with
// the seed), a request as path / query / headers / body, its URL and multipart form, and how a server reads
// text values back as the schema's types.
import { isObject, type Json, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { buildExampleRequest } from '../../../contracts/lib/example-request.js';
import type { ContractOperation } from '../../../contracts/lib/operations.js';
import type { LoadedContract } from '../../harness/contract.js';
import { flatten, propertySchemaOf, typesOf } from '../../harness/schema-arbitraries/resolve.js';
import { sampleValid } from '../../harness/schema-arbitraries/valid.js';
import type { BodySpec, OperationInputs } from './inputs.js';

export type FormValue = string | string[];

export interface RequestSpec {
  /** How the request came about, for messages: `the contract example`, `generated request 2`, a variant. */
  label: string;
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  json?: unknown;
  form?: { fields: Record<string, FormValue>; file: boolean };
  /** Built from sandbox-defined schemas (contracts/README.md): normative only in the simulator profile. */
  sandboxDependent: boolean;
  /** An invalid request: the one input broken and how (negative-cases.ts), for the coverage report. */
  invalid?: { target: string; kind: string; where: string };
}

export interface Prepared {
  inputs: OperationInputs;
  doc: OpenApiDocument;
  /** Path values of the contract example (or a generated uuid). */
  examplePath: Record<string, string>;
  exampleQuery: Record<string, string>;
  /** The example body, without webhook configuration. */
  exampleBody?: unknown;
  file?: { blob: Blob; name: string };
}

/**
 * Webhook configuration (spec 6) is left out of valid requests: the suite never asks a server to deliver
 * to hosts it does not control, and the webhook checks own that surface. Invalid webhook values are still
 * sent by the negative check (they are refused before anything is stored).
 */
export const isWebhookField = (name: string) => /^webhook/i.test(name);

function stripWebhook(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => !isWebhookField(name)));
}

export const paramString = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : typeof value === 'object' ? undefined : String(value);

export function prepare(contract: LoadedContract, inputs: OperationInputs, seed: number): Prepared {
  const { doc } = contract;
  const examplePath: Record<string, string> = {};
  const exampleQuery: Record<string, string> = {};
  for (const param of inputs.params) {
    const value = param.example !== undefined ? paramString(param.example) : undefined;
    if (param.in === 'path') examplePath[param.name] = value ?? String(sampleValid(doc, param.schema, seed, { schemas: contract.schemas }));
    else if (param.in === 'query' && param.required) exampleQuery[param.name] = value ?? String(sampleValid(doc, param.schema, seed, { schemas: contract.schemas }));
  }
  const prepared: Prepared = { inputs, doc, examplePath, exampleQuery };
  const body = inputs.body;
  if (body) {
    const validate = contract.schemas.validator(body.schema);
    let example = stripWebhook(body.example);
    if (body.multipart && body.fileField && isObject(example)) example = { ...example, [body.fileField]: 'conformance.csv' };
    if (example === undefined || !validate(example)) example = example === undefined && !body.required ? undefined : stripWebhook(sampleValid(doc, body.schema, seed, { schemas: contract.schemas }));
    if (body.multipart) example = asSentInForm(example);
    prepared.exampleBody = example;
    if (body.multipart && body.fileField) prepared.file = exampleFile(doc, inputs.op, body.fileField);
  }
  return prepared;
}

/** The small CSV the contract's example builder makes, named with an extension the operation accepts. */
function exampleFile(doc: OpenApiDocument, op: ContractOperation, field: string): { blob: Blob; name: string } {
  const built = buildExampleRequest(doc, op, {});
  const fromExample = built.body instanceof FormData ? built.body.get(field) : null;
  const blob = fromExample instanceof Blob ? fromExample : new Blob(['sku,name,hsCode\nSKU-1,Sample,6109.10\n'], { type: 'text/csv' });
  const accepted = Array.isArray(op.operation['x-accepted-file-types']) ? (op.operation['x-accepted-file-types'] as string[]) : ['.csv'];
  const extension = accepted.includes('.csv') ? '.csv' : accepted[0] ?? '.csv';
  return { blob, name: `conformance-${op.operationId}${extension}` };
}

export function exampleRequest(prepared: Prepared, path = prepared.examplePath): RequestSpec {
  const spec: RequestSpec = { label: 'the contract example', path, query: { ...prepared.exampleQuery }, headers: {}, sandboxDependent: prepared.inputs.body?.sandboxDefined ?? false };
  setBody(prepared, spec, prepared.exampleBody);
  return spec;
}

/** Spec 5.1: the exchange of the integration key takes the key in x-api-key and no other input. */
export function keyExchangeRequest(): RequestSpec {
  return { label: 'the exchange of the integration key', path: {}, query: {}, headers: {}, sandboxDependent: false };
}

export function setBody(prepared: Prepared, spec: RequestSpec, value: unknown) {
  const body = prepared.inputs.body;
  if (!body || value === undefined) return;
  if (!body.multipart) {
    spec.json = value;
    return;
  }
  const form = toFormFields(prepared.doc, body, value);
  if (form) spec.form = form;
}

/**
 * A text as a multipart form field carries it: the WHATWG multipart/form-data encoding algorithm (what Node's
 * fetch and every browser apply to FormData) replaces each CR not followed by LF and each LF not preceded by CR
 * with CRLF, so `"\n"` arrives as two characters. RFC 7578 leaves the field's bytes to the sender, and a server
 * is right to measure the value it received, so a form field's value is its wire form (issue 26).
 */
export const formText = (text: string): string => text.replace(/\r\n|\r|\n/g, '\r\n');

/** A form field's value as the server receives it: texts and lists of texts in their wire form (formText). */
export function asFormValue(value: unknown): unknown {
  if (typeof value === 'string') return formText(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? formText(item) : item));
  return value;
}

/** A multipart body object with every top-level field in its wire form: what a generator judges against the schema. */
export function asSentInForm(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, asFormValue(item)]));
}

/** A body object as multipart fields: scalars as text, arrays repeated, objects as JSON text (decision 8),
 *  each text in its wire form (formText), so the request records what the server receives. */
export function toFormFields(doc: OpenApiDocument, body: BodySpec, value: unknown): { fields: Record<string, FormValue>; file: boolean } | undefined {
  if (!isObject(value)) return undefined;
  const fields: Record<string, FormValue> = {};
  for (const [name, item] of Object.entries(value)) {
    if (name === body.fileField) continue;
    // A null, an empty text or an empty list cannot be told from an absent field in a form.
    if (item === null || item === undefined || item === '') return undefined;
    if (Array.isArray(item)) {
      if (!item.length || item.some((v) => v === null || v === '' || typeof v === 'object')) return undefined;
      fields[name] = item.map((v) => formText(String(v)));
    } else if (typeof item === 'object') {
      const types = typesOf(flatten(doc, propertySchema(doc, body.schema, name))) ?? [];
      if (!types.includes('object')) return undefined;
      fields[name] = JSON.stringify(item);
    } else fields[name] = formText(String(item));
  }
  return { fields, file: body.fileField !== undefined && body.fileField in value };
}

export function propertySchema(doc: OpenApiDocument, schema: Json, name: string): Json {
  return propertySchemaOf(flatten(doc, schema), name);
}

/** How a server reads a text value (query, path, header, form field) as the schema's type (OpenAPI form style). */
export function readText(doc: OpenApiDocument, schema: Json, value: FormValue): unknown {
  const flat = flatten(doc, schema);
  const types = typesOf(flat) ?? [];
  if (types.includes('array')) return (Array.isArray(value) ? value : value.split(',')).map((v) => readText(doc, (flat.items ?? {}) as Json, v));
  const single = Array.isArray(value) ? value[value.length - 1] : value;
  if (types.includes('integer') && /^-?\d+$/.test(single)) return Number(single);
  if (types.includes('number') && single.trim() !== '' && Number.isFinite(Number(single))) return Number(single);
  if (types.includes('boolean') && (single === 'true' || single === 'false')) return single === 'true';
  if (types.includes('object') && single.trimStart().startsWith('{')) {
    try {
      return JSON.parse(single);
    } catch {
      return single;
    }
  }
  return single;
}

export function urlOf(prepared: Prepared, spec: RequestSpec): string {
  let path = prepared.inputs.op.path;
  for (const [name, value] of Object.entries(spec.path)) path = path.replace(`{${name}}`, encodeURIComponent(value));
  const query = new URLSearchParams(spec.query);
  return query.size ? `${path}?${query}` : path;
}

export function buildForm(prepared: Prepared, spec: RequestSpec): FormData | undefined {
  if (!spec.form) return undefined;
  const form = new FormData();
  if (spec.form.file && prepared.file && prepared.inputs.body?.fileField) form.append(prepared.inputs.body.fileField, prepared.file.blob, prepared.file.name);
  for (const [name, value] of Object.entries(spec.form.fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  return form;
}
