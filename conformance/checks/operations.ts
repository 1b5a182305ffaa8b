// Per-operation checks, two for every operation of the selected contract (spec 4, 7; section 8 for bounds):
//   operations.<operationId>.accepts-valid-input   requests built from the contract's examples and from
//     values generated from its schemas are served: documented (the client checks every response against
//     the contract), never 400 nor 5xx (404 for an unknown id, 409 for a state conflict, 403 and 429 are
//     answers to valid input).
//   operations.<operationId>.rejects-invalid-input  requests with ONE invalid parameter or body field, all else
//     valid, are refused with 400 INVALID_REQUEST, and `details.field` names the field (spec 7: "field named
//     in details.field where applicable").
// Operations the server has not built are not skipped: their answer (e.g. 501) is undocumented, so both of
// their checks fail through the client's response conformance.
import fc from 'fast-check';
import { isObject, type Json, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { buildExampleRequest, mediaExample } from '../../contracts/lib/example-request.js';
import { deref, matchOperation, type ContractOperation } from '../../contracts/lib/operations.js';
import { defineCheck, type Check, type CheckContext } from '../harness/check.js';
import type { Auth } from '../harness/client.js';
import type { LoadedContract } from '../harness/contract.js';
import { replayCommand } from '../harness/runner.js';
import { flatten, invalidVariants, MUTATION_PRIORITY, sampleValid, typesOf, validValue, type InvalidVariant } from '../harness/schema-arbitraries.js';
import type { Exchange, Failure } from '../harness/types.js';

/** Invalid requests per operation (one variant each), besides the valid baseline. */
const VARIANT_BUDGET = 11;
/** Status codes that answer valid input without refusing it (spec 7: 403 scope/principal/adapter, 404 an
 *  id that is not the tenant's, 409 a state or idempotency conflict or a duplicate upload, 429 limits). */
const ANSWERS_TO_VALID_INPUT = new Set([403, 404, 409, 429]);

// ---------------------------------------------------------------------------------------------------------
// What an operation takes.

interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  example?: Json;
  sandboxDefined: boolean;
}

interface BodySpec {
  mediaType: string;
  multipart: boolean;
  required: boolean;
  schema: Json;
  example?: Json;
  sandboxDefined: boolean;
  /** Multipart: the binary property (`file`). */
  fileField?: string;
}

type AuthKind = 'bearer' | 'none' | 'integration-key';

interface OperationInputs {
  op: ContractOperation;
  params: ParamSpec[];
  body?: BodySpec;
  auth: AuthKind;
}

export function operationInputs(doc: OpenApiDocument, op: ContractOperation): OperationInputs {
  const params: ParamSpec[] = [];
  for (const raw of op.parameters) {
    const param = deref(doc, raw);
    if (!isObject(param) || typeof param.name !== 'string') continue;
    if (!['path', 'query', 'header'].includes(String(param.in))) continue;
    // Headers are credentials or transport, except the one input the spec gives as a header (8.5).
    if (param.in === 'header' && param.name.toLowerCase() !== 'idempotency-key') continue;
    const schema = (param.schema ?? {}) as Json;
    params.push({
      name: param.name,
      in: param.in as ParamSpec['in'],
      required: param.required === true,
      schema,
      example: 'example' in param ? param.example : undefined,
      sandboxDefined: param['x-sandbox-defined'] === true || flatten(doc, schema)['x-sandbox-defined'] === true,
    });
  }
  let body: BodySpec | undefined;
  const requestBody = deref(doc, op.operation.requestBody ?? null);
  if (isObject(requestBody) && isObject(requestBody.content)) {
    const entries = Object.entries(requestBody.content);
    const [mediaType, media] = entries.find(([type]) => type === 'application/json') ?? entries[0] ?? [];
    if (mediaType && isObject(media)) {
      const schema = (media.schema ?? {}) as Json;
      const flat = flatten(doc, schema);
      const properties = isObject(flat.properties) ? flat.properties : {};
      const fileField = Object.keys(properties).find((name) => flatten(doc, properties[name]).format === 'binary');
      body = {
        mediaType,
        multipart: mediaType === 'multipart/form-data',
        required: requestBody.required === true,
        schema,
        example: mediaExample(doc, media),
        sandboxDefined: flat['x-sandbox-defined'] === true,
        fileField,
      };
    }
  }
  return { op, params, body, auth: authKind(doc, op) };
}

/** Spec 5: bearer by default; `security: []` needs nothing (signup, 4.7); the key exchange takes x-api-key. */
function authKind(doc: OpenApiDocument, op: ContractOperation): AuthKind {
  const requirements = Array.isArray(op.operation.security) ? op.operation.security : doc.security;
  if (Array.isArray(requirements) && requirements.length === 0) return 'none';
  const first = Array.isArray(requirements) && isObject(requirements[0]) ? Object.keys(requirements[0]) : [];
  const schemes = isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const kinds = first.map((name) => schemes[name]).filter(isObject);
  if (kinds.length && kinds.every((s) => s.type === 'apiKey' && String(s.name).toLowerCase() === 'x-api-key')) return 'integration-key';
  return 'bearer';
}

const isRead = (op: ContractOperation) => op.method === 'get' || op.method === 'head';

// ---------------------------------------------------------------------------------------------------------
// Requests.

type FormValue = string | string[];

interface RequestSpec {
  /** How the request came about, for messages: `the contract example`, `generated request 2`, a variant. */
  label: string;
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  json?: unknown;
  form?: { fields: Record<string, FormValue>; file: boolean };
  /** Built from sandbox-defined schemas (contracts/README.md): normative only in the simulator profile. */
  sandboxDependent: boolean;
}

interface Prepared {
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
const isWebhookField = (name: string) => /^webhook/i.test(name);

function stripWebhook(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => !isWebhookField(name)));
}

const paramString = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : typeof value === 'object' ? undefined : String(value);

function prepare(contract: LoadedContract, inputs: OperationInputs, seed: number): Prepared {
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

function exampleRequest(prepared: Prepared, path = prepared.examplePath): RequestSpec {
  const spec: RequestSpec = { label: 'the contract example', path, query: { ...prepared.exampleQuery }, headers: {}, sandboxDependent: prepared.inputs.body?.sandboxDefined ?? false };
  setBody(prepared, spec, prepared.exampleBody);
  return spec;
}

function setBody(prepared: Prepared, spec: RequestSpec, value: unknown) {
  const body = prepared.inputs.body;
  if (!body || value === undefined) return;
  if (!body.multipart) {
    spec.json = value;
    return;
  }
  const form = toFormFields(prepared.doc, body, value);
  if (form) spec.form = form;
}

/** A body object as multipart fields: scalars as text, arrays repeated, objects as JSON text (decision 8). */
function toFormFields(doc: OpenApiDocument, body: BodySpec, value: unknown): { fields: Record<string, FormValue>; file: boolean } | undefined {
  if (!isObject(value)) return undefined;
  const fields: Record<string, FormValue> = {};
  for (const [name, item] of Object.entries(value)) {
    if (name === body.fileField) continue;
    // A null, an empty text or an empty list cannot be told from an absent field in a form.
    if (item === null || item === undefined || item === '') return undefined;
    if (Array.isArray(item)) {
      if (!item.length || item.some((v) => v === null || v === '' || typeof v === 'object')) return undefined;
      fields[name] = item.map(String);
    } else if (typeof item === 'object') {
      const types = typesOf(flatten(doc, propertySchema(doc, body.schema, name))) ?? [];
      if (!types.includes('object')) return undefined;
      fields[name] = JSON.stringify(item);
    } else fields[name] = String(item);
  }
  return { fields, file: body.fileField !== undefined && body.fileField in value };
}

function propertySchema(doc: OpenApiDocument, schema: Json, name: string): Json {
  const flat = flatten(doc, schema);
  return isObject(flat.properties) && name in flat.properties ? flat.properties[name] : {};
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

function urlOf(prepared: Prepared, spec: RequestSpec): string {
  let path = prepared.inputs.op.path;
  for (const [name, value] of Object.entries(spec.path)) path = path.replace(`{${name}}`, encodeURIComponent(value));
  const query = new URLSearchParams(spec.query);
  return query.size ? `${path}?${query}` : path;
}

function buildForm(prepared: Prepared, spec: RequestSpec): FormData | undefined {
  if (!spec.form) return undefined;
  const form = new FormData();
  if (spec.form.file && prepared.file && prepared.inputs.body?.fileField) form.append(prepared.inputs.body.fileField, prepared.file.blob, prepared.file.name);
  for (const [name, value] of Object.entries(spec.form.fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  return form;
}

function authOf(ctx: CheckContext, kind: AuthKind): Auth {
  if (kind === 'none') return 'none';
  if (kind === 'integration-key') return { apiKey: ctx.client.apiKey };
  return 'bearer';
}

/**
 * Sends one request. A 429 (spec 8: rate buckets, queue caps) is waited out: against the simulator by moving
 * its virtual clock past `Retry-After`, elsewhere by sleeping when the wait is short. Returns the last
 * exchange (still 429 when the wait was too long).
 */
async function send(ctx: CheckContext, prepared: Prepared, spec: RequestSpec, options: { unchecked?: boolean } = {}): Promise<Exchange> {
  const method = prepared.inputs.op.method.toUpperCase();
  const call = () =>
    ctx.client.call(method, urlOf(prepared, spec), {
      auth: authOf(ctx, prepared.inputs.auth),
      headers: spec.headers,
      json: spec.form ? undefined : spec.json,
      form: buildForm(prepared, spec),
      unchecked: options.unchecked,
    });
  return withRateLimitRetry(ctx, call);
}

export async function withRateLimitRetry(ctx: CheckContext, call: () => Promise<Exchange>): Promise<Exchange> {
  let exchange = await call();
  for (let attempt = 0; attempt < 3 && exchange.response.status === 429; attempt++) {
    const header = Number(exchange.response.headers['retry-after']);
    const detail = Number((exchange.response.body as { details?: { retryAfterSeconds?: unknown } })?.details?.retryAfterSeconds);
    const wait = Math.max(1, Math.ceil(Number.isFinite(header) && header > 0 ? header : Number.isFinite(detail) && detail > 0 ? detail : 1));
    if (ctx.admin) await ctx.admin.advanceClock(wait + 1);
    else if (wait <= 5) await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    else break;
    exchange = await call();
  }
  return exchange;
}

interface ErrorBody {
  code?: unknown;
  message?: unknown;
  details?: { field?: unknown };
}

const errorOf = (exchange: Exchange): ErrorBody => (isObject(exchange.response.body) ? (exchange.response.body as ErrorBody) : {});

function describeAnswer(exchange: Exchange): string {
  const { code, message } = errorOf(exchange);
  return `${exchange.response.status}${typeof code === 'string' ? ` ${code}` : ''}${typeof message === 'string' ? ` (${message.slice(0, 160)})` : ''}`;
}

function describeRequest(spec: RequestSpec): string {
  const parts: string[] = [];
  if (Object.keys(spec.path).length) parts.push(`path ${JSON.stringify(spec.path)}`);
  if (Object.keys(spec.query).length) parts.push(`query ${JSON.stringify(spec.query)}`);
  if (Object.keys(spec.headers).length) parts.push(`headers ${JSON.stringify(spec.headers)}`);
  if (spec.json !== undefined) parts.push(`body ${JSON.stringify(spec.json)}`);
  if (spec.form) parts.push(`form ${JSON.stringify(spec.form.fields)}${spec.form.file ? ' + file' : ''}`);
  const text = parts.join('; ') || 'no input';
  return text.length > 600 ? `${text.slice(0, 597)}...` : text;
}

function propertyExtra(ctx: CheckContext, checkId: string, spec: RequestSpec): Partial<Failure> {
  return { seed: ctx.seed, counterexample: `${spec.label}: ${describeRequest(spec)}`, replay: replayCommand(ctx.options, [checkId]) };
}

/**
 * Judges the answer to a valid request. Returns false when the server failed (5xx): more requests to the
 * same operation would only repeat it.
 */
function judgeValid(ctx: CheckContext, checkId: string, prepared: Prepared, spec: RequestSpec, exchange: Exchange): boolean {
  const status = exchange.response.status;
  const op = prepared.inputs.op;
  const { code } = errorOf(exchange);
  if ((status >= 200 && status < 300) || ANSWERS_TO_VALID_INPUT.has(status)) return true;
  // Spec 4.7: the signup endpoints answer 503 FEATURE_DISABLED while their feature flag is off.
  const documented = isObject(op.operation.responses) && '503' in op.operation.responses;
  if (status === 503 && code === 'FEATURE_DISABLED' && documented) return true;
  // A request shaped by sandbox-defined schemas proves nothing about another deployment's choices.
  if (status === 400 && spec.sandboxDependent && ctx.options.profile !== 'simulator') return true;
  ctx.fail('valid-input-accepted', `${op.operationId}: ${spec.label} (valid per the contract) was answered ${describeAnswer(exchange)}; expected it to be served (2xx, or 403/404/409/429)`, exchange, propertyExtra(ctx, checkId, spec));
  return status < 500;
}

// ---------------------------------------------------------------------------------------------------------
// Finding real ids for reads (so a detail GET is seen with a body, not only as a 404).

function responseProperties(doc: OpenApiDocument, op: ContractOperation): string[] {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const names: string[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^2/.test(status)) continue;
    const response = deref(doc, raw);
    const content = isObject(response) && isObject(response.content) ? response.content : {};
    for (const media of Object.values(content)) {
      if (!isObject(media)) continue;
      const flat = flatten(doc, (media.schema ?? {}) as Json);
      if (isObject(flat.properties)) names.push(...Object.keys(flat.properties));
    }
  }
  return names;
}

function idFromItems(body: unknown, name: string): string | undefined {
  if (!isObject(body)) return undefined;
  for (const value of Object.values(body)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (!isObject(item)) continue;
      const id = item[name] ?? (name === 'id' || /Id$/.test(name) ? item.id : undefined);
      if (typeof id === 'string' && id) return id;
    }
  }
  return undefined;
}

/**
 * For a read with one path id: an id the tenant has, from the list at the parent path, or (when the
 * profile allows writes) from the contract's own example request to an operation whose receipt names it
 * (a job id from an enqueue receipt, spec 2.3). Setup calls are not checked here: they have their own checks.
 */
async function discoverPath(ctx: CheckContext, contract: LoadedContract, prepared: Prepared): Promise<Record<string, string> | undefined> {
  const { op } = prepared.inputs;
  const pathParams = prepared.inputs.params.filter((p) => p.in === 'path');
  if (!isRead(op) || pathParams.length !== 1) return undefined;
  const param = pathParams[0];
  const prefix = op.path.slice(0, op.path.indexOf('/{'));
  const list = contract.operations.find((o) => o.method === 'get' && o.path === prefix);
  if (list) {
    const takesLimit = operationInputs(contract.doc, list).params.some((p) => p.name === 'limit' && p.in === 'query');
    const exchange = await withRateLimitRetry(ctx, () => ctx.client.call('GET', takesLimit ? `${prefix}?limit=5` : prefix, { unchecked: true }));
    const id = exchange.response.status === 200 ? idFromItems(exchange.response.body, param.name) : undefined;
    if (id) return { [param.name]: id };
  }
  // Only ids are produced: a receipt names the id of what it created (spec 2.3), not other keys.
  if (ctx.options.profile === 'readonly' || !(param.name === 'id' || /Id$/.test(param.name))) return undefined;
  const singular = prefix.split('/').pop()?.replace(/s$/, '') ?? '';
  const wanted = param.name === 'id' ? `${singular}Id` : param.name;
  const producers = contract.operations
    .filter((o) => o.method === 'post' && responseProperties(contract.doc, o).includes(wanted))
    .sort((a, b) => Number(b.path.startsWith(`${prefix}/`) || b.path === prefix) - Number(a.path.startsWith(`${prefix}/`) || a.path === prefix));
  for (const producer of producers.slice(0, 2)) {
    const inputs = operationInputs(contract.doc, producer);
    const setup = prepare(contract, inputs, ctx.seed);
    const exchange = await send(ctx, setup, exampleRequest(setup), { unchecked: true });
    const id = exchange.response.status < 300 && isObject(exchange.response.body) ? exchange.response.body[wanted] : undefined;
    if (typeof id === 'string' && id) return { [param.name]: id };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Generated valid requests.

/**
 * A top-level value the suite may vary while staying valid for any deployment: closed domains (enum, const,
 * boolean, bounded numbers, ids, timestamps, reserved-domain e-mails and URLs). Free text, codes checked
 * against reference data (country, currency, HS codes) and server-issued tokens keep their example value.
 */
function closedDomain(doc: OpenApiDocument, raw: Json): boolean {
  const schema = flatten(doc, raw);
  if ('const' in schema || Array.isArray(schema.enum)) return true;
  const types = typesOf(schema) ?? [];
  if (types.length === 0) return false;
  return types.every((type) => {
    if (type === 'null' || type === 'boolean') return true;
    if (type === 'integer' || type === 'number') return schema.minimum !== undefined || schema.exclusiveMinimum !== undefined || schema.maximum !== undefined;
    if (type === 'string') return ['uuid', 'date-time', 'date', 'email', 'uri'].includes(String(schema.format));
    if (type === 'array') return schema.items !== undefined && closedDomain(doc, schema.items as Json);
    return false;
  });
}

/** Spec rules that refuse values the schema allows (never generated as valid input). */
const SPEC_REFUSALS: Record<string, (body: unknown) => boolean> = {
  // Spec 4.5: `action=credit` of the findings batch is disabled and answers 400 INVALID_REQUEST.
  applyFindingBatchAction: (body) => isObject(body) && body.action === 'credit',
};

const IDEMPOTENCY_KEY = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{11,39}$/);

function generatedRequests(contract: LoadedContract, prepared: Prepared, path: Record<string, string>, count: number, seed: number): RequestSpec[] {
  const { doc } = contract;
  const { inputs } = prepared;
  const query: Record<string, fc.Arbitrary<string | undefined>> = {};
  const headers: Record<string, fc.Arbitrary<string | undefined>> = {};
  const sandboxParams = new Set<string>();
  for (const param of inputs.params) {
    if (param.in === 'path') continue;
    let value: fc.Arbitrary<string | undefined>;
    if (param.in === 'header') value = IDEMPOTENCY_KEY;
    else if (closedDomain(doc, param.schema)) value = validValue(doc, param.schema, { schemas: contract.schemas }).map(paramString);
    else if (param.example !== undefined) value = fc.constant(paramString(param.example));
    else if (param.required) value = fc.constant(prepared.exampleQuery[param.name]);
    else continue;
    if (param.sandboxDefined) sandboxParams.add(param.name);
    (param.in === 'header' ? headers : query)[param.name] = param.required ? value : fc.option(value, { nil: undefined });
  }
  const body = inputs.body;
  const base = isObject(prepared.exampleBody) ? (prepared.exampleBody as Record<string, unknown>) : undefined;
  const bodyArb: fc.Arbitrary<unknown> = (() => {
    if (!body || !base) return fc.constant(prepared.exampleBody);
    const flat = flatten(doc, body.schema);
    const properties = isObject(flat.properties) ? flat.properties : {};
    const required = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
    const varied: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, schema] of Object.entries(properties)) {
      if (isWebhookField(name) || name === body.fileField || (isObject(schema) && schema.deprecated === true)) continue;
      if (closedDomain(doc, schema)) varied[name] = fc.option(validValue(doc, schema, { schemas: contract.schemas }), { nil: undefined });
    }
    const optional = Object.keys(base).filter((name) => !required.has(name) && name !== body.fileField);
    const validate = contract.schemas.validator(body.schema);
    return fc.tuple(fc.record(varied), fc.subarray(optional, { maxLength: Math.min(2, optional.length) })).map(([values, dropped]) => {
      const next: Record<string, unknown> = { ...base };
      for (const [name, value] of Object.entries(values)) if (value !== undefined) next[name] = value;
      for (const name of dropped) delete next[name];
      const refused = SPEC_REFUSALS[inputs.op.operationId]?.(next);
      return validate(next) && !refused ? next : base;
    });
  })();
  const arb = fc.record({ query: fc.record(query), headers: fc.record(headers), body: bodyArb });
  return fc.sample(arb, { seed, numRuns: count }).map((drawn, index) => {
    const spec: RequestSpec = {
      label: `generated request ${index + 1}`,
      path,
      query: Object.fromEntries(Object.entries(drawn.query).filter((e): e is [string, string] => e[1] !== undefined)),
      headers: Object.fromEntries(Object.entries(drawn.headers).filter((e): e is [string, string] => e[1] !== undefined)),
      sandboxDependent: (body?.sandboxDefined ?? false) || Object.keys(drawn.query).some((name) => drawn.query[name] !== undefined && sandboxParams.has(name)),
    };
    setBody(prepared, spec, drawn.body);
    return spec;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Invalid requests.

interface NegativeCase {
  /** Parameter name, top-level body field, or `(body)`. */
  target: string;
  variant: InvalidVariant;
  spec: RequestSpec;
}

const SAFE_PATH_SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function negativeCases(contract: LoadedContract, prepared: Prepared, seed: number): NegativeCase[] {
  const { doc } = contract;
  const { inputs } = prepared;
  const cases: NegativeCase[] = [];
  const baseSpec = () => exampleRequest(prepared);
  for (const param of inputs.params) {
    const validate = contract.schemas.validator(param.schema);
    const base = param.in === 'path' ? prepared.examplePath[param.name] : param.example ?? prepared.exampleQuery[param.name];
    for (const variant of invalidVariants(doc, param.schema, { base: base === undefined ? undefined : readText(doc, param.schema, String(base)), seed, schemas: contract.schemas })) {
      const text = paramString(variant.value);
      if (text === undefined || text === '') continue;
      // What the server reads from the text must still be invalid (`12345` is a fine string parameter).
      if (validate(readText(doc, param.schema, text))) continue;
      const spec = baseSpec();
      const name = `${param.name}${variant.name.replace(/^\(value\)/, '')}`;
      spec.label = `${param.in} parameter ${name}`;
      if (param.in === 'path') {
        if (!SAFE_PATH_SEGMENT.test(text)) continue;
        spec.path = { ...spec.path, [param.name]: text };
        // Never a value that would route the request to another operation (or none).
        if (matchOperation(doc, inputs.op.method, urlOf(prepared, spec))?.operationId !== inputs.op.operationId) continue;
      } else if (param.in === 'query') spec.query = { ...spec.query, [param.name]: text };
      else {
        if (!HEADER_VALUE.test(text)) continue;
        spec.headers = { ...spec.headers, [param.name]: text };
      }
      spec.sandboxDependent = param.sandboxDefined || variant.sandboxDefined;
      cases.push({ target: param.name, variant: { ...variant, name, fields: [param.name] }, spec });
    }
  }
  const body = inputs.body;
  if (body) {
    const validate = contract.schemas.validator(body.schema);
    if (body.required) {
      const spec = baseSpec();
      spec.json = undefined;
      spec.form = undefined;
      spec.label = 'no request body (the body is required)';
      spec.sandboxDependent = body.sandboxDefined;
      cases.push({ target: '(body)', variant: { name: '(body): missing', kind: 'missing-required', path: [], value: undefined, fields: [], sandboxDefined: body.sandboxDefined }, spec });
    }
    const base = prepared.exampleBody;
    for (const variant of invalidVariants(doc, body.schema, { base, seed, schemas: contract.schemas })) {
      const spec = baseSpec();
      spec.label = `body ${variant.name}`;
      spec.sandboxDependent = variant.sandboxDefined;
      const target = typeof variant.path[0] === 'string' ? variant.path[0] : '(body)';
      if (body.multipart) {
        // A file is a part, not a value: the only invalid file input here is its absence.
        if (target === body.fileField && variant.kind !== 'missing-required') continue;
        const form = toFormFields(doc, body, variant.value);
        if (!form) continue;
        // What the server reads back from the fields must still be invalid.
        const readBack: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(form.fields)) readBack[name] = readText(doc, propertySchema(doc, body.schema, name), value);
        if (form.file && body.fileField) readBack[body.fileField] = prepared.file?.name ?? 'conformance.csv';
        if (validate(readBack)) continue;
        spec.form = form;
      } else spec.json = variant.value;
      cases.push({ target, variant, spec });
    }
  }
  return cases;
}

/**
 * Up to `budget` cases: one per input first (round robin over parameters and body fields), each input's
 * cases in order of MUTATION_PRIORITY (bounds and required keys first), ties and inputs shuffled with the seed.
 */
function pickCases(cases: NegativeCase[], budget: number, seed: number): NegativeCase[] {
  const groups = new Map<string, NegativeCase[]>();
  for (const item of cases) groups.set(item.target, [...(groups.get(item.target) ?? []), item]);
  const shuffle = <T>(list: T[]): T[] => (list.length < 2 ? list : fc.sample(fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }), { seed, numRuns: 1 })[0]);
  const rank = (item: NegativeCase) => MUTATION_PRIORITY.indexOf(item.variant.kind);
  const queues = shuffle([...groups.values()]).map((list) => shuffle(list).sort((a, b) => rank(a) - rank(b)));
  const picked: NegativeCase[] = [];
  while (picked.length < budget && queues.some((q) => q.length)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next && picked.length < budget) picked.push(next);
    }
  }
  return picked;
}

// ---------------------------------------------------------------------------------------------------------
// The checks.

const checkId = (op: ContractOperation, name: string) => `operations.${op.operationId}.${name}`;

function generatedCount(runs: number): number {
  return Math.min(4, Math.max(1, Math.ceil(runs / 25)));
}

function acceptsValidInput(contract: LoadedContract, inputs: OperationInputs): Check {
  const { op } = inputs;
  const id = checkId(op, 'accepts-valid-input');
  return defineCheck({
    id,
    title: `${op.method.toUpperCase()} ${op.path} (${op.operationId}) serves valid requests with documented answers`,
    area: 'operations',
    needs: isRead(op) || inputs.auth === 'integration-key' ? [] : ['writes'],
    async run(ctx) {
      const prepared = prepare(contract, inputs, ctx.seed);
      if (inputs.auth === 'integration-key') {
        // Spec 5.1: the exchange takes the key in x-api-key and no body.
        const spec: RequestSpec = { label: 'the exchange of the integration key', path: {}, query: {}, headers: {}, sandboxDependent: false };
        judgeValid(ctx, id, prepared, spec, await send(ctx, prepared, spec));
        return;
      }
      const requests = [exampleRequest(prepared)];
      const discovered = await discoverPath(ctx, contract, prepared);
      if (discovered) requests.unshift({ ...exampleRequest(prepared, discovered), label: `the contract example with an id the tenant has (${Object.values(discovered)[0]})` });
      requests.push(...generatedRequests(contract, prepared, discovered ?? prepared.examplePath, generatedCount(ctx.runs), ctx.seed));
      for (const spec of requests) {
        const exchange = await send(ctx, prepared, spec);
        if (!judgeValid(ctx, id, prepared, spec, exchange)) return;
      }
    },
  });
}

function rejectsInvalidInput(contract: LoadedContract, inputs: OperationInputs): Check {
  const { op } = inputs;
  const id = checkId(op, 'rejects-invalid-input');
  return defineCheck({
    id,
    title: `${op.method.toUpperCase()} ${op.path} (${op.operationId}) refuses invalid input with 400 INVALID_REQUEST naming the field`,
    area: 'operations',
    needs: isRead(op) || inputs.auth === 'integration-key' ? [] : ['writes'],
    async run(ctx) {
      const prepared = prepare(contract, inputs, ctx.seed);
      if (inputs.auth === 'integration-key') {
        // Spec 4.1, 7: the exchange without a key (an empty x-api-key) is 400 MISSING_API_KEY.
        const valid: RequestSpec = { label: 'the exchange of the integration key', path: {}, query: {}, headers: {}, sandboxDependent: false };
        if (!judgeValid(ctx, id, prepared, valid, await send(ctx, prepared, valid))) return;
        const exchange = await withRateLimitRetry(ctx, () => ctx.client.call('POST', op.path, { auth: { apiKey: '' } }));
        if (exchange.response.status === 429) ctx.skip('the exchange stayed rate limited (429)');
        const { code } = errorOf(exchange);
        if (ctx.expect(exchange.response.status === 400, 'invalid-input-rejected', `${op.operationId}: an empty x-api-key was answered ${describeAnswer(exchange)}, not 400 MISSING_API_KEY (spec 4.1, 7)`, exchange)) {
          ctx.expect(code === 'MISSING_API_KEY', 'error-code', `${op.operationId}: an empty x-api-key was answered 400 with code ${String(code)}, not MISSING_API_KEY (spec 7)`, exchange);
        }
        return;
      }
      // A plain valid request first: the refusals below mean something only next to a request that is
      // served, and an operation the server has not built fails here (its answer is undocumented).
      const baseline = exampleRequest(prepared);
      if (!judgeValid(ctx, id, prepared, baseline, await send(ctx, prepared, baseline))) return;
      const normative = ctx.options.profile === 'simulator';
      const all = negativeCases(contract, prepared, ctx.seed).filter((c) => normative || !c.spec.sandboxDependent);
      const hasInput = inputs.params.length > 0 || inputs.body !== undefined;
      if (!all.length) ctx.skip(hasInput ? 'none of the operation\'s inputs has a rule a request can break (outside the sandbox-defined shapes)' : 'the operation takes no input');
      let tested = 0;
      for (const item of pickCases(all, VARIANT_BUDGET, ctx.seed)) {
        const exchange = await send(ctx, prepared, item.spec);
        if (exchange.response.status === 429) continue;
        tested++;
        const extra = propertyExtra(ctx, id, item.spec);
        const { code, details } = errorOf(exchange);
        if (exchange.response.status !== 400 || code !== 'INVALID_REQUEST') {
          ctx.fail('invalid-input-rejected', `${op.operationId}: ${item.spec.label} was answered ${describeAnswer(exchange)}, not 400 INVALID_REQUEST (spec 7)`, exchange, extra);
          continue;
        }
        if (!item.variant.fields.length) continue;
        const field = details?.field;
        const named = typeof field === 'string' && item.variant.fields.some((name) => field.toLowerCase().includes(name.toLowerCase()));
        if (!named) {
          ctx.fail('error-names-field', `${op.operationId}: ${item.spec.label} was refused, but details.field is ${JSON.stringify(field)}, not naming ${item.variant.fields.join(' or ')} (spec 7)`, exchange, extra);
        }
      }
      if (tested === 0) ctx.skip('every invalid request was answered 429: the server stayed rate limited');
    },
  });
}

/** Both checks for every operation of the contract, in the contract's order. */
export function operationChecks(contract: LoadedContract): Check[] {
  return contract.operations.flatMap((op) => {
    const inputs = operationInputs(contract.doc, op);
    return [acceptsValidInput(contract, inputs), rejectsInvalidInput(contract, inputs)];
  });
}
