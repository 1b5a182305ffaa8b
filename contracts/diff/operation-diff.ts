// Operation and document rules of the contract change gate: walks both documents (paths and operations,
// webhooks, security schemes, servers), reports what changed at the operation level, and hands every schema
// it meets (parameters, request and response bodies, response headers, webhook payloads) to diffSchema with
// the direction it is judged in (spec 9.3; see contracts/README.md for the vendor extensions read here).
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../lib/bundle.js';
import { deref, HTTP_METHODS } from '../lib/operations.js';
import { deprecationProblems, readDeprecation, removalAllowed } from './deprecation.js';
import { diffSchema } from './schema-diff.js';
import type { DiffContext, Direction, Rule } from './types.js';

export const operationRules: Rule[] = [
  // Operations and paths
  {
    id: 'operation-removed',
    severity: 'breaking',
    detects: 'An operation (method + path template) is gone without a complete deprecation whose sunset has passed.',
    example: { before: 'GET /api/ship/audit', after: '(no GET /api/ship/audit)' },
  },
  {
    id: 'operation-added',
    severity: 'info',
    detects: 'A new operation (method + path template).',
    example: { before: '(no POST /api/trade/classify)', after: 'POST /api/trade/classify' },
  },
  {
    id: 'operation-id-changed',
    severity: 'warning',
    detects: 'The operationId of an operation changes (generated clients rename the method).',
    example: { before: 'operationId: listJobs', after: 'operationId: getJobs' },
  },
  {
    id: 'operation-idempotency-removed',
    severity: 'breaking',
    detects: 'An operation stops being idempotent (x-idempotent true becomes false or absent): retries with an Idempotency-Key no longer replay.',
    example: { before: 'x-idempotent: true', after: 'x-idempotent: false' },
  },
  {
    id: 'operation-idempotency-added',
    severity: 'info',
    detects: 'An operation becomes idempotent (x-idempotent: true).',
    example: { before: '(no x-idempotent)', after: 'x-idempotent: true' },
  },
  {
    id: 'operation-job-type-changed',
    severity: 'breaking',
    detects: 'An enqueue operation creates a job of another type (x-job-type): clients filtering or dispatching on the job type miss it.',
    example: { before: 'x-job-type: sima_validation', after: 'x-job-type: catalog_upload' },
  },
  // Parameters
  {
    id: 'parameter-required-added',
    severity: 'breaking',
    detects: 'A new required parameter: existing calls do not send it.',
    example: { before: 'parameters: []', after: 'parameters: [{ name: tenant, in: query, required: true }]' },
  },
  {
    id: 'parameter-optional-added',
    severity: 'info',
    detects: 'A new optional parameter.',
    example: { before: 'parameters: []', after: 'parameters: [{ name: status, in: query }]' },
  },
  {
    id: 'parameter-removed',
    severity: 'breaking',
    detects: 'A path, header or cookie parameter is removed without an expired deprecation (a removed query parameter is reported as a warning: the server ignores it).',
    example: { before: 'parameters: [{ name: Idempotency-Key, in: header }]', after: 'parameters: []' },
  },
  {
    id: 'parameter-query-removed',
    severity: 'warning',
    detects: 'A query parameter is removed without an expired deprecation: calls still work, but the server ignores what they send.',
    example: { before: 'parameters: [{ name: status, in: query }]', after: 'parameters: []' },
  },
  {
    id: 'parameter-made-required',
    severity: 'breaking',
    detects: 'An optional parameter becomes required.',
    example: { before: '{ name: limit, in: query, required: false }', after: '{ name: limit, in: query, required: true }' },
  },
  {
    id: 'parameter-made-optional',
    severity: 'info',
    detects: 'A required parameter becomes optional.',
    example: { before: '{ name: limit, in: query, required: true }', after: '{ name: limit, in: query, required: false }' },
  },
  {
    id: 'parameter-location-changed',
    severity: 'breaking',
    detects: 'A parameter moves to another location (query, header, path, cookie) under the same name.',
    example: { before: '{ name: tenant, in: query }', after: '{ name: tenant, in: header }' },
  },
  {
    id: 'parameter-style-changed',
    severity: 'breaking',
    detects: 'The serialization (style or explode) of a parameter changes, so the server reads values differently.',
    example: { before: '{ name: ids, in: query, style: form, explode: true }', after: '{ name: ids, in: query, style: form, explode: false }' },
  },
  // Request body
  {
    id: 'request-body-required-added',
    severity: 'breaking',
    detects: 'A required request body where there was none.',
    example: { before: '(no requestBody)', after: 'requestBody: { required: true, ... }' },
  },
  {
    id: 'request-body-optional-added',
    severity: 'info',
    detects: 'An optional request body where there was none.',
    example: { before: '(no requestBody)', after: 'requestBody: { required: false, ... }' },
  },
  {
    id: 'request-body-removed',
    severity: 'warning',
    detects: 'The request body is no longer documented: what clients send is ignored.',
    example: { before: 'requestBody: { ... }', after: '(no requestBody)' },
  },
  {
    id: 'request-body-made-required',
    severity: 'breaking',
    detects: 'An optional request body becomes required.',
    example: { before: 'requestBody: { required: false }', after: 'requestBody: { required: true }' },
  },
  {
    id: 'request-body-made-optional',
    severity: 'info',
    detects: 'A required request body becomes optional.',
    example: { before: 'requestBody: { required: true }', after: 'requestBody: { required: false }' },
  },
  {
    id: 'request-media-type-removed',
    severity: 'breaking',
    detects: 'A request media type is no longer accepted.',
    example: { before: 'content: { application/json, application/x-www-form-urlencoded }', after: 'content: { application/json }' },
  },
  {
    id: 'request-media-type-added',
    severity: 'info',
    detects: 'A new request media type is accepted.',
    example: { before: 'content: { application/json }', after: 'content: { application/json, text/csv }' },
  },
  {
    id: 'request-file-type-removed',
    severity: 'breaking',
    detects: 'An upload no longer accepts a file extension (x-accepted-file-types): such files now get 415.',
    example: { before: 'x-accepted-file-types: [.csv, .xlsx, .xls]', after: 'x-accepted-file-types: [.csv, .xlsx]' },
  },
  {
    id: 'request-file-type-added',
    severity: 'info',
    detects: 'An upload accepts a new file extension (x-accepted-file-types).',
    example: { before: 'x-accepted-file-types: [.csv]', after: 'x-accepted-file-types: [.csv, .xlsx]' },
  },
  {
    id: 'request-file-size-limit-decreased',
    severity: 'breaking',
    detects: 'The upload size cap (x-max-file-bytes) is lowered or introduced: files that were accepted now get 413.',
    example: { before: 'x-max-file-bytes: 52428800', after: 'x-max-file-bytes: 10485760' },
  },
  {
    id: 'request-file-size-limit-increased',
    severity: 'info',
    detects: 'The upload size cap (x-max-file-bytes) is raised or dropped.',
    example: { before: 'x-max-file-bytes: 10485760', after: 'x-max-file-bytes: 52428800' },
  },
  // Responses
  {
    id: 'response-success-status-removed',
    severity: 'breaking',
    detects: 'A documented success (2xx, 3xx) status is gone: clients handling it never see it again, or get something else instead.',
    example: { before: 'responses: { 200, 202 }', after: 'responses: { 202 }' },
  },
  {
    id: 'response-success-status-added',
    severity: 'warning',
    detects: 'A new success (2xx, 3xx) status a client may not handle.',
    example: { before: 'responses: { 200 }', after: 'responses: { 200, 202 }' },
  },
  {
    id: 'response-error-status-added',
    severity: 'warning',
    detects: 'A new error (4xx, 5xx, default) status a client may not expect.',
    example: { before: 'responses: { 200, 400 }', after: 'responses: { 200, 400, 409 }' },
  },
  {
    id: 'response-error-status-removed',
    severity: 'info',
    detects: 'An error (4xx, 5xx, default) status is no longer documented.',
    example: { before: 'responses: { 200, 409 }', after: 'responses: { 200 }' },
  },
  {
    id: 'response-media-type-removed',
    severity: 'breaking',
    detects: 'A response media type is no longer sent for a status.',
    example: { before: "'200': { content: { application/json, text/csv } }", after: "'200': { content: { application/json } }" },
  },
  {
    id: 'response-media-type-added',
    severity: 'info',
    detects: 'A new response media type for a status (served on content negotiation).',
    example: { before: "'200': { content: { application/json } }", after: "'200': { content: { application/json, text/csv } }" },
  },
  {
    id: 'response-header-removed',
    severity: 'breaking',
    detects: 'A response header is no longer sent (breaking when it was required; a warning for an optional one).',
    example: { before: "'429': { headers: { Retry-After: { required: true } } }", after: "'429': { headers: {} }" },
  },
  {
    id: 'response-optional-header-removed',
    severity: 'warning',
    detects: 'An optional response header is no longer documented: clients reading it when present lose it.',
    example: { before: "'200': { headers: { X-Deprecation-Hint: {} } }", after: "'200': { headers: {} }" },
  },
  {
    id: 'response-header-made-optional',
    severity: 'breaking',
    detects: 'A required response header becomes optional: clients relying on it may not get it.',
    example: { before: 'Retry-After: { required: true }', after: 'Retry-After: { required: false }' },
  },
  {
    id: 'response-header-added',
    severity: 'info',
    detects: 'A new response header.',
    example: { before: "'200': { headers: {} }", after: "'200': { headers: { X-Deprecation-Hint: {} } }" },
  },
  // Error codes
  {
    id: 'error-code-added',
    severity: 'warning',
    detects: 'An error response allows a new `code` (or no longer restricts it): clients switching on the code meet one they do not know.',
    example: { before: "'409': code enum [ACTION_NOT_ALLOWED]", after: "'409': code enum [ACTION_NOT_ALLOWED, DUPLICATE_UPLOAD]" },
    supersedes: ['response-enum-value-added', 'response-enum-removed'],
  },
  {
    id: 'error-code-removed',
    severity: 'info',
    detects: 'An error response no longer allows a `code`.',
    example: { before: "'401': code enum [INVALID_TOKEN, INVALID_API_KEY]", after: "'401': code enum [INVALID_TOKEN]" },
    supersedes: ['response-enum-value-removed'],
  },
  // Security
  {
    id: 'security-requirement-added',
    severity: 'breaking',
    detects: 'An operation that needed no authentication now needs it, or a security alternative is gone so fewer credentials work.',
    example: { before: 'security: [{ integrationBearer: [] }, { legacyApiKey: [], legacyOrgId: [] }]', after: 'security: [{ integrationBearer: [] }]' },
  },
  {
    id: 'security-requirement-removed',
    severity: 'info',
    detects: 'An operation needs less to authenticate: no authentication at all, or fewer schemes in an alternative.',
    example: { before: 'security: [{ integrationBearer: [] }]', after: 'security: []' },
  },
  {
    id: 'security-alternative-added',
    severity: 'info',
    detects: 'A new security alternative: one more way to authenticate.',
    example: { before: 'security: [{ integrationBearer: [] }]', after: 'security: [{ integrationBearer: [] }, { legacyApiKey: [], legacyOrgId: [] }]' },
  },
  {
    id: 'security-scope-added',
    severity: 'breaking',
    detects: 'A requirement needs a scope it did not need: tokens without it get 403.',
    example: { before: 'security: [{ integrationBearer: [] }]', after: "security: [{ integrationBearer: ['ship:upload'] }]" },
  },
  {
    id: 'security-scope-removed',
    severity: 'info',
    detects: 'A requirement no longer needs a scope.',
    example: { before: "security: [{ integrationBearer: ['ship:upload'] }]", after: 'security: [{ integrationBearer: [] }]' },
  },
  {
    id: 'security-scheme-changed',
    severity: 'breaking',
    detects: "A named security scheme changes how credentials are sent (type, in, name, scheme, OpenID or OAuth URLs).",
    example: { before: 'integrationKey: { type: apiKey, in: header, name: x-api-key }', after: 'integrationKey: { type: apiKey, in: header, name: x-integration-key }' },
  },
  {
    id: 'security-principal-type-removed',
    severity: 'breaking',
    detects: 'An operation accepts fewer principal types (x-principal-types): callers of the dropped type get 403.',
    example: { before: '(no x-principal-types: any principal)', after: 'x-principal-types: [integration]' },
  },
  {
    id: 'security-principal-type-added',
    severity: 'info',
    detects: 'An operation accepts more principal types (x-principal-types).',
    example: { before: 'x-principal-types: [integration]', after: 'x-principal-types: [integration, dashboard]' },
  },
  // Webhooks (the service sends, the integrator receives)
  {
    id: 'webhook-event-removed',
    severity: 'breaking',
    detects: 'A webhook event is no longer delivered without an expired deprecation.',
    example: { before: 'webhooks: { job.completed, job.failed }', after: 'webhooks: { job.completed }' },
  },
  {
    id: 'webhook-event-added',
    severity: 'info',
    detects: 'A new webhook event (sent only to receivers that subscribe to it).',
    example: { before: 'webhooks: { job.completed }', after: 'webhooks: { job.completed, job.failed }' },
  },
  {
    id: 'webhook-header-removed',
    severity: 'breaking',
    detects: 'A delivery header is no longer sent: receivers relying on it (signature, timestamp, delivery id) break.',
    example: { before: 'parameters: [{ name: X-SVC-Delivery-ID, in: header }]', after: 'parameters: []' },
  },
  {
    id: 'webhook-header-made-optional',
    severity: 'breaking',
    detects: 'A delivery header that was always sent becomes optional.',
    example: { before: '{ name: X-SVC-Attempt, in: header, required: true }', after: '{ name: X-SVC-Attempt, in: header, required: false }' },
  },
  {
    id: 'webhook-header-added',
    severity: 'info',
    detects: 'A new delivery header.',
    example: { before: 'parameters: []', after: 'parameters: [{ name: X-SVC-Attempt, in: header }]' },
  },
  {
    id: 'webhook-media-type-removed',
    severity: 'breaking',
    detects: 'A webhook payload media type is no longer sent (or the payload is gone).',
    example: { before: 'requestBody: { content: { application/json } }', after: 'requestBody: { content: { application/xml } }' },
  },
  {
    id: 'webhook-media-type-added',
    severity: 'info',
    detects: 'A webhook payload is also documented in a new media type.',
    example: { before: 'requestBody: { content: { application/json } }', after: 'requestBody: { content: { application/json, application/cloudevents+json } }' },
  },
  // Document
  {
    id: 'server-url-changed',
    severity: 'warning',
    detects: 'A server address (with its variable defaults) is gone or changed: configured clients call the old one.',
    example: { before: 'servers: [{ url: https://api.example.invalid }]', after: 'servers: [{ url: https://api2.example.invalid }]' },
  },
];

// ---------------------------------------------------------------------------------------------------------
// Walking

interface Operation {
  /** `GET /api/jobs/{id}` or `webhook job.completed`. */
  label: string;
  /** Matching key: method + path template with parameter names blanked, or the webhook name. */
  key: string;
  section: 'paths' | 'webhooks';
  path: string;
  method: string;
  node: JsonObject;
  /** Path-level parameters merged with operation-level ones (operation wins), dereferenced. */
  parameters: JsonObject[];
}

const normalizeTemplate = (template: string) => template.replace(/\{[^}]*\}/g, '{}');

function collectOperations(doc: OpenApiDocument, section: 'paths' | 'webhooks'): Map<string, Operation> {
  const found = new Map<string, Operation>();
  const items = doc[section];
  if (!isObject(items)) return found;
  for (const [path, rawItem] of Object.entries(items)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const methods = HTTP_METHODS.filter((method) => isObject(item[method]));
    for (const method of methods) {
      const node = item[method] as JsonObject;
      const label = section === 'paths' ? `${method.toUpperCase()} ${path}` : methods.length === 1 && method === 'post' ? `webhook ${path}` : `webhook ${path} ${method.toUpperCase()}`;
      const key = section === 'paths' ? `${method} ${normalizeTemplate(path)}` : `${method} ${path}`;
      found.set(key, { label, key, section, path, method, node, parameters: mergeParameters(doc, item.parameters, node.parameters) });
    }
  }
  return found;
}

function mergeParameters(doc: OpenApiDocument, pathLevel: Json | undefined, opLevel: Json | undefined): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const list of [pathLevel, opLevel]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = deref(doc, raw);
      if (!isObject(param) || typeof param.name !== 'string' || typeof param.in !== 'string') continue;
      merged.set(`${param.in}\u0000${param.in === 'header' ? param.name.toLowerCase() : param.name}`, param);
    }
  }
  return [...merged.values()];
}

export function diffDocuments(ctx: DiffContext): void {
  diffServers(ctx);
  diffSecuritySchemes(ctx);
  for (const section of ['paths', 'webhooks'] as const) {
    const base = collectOperations(ctx.base, section);
    const head = collectOperations(ctx.head, section);
    for (const [key, baseOp] of base) {
      const headOp = head.get(key);
      if (headOp) diffOperation(ctx, baseOp, headOp);
      else reportRemoval(ctx, baseOp.node, section === 'paths' ? 'operation-removed' : 'webhook-event-removed', {
        operation: baseOp.label,
        location: section === 'paths' ? 'operation' : 'event',
        message: section === 'paths' ? `${baseOp.label} is removed` : `webhook event ${baseOp.path} is no longer delivered`,
      });
    }
    for (const [key, headOp] of head) {
      if (base.has(key)) continue;
      ctx.emit(section === 'paths' ? 'operation-added' : 'webhook-event-added', {
        operation: headOp.label,
        location: section === 'paths' ? 'operation' : 'event',
        message: section === 'paths' ? `${headOp.label} is new` : `webhook event ${headOp.path} is new`,
      });
    }
  }
}

/** A removal: allowed (info `removal-after-sunset`) when BASE's node carried a complete, expired notice. */
function reportRemoval(ctx: DiffContext, baseNode: Json | undefined, ruleId: string, change: { operation: string; location: string; message: string; before?: Json }): void {
  const verdict = removalAllowed(readDeprecation(baseNode), ctx.date);
  if (verdict.allowed) ctx.emit('removal-after-sunset', { ...change, message: `${change.message}; allowed: ${verdict.reason}` });
  else ctx.emit(ruleId, { ...change, message: `${change.message}, and the removal is not allowed: ${verdict.reason}` });
}

function diffOperation(ctx: DiffContext, base: Operation, head: Operation): void {
  const operation = head.label;
  const webhook = head.section === 'webhooks';
  diffDeprecationNotice(ctx, base.node, head.node, operation, webhook ? 'event' : 'operation');
  if (!webhook) {
    const baseId = base.node.operationId;
    const headId = head.node.operationId;
    if (typeof baseId === 'string' && baseId !== headId) {
      ctx.emit('operation-id-changed', { operation, location: 'operationId', message: `operationId ${baseId} is now ${typeof headId === 'string' ? headId : '(none)'}`, before: baseId, after: headId ?? null });
    }
    diffExtensions(ctx, base.node, head.node, operation);
    diffSecurity(ctx, base.node, head.node, operation);
  }
  diffParameters(ctx, base, head);
  diffRequestBody(ctx, base, head);
  if (!webhook) diffResponses(ctx, base.node, head.node, operation);
}

// ---------------------------------------------------------------------------------------------------------
// Deprecation notices (operations and parameters; properties are the schema differ's)

const isDeprecated = (node: Json | undefined) => isObject(node) && (node.deprecated === true || isObject(node['x-deprecation']));

function diffDeprecationNotice(ctx: DiffContext, base: Json | undefined, head: Json | undefined, operation: string, location: string): void {
  const wasDeprecated = isDeprecated(base);
  const isNowDeprecated = isDeprecated(head);
  if (!wasDeprecated && !isNowDeprecated) return;
  const subject = location === 'operation' ? operation : location;
  if (wasDeprecated && !isNowDeprecated) {
    ctx.emit('deprecation-withdrawn', { operation, location, message: `${subject} is no longer deprecated`, before: notice(base), after: null });
    return;
  }
  const headNotice = readDeprecation(head);
  const headProblems = headNotice ? deprecationProblems(headNotice) : ['it is marked deprecated without an x-deprecation notice'];
  if (!wasDeprecated) {
    if (headProblems.length) ctx.emit('deprecation-incomplete', { operation, location, message: `${subject} is deprecated, but ${headProblems.join('; ')}`, after: notice(head) });
    else ctx.emit('deprecation-added', { operation, location, message: `${subject} is deprecated: sunset ${headNotice!.sunset}, replacement ${headNotice!.replacement}`, after: notice(head) });
    return;
  }
  const baseNotice = readDeprecation(base);
  const baseProblems = baseNotice ? deprecationProblems(baseNotice) : ['it is marked deprecated without an x-deprecation notice'];
  const newProblems = headProblems.filter((problem) => !baseProblems.includes(problem));
  if (newProblems.length) ctx.emit('deprecation-incomplete', { operation, location, message: `the deprecation of ${subject} changed, and ${newProblems.join('; ')}`, before: notice(base), after: notice(head) });
  const baseSunset = Date.parse(baseNotice?.sunset ?? '');
  const headSunset = Date.parse(headNotice?.sunset ?? '');
  if (!Number.isNaN(baseSunset) && !Number.isNaN(headSunset) && headSunset < baseSunset) {
    ctx.emit('sunset-moved-earlier', { operation, location, message: `the sunset of ${subject} moves from ${baseNotice!.sunset} to ${headNotice!.sunset}`, before: baseNotice!.sunset!, after: headNotice!.sunset! });
  }
}

const notice = (node: Json | undefined): Json => (isObject(node) ? (node['x-deprecation'] ?? node.deprecated ?? null) : null);

// ---------------------------------------------------------------------------------------------------------
// Vendor extensions of an operation

function diffExtensions(ctx: DiffContext, base: JsonObject, head: JsonObject, operation: string): void {
  const baseIdempotent = base['x-idempotent'] === true;
  const headIdempotent = head['x-idempotent'] === true;
  if (baseIdempotent && !headIdempotent) {
    ctx.emit('operation-idempotency-removed', { operation, location: 'x-idempotent', message: `${operation} is no longer idempotent: a retry with the same Idempotency-Key may run twice`, before: true, after: head['x-idempotent'] ?? null });
  } else if (!baseIdempotent && headIdempotent) {
    ctx.emit('operation-idempotency-added', { operation, location: 'x-idempotent', message: `${operation} is now idempotent (Idempotency-Key replays)`, before: base['x-idempotent'] ?? null, after: true });
  }

  const baseJob = base['x-job-type'];
  const headJob = head['x-job-type'];
  if (typeof baseJob === 'string' && typeof headJob === 'string' && baseJob !== headJob) {
    ctx.emit('operation-job-type-changed', { operation, location: 'x-job-type', message: `${operation} now creates ${headJob} jobs instead of ${baseJob}`, before: baseJob, after: headJob });
  }

  const baseTypes = stringList(base['x-accepted-file-types'], true);
  const headTypes = stringList(head['x-accepted-file-types'], true);
  if (baseTypes && headTypes) {
    const removed = baseTypes.filter((t) => !headTypes.includes(t));
    const added = headTypes.filter((t) => !baseTypes.includes(t));
    if (removed.length) ctx.emit('request-file-type-removed', { operation, location: 'x-accepted-file-types', message: `files ${removed.join(', ')} are no longer accepted (415)`, before: baseTypes, after: headTypes });
    if (added.length) ctx.emit('request-file-type-added', { operation, location: 'x-accepted-file-types', message: `files ${added.join(', ')} are now accepted`, before: baseTypes, after: headTypes });
  } else if (!baseTypes && headTypes) {
    ctx.emit('request-file-type-removed', { operation, location: 'x-accepted-file-types', message: `uploads are now limited to ${headTypes.join(', ')} (415 for others)`, before: null, after: headTypes });
  } else if (baseTypes && !headTypes) {
    ctx.emit('request-file-type-added', { operation, location: 'x-accepted-file-types', message: 'uploads are no longer limited to a list of file types', before: baseTypes, after: null });
  }

  const baseCap = typeof base['x-max-file-bytes'] === 'number' ? base['x-max-file-bytes'] : undefined;
  const headCap = typeof head['x-max-file-bytes'] === 'number' ? head['x-max-file-bytes'] : undefined;
  if (baseCap !== headCap) {
    const lowered = headCap !== undefined && (baseCap === undefined || headCap < baseCap);
    ctx.emit(lowered ? 'request-file-size-limit-decreased' : 'request-file-size-limit-increased', {
      operation,
      location: 'x-max-file-bytes',
      message: `the upload size cap goes from ${baseCap ?? 'none'} to ${headCap ?? 'none'} bytes${lowered ? ' (larger files now get 413)' : ''}`,
      before: baseCap ?? null,
      after: headCap ?? null,
    });
  }

  // Absent x-principal-types: any principal type.
  const basePrincipals = stringList(base['x-principal-types'], false);
  const headPrincipals = stringList(head['x-principal-types'], false);
  if (headPrincipals && (!basePrincipals || basePrincipals.some((t) => !headPrincipals.includes(t)))) {
    const dropped = basePrincipals ? basePrincipals.filter((t) => !headPrincipals.includes(t)).join(', ') : `every type but ${headPrincipals.join(', ')}`;
    ctx.emit('security-principal-type-removed', { operation, location: 'x-principal-types', message: `principal types no longer allowed: ${dropped} (403 PRINCIPAL_DENIED)`, before: basePrincipals ?? null, after: headPrincipals });
  }
  if (basePrincipals && (!headPrincipals || headPrincipals.some((t) => !basePrincipals.includes(t)))) {
    const added = headPrincipals ? headPrincipals.filter((t) => !basePrincipals.includes(t)).join(', ') : 'any type';
    ctx.emit('security-principal-type-added', { operation, location: 'x-principal-types', message: `principal types now allowed: ${added}`, before: basePrincipals, after: headPrincipals ?? null });
  }
}

function stringList(value: Json | undefined, lower: boolean): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === 'string').map((v) => (lower ? v.toLowerCase() : v));
}

// ---------------------------------------------------------------------------------------------------------
// Parameters

interface ParamEntry {
  param: JsonObject;
  in: string;
  name: string;
  /** Matching key: `path#<position in the template>` for path parameters (names are free), else in + name. */
  key: string;
}

function paramEntries(op: Operation): Map<string, ParamEntry> {
  const positions = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const entries = new Map<string, ParamEntry>();
  for (const param of op.parameters) {
    const name = param.name as string;
    const where = param.in as string;
    const position = where === 'path' ? positions.indexOf(name) : -1;
    const key = where === 'path' && position >= 0 ? `path#${position}` : `${where}.${where === 'header' ? name.toLowerCase() : name}`;
    entries.set(key, { param, in: where, name, key });
  }
  return entries;
}

const paramLocation = (entry: ParamEntry) => `${entry.in}.${entry.name}`;

function paramSchema(param: JsonObject): Json | undefined {
  if (param.schema !== undefined) return param.schema;
  if (isObject(param.content)) {
    const first = Object.values(param.content)[0];
    if (isObject(first)) return first.schema;
  }
  return undefined;
}

function serialization(param: JsonObject): { style: string; explode: boolean } | undefined {
  if (param.schema === undefined && isObject(param.content)) return undefined;
  const where = param.in as string;
  const style = typeof param.style === 'string' ? param.style : where === 'query' || where === 'cookie' ? 'form' : 'simple';
  const explode = typeof param.explode === 'boolean' ? param.explode : style === 'form';
  return { style, explode };
}

function diffParameters(ctx: DiffContext, base: Operation, head: Operation): void {
  const operation = head.label;
  const webhook = head.section === 'webhooks';
  const direction: Direction = webhook ? 'response' : 'request';
  const baseParams = paramEntries(base);
  const headParams = paramEntries(head);
  const removed = [...baseParams.values()].filter((p) => !headParams.has(p.key));
  const added = [...headParams.values()].filter((p) => !baseParams.has(p.key));

  // Same name, another location: one change, not a removal plus an addition.
  if (!webhook) {
    for (const gone of [...removed]) {
      const moved = added.find((p) => p.name.toLowerCase() === gone.name.toLowerCase() && p.in !== gone.in);
      if (!moved) continue;
      removed.splice(removed.indexOf(gone), 1);
      added.splice(added.indexOf(moved), 1);
      ctx.emit('parameter-location-changed', { operation, location: paramLocation(gone), message: `parameter ${gone.name} moves from ${gone.in} to ${moved.in}`, before: gone.in, after: moved.in });
      diffParameterSchema(ctx, gone, moved, operation, direction, paramLocation(moved));
    }
  }

  for (const gone of removed) {
    const location = paramLocation(gone);
    if (webhook) {
      reportRemoval(ctx, gone.param, 'webhook-header-removed', { operation, location, message: `delivery ${gone.in} ${gone.name} is no longer sent` });
    } else if (gone.in === 'query') {
      reportRemoval(ctx, gone.param, 'parameter-query-removed', { operation, location, message: `query parameter ${gone.name} is removed (the server ignores it)` });
    } else {
      reportRemoval(ctx, gone.param, 'parameter-removed', { operation, location, message: `${gone.in} parameter ${gone.name} is removed` });
    }
  }
  for (const fresh of added) {
    const location = paramLocation(fresh);
    const required = fresh.param.required === true;
    if (webhook) ctx.emit('webhook-header-added', { operation, location, message: `delivery ${fresh.in} ${fresh.name} is new${required ? ' (always sent)' : ''}` });
    else ctx.emit(required ? 'parameter-required-added' : 'parameter-optional-added', { operation, location, message: `new ${required ? 'required' : 'optional'} ${fresh.in} parameter ${fresh.name}` });
  }

  for (const [key, was] of baseParams) {
    const now = headParams.get(key);
    if (!now) continue;
    const location = paramLocation(now);
    const wasRequired = was.param.required === true;
    const isRequired = now.param.required === true;
    if (webhook) {
      if (wasRequired && !isRequired) ctx.emit('webhook-header-made-optional', { operation, location, message: `delivery ${now.in} ${now.name} is no longer always sent`, before: true, after: false });
    } else if (!wasRequired && isRequired) {
      ctx.emit('parameter-made-required', { operation, location, message: `${now.in} parameter ${now.name} becomes required`, before: false, after: true });
    } else if (wasRequired && !isRequired) {
      ctx.emit('parameter-made-optional', { operation, location, message: `${now.in} parameter ${now.name} becomes optional`, before: true, after: false });
    }
    if (!webhook) {
      const before = serialization(was.param);
      const after = serialization(now.param);
      if (before && after && (before.style !== after.style || before.explode !== after.explode)) {
        ctx.emit('parameter-style-changed', {
          operation,
          location,
          message: `${now.in} parameter ${now.name} is serialized as style ${after.style}, explode ${after.explode} (was ${before.style}, explode ${before.explode})`,
          before: before as unknown as Json,
          after: after as unknown as Json,
        });
      }
    }
    diffDeprecationNotice(ctx, was.param, now.param, operation, location);
    diffParameterSchema(ctx, was, now, operation, direction, location);
  }
}

function diffParameterSchema(ctx: DiffContext, was: ParamEntry, now: ParamEntry, operation: string, direction: Direction, location: string): void {
  const before = paramSchema(was.param);
  const after = paramSchema(now.param);
  if (before !== undefined && after !== undefined) schemaDiff(ctx, before, after, direction, operation, location);
}

// ---------------------------------------------------------------------------------------------------------
// Request bodies (webhook payloads: the same walk, judged from the receiver's side)

function mediaTypes(content: Json | undefined): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  if (!isObject(content)) return found;
  for (const [type, media] of Object.entries(content)) if (isObject(media)) found.set(type.toLowerCase(), media);
  return found;
}

function diffRequestBody(ctx: DiffContext, base: Operation, head: Operation): void {
  const operation = head.label;
  const webhook = head.section === 'webhooks';
  const before = deref(ctx.base, base.node.requestBody ?? null);
  const after = deref(ctx.head, head.node.requestBody ?? null);
  const baseBody = isObject(before) ? before : undefined;
  const headBody = isObject(after) ? after : undefined;
  if (!baseBody && !headBody) return;
  const baseMedia = mediaTypes(baseBody?.content);
  const headMedia = mediaTypes(headBody?.content);

  if (webhook) {
    for (const [type, media] of baseMedia) {
      if (!headMedia.has(type)) reportRemoval(ctx, media, 'webhook-media-type-removed', { operation, location: `payload ${type}`, message: headBody ? `the payload is no longer sent as ${type}` : 'the delivery no longer documents a payload' });
    }
    for (const type of headMedia.keys()) {
      if (!baseMedia.has(type)) ctx.emit('webhook-media-type-added', { operation, location: `payload ${type}`, message: `the payload is also sent as ${type}` });
    }
    for (const [type, media] of baseMedia) {
      const other = headMedia.get(type);
      if (other && media.schema !== undefined && other.schema !== undefined) schemaDiff(ctx, media.schema, other.schema, 'response', operation, `payload ${type}`);
    }
    return;
  }

  const wasRequired = baseBody?.required === true;
  const isRequired = headBody?.required === true;
  if (!baseBody && headBody) {
    ctx.emit(isRequired ? 'request-body-required-added' : 'request-body-optional-added', { operation, location: 'request body', message: `${operation} now takes ${isRequired ? 'a required' : 'an optional'} request body` });
    return;
  }
  if (baseBody && !headBody) {
    reportRemoval(ctx, baseBody, 'request-body-removed', { operation, location: 'request body', message: `${operation} no longer documents a request body (what clients send is ignored)` });
    return;
  }
  if (!wasRequired && isRequired) ctx.emit('request-body-made-required', { operation, location: 'request body', message: 'the request body becomes required', before: false, after: true });
  if (wasRequired && !isRequired) ctx.emit('request-body-made-optional', { operation, location: 'request body', message: 'the request body becomes optional', before: true, after: false });
  for (const [type, media] of baseMedia) {
    if (!headMedia.has(type)) reportRemoval(ctx, media, 'request-media-type-removed', { operation, location: `request body ${type}`, message: `request bodies of type ${type} are no longer accepted` });
  }
  for (const type of headMedia.keys()) {
    if (!baseMedia.has(type)) ctx.emit('request-media-type-added', { operation, location: `request body ${type}`, message: `request bodies of type ${type} are now accepted` });
  }
  for (const [type, media] of baseMedia) {
    const other = headMedia.get(type);
    if (other && media.schema !== undefined && other.schema !== undefined) schemaDiff(ctx, media.schema, other.schema, 'request', operation, `request body ${type}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Responses

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

function diffResponses(ctx: DiffContext, base: JsonObject, head: JsonObject, operation: string): void {
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

// ---------------------------------------------------------------------------------------------------------
// Security

type Alternative = Map<string, Set<string>>; // scheme -> required scopes

function effectiveSecurity(doc: OpenApiDocument, op: JsonObject): Alternative[] {
  const declared = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  const alternatives = declared.filter(isObject).map((requirement) => new Map(Object.entries(requirement).map(([scheme, scopes]) => [scheme, new Set(Array.isArray(scopes) ? scopes.map(String) : [])])));
  return alternatives.length ? alternatives : [new Map()]; // nothing declared: no authentication
}

const schemesKey = (alt: Alternative) => [...alt.keys()].sort().join(' + ');
const describe = (alt: Alternative) => (alt.size ? [...alt].map(([scheme, scopes]) => (scopes.size ? `${scheme} [${[...scopes].join(', ')}]` : scheme)).join(' + ') : 'no authentication');
const securityJson = (alts: Alternative[]): Json => alts.map((alt) => Object.fromEntries([...alt].map(([scheme, scopes]) => [scheme, [...scopes]])));

/** Whether a client satisfying `strong` also satisfies `weak` (weak's schemes and scopes are a subset). */
function satisfies(strong: Alternative, weak: Alternative): boolean {
  for (const [scheme, scopes] of weak) {
    const have = strong.get(scheme);
    if (!have || [...scopes].some((scope) => !have.has(scope))) return false;
  }
  return true;
}

function diffSecurity(ctx: DiffContext, base: JsonObject, head: JsonObject, operation: string): void {
  const before = effectiveSecurity(ctx.base, base);
  const after = effectiveSecurity(ctx.head, head);
  const change = (location: string, message: string) => ({ operation, location, message, before: securityJson(before), after: securityJson(after) });
  const headByKey = new Map(after.map((alt) => [schemesKey(alt), alt]));
  const baseKeys = new Set(before.map(schemesKey));
  for (const alt of before) {
    const key = schemesKey(alt);
    const same = headByKey.get(key);
    if (same) {
      for (const [scheme, scopes] of same) {
        const had = alt.get(scheme)!;
        const added = [...scopes].filter((scope) => !had.has(scope));
        const removed = [...had].filter((scope) => !scopes.has(scope));
        const location = same.size > 1 ? `security ${key} (${scheme})` : `security ${scheme}`;
        if (added.length) ctx.emit('security-scope-added', change(location, `${scheme} now requires scope ${added.join(', ')}`));
        if (removed.length) ctx.emit('security-scope-removed', change(location, `${scheme} no longer requires scope ${removed.join(', ')}`));
      }
      continue;
    }
    if (after.some((other) => satisfies(alt, other))) {
      const relaxed = after.find((other) => satisfies(alt, other))!;
      // A client of the old alternative still gets in, with less.
      if (!baseKeys.has(schemesKey(relaxed))) ctx.emit('security-requirement-removed', change(`security ${key || 'none'}`, `${describe(alt)} is relaxed to ${describe(relaxed)}`));
      continue;
    }
    ctx.emit('security-requirement-added', change(`security ${key || 'none'}`, alt.size ? `${describe(alt)} is no longer accepted; accepted: ${after.map(describe).join(' or ')}` : `${operation} now requires authentication: ${after.map(describe).join(' or ')}`));
  }
  for (const alt of after) {
    const key = schemesKey(alt);
    if (baseKeys.has(key)) continue;
    if (before.some((old) => satisfies(old, alt))) continue; // reported above as a relaxation
    if (before.some((old) => satisfies(alt, old))) continue; // stricter than an old way: adds no new way in
    ctx.emit('security-alternative-added', change(`security ${key || 'none'}`, `${describe(alt)} is a new way to authenticate`));
  }
}

const SCHEME_FIELDS = ['type', 'in', 'name', 'scheme', 'openIdConnectUrl'] as const;
const FLOW_URLS = ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const;

function diffSecuritySchemes(ctx: DiffContext): void {
  const baseSchemes = isObject(ctx.base.components?.securitySchemes) ? ctx.base.components.securitySchemes : {};
  const headSchemes = isObject(ctx.head.components?.securitySchemes) ? ctx.head.components.securitySchemes : {};
  for (const [name, raw] of Object.entries(baseSchemes)) {
    if (!(name in headSchemes)) continue; // a removed scheme shows in the operations that used it
    const before = deref(ctx.base, raw);
    const after = deref(ctx.head, headSchemes[name]);
    if (!isObject(before) || !isObject(after)) continue;
    const changed: string[] = [];
    for (const field of SCHEME_FIELDS) {
      const a = typeof before[field] === 'string' ? (field === 'scheme' ? (before[field] as string).toLowerCase() : before[field]) : undefined;
      const b = typeof after[field] === 'string' ? (field === 'scheme' ? (after[field] as string).toLowerCase() : after[field]) : undefined;
      if (a !== b) changed.push(`${field} ${a ?? '(none)'} -> ${b ?? '(none)'}`);
    }
    const baseFlows = isObject(before.flows) ? before.flows : {};
    const headFlows = isObject(after.flows) ? after.flows : {};
    for (const flow of new Set([...Object.keys(baseFlows), ...Object.keys(headFlows)])) {
      const a = baseFlows[flow];
      const b = headFlows[flow];
      if (!isObject(b)) changed.push(`flow ${flow} removed`);
      else if (isObject(a)) for (const url of FLOW_URLS) if (a[url] !== b[url]) changed.push(`flow ${flow} ${url} ${String(a[url] ?? '(none)')} -> ${String(b[url] ?? '(none)')}`);
    }
    if (changed.length) ctx.emit('security-scheme-changed', { operation: 'document', location: `securityScheme ${name}`, message: `security scheme ${name} changes: ${changed.join('; ')}`, before, after });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Servers

function serverUrls(doc: OpenApiDocument): string[] {
  if (!Array.isArray(doc.servers)) return [];
  return doc.servers.filter(isObject).map((server) => {
    const variables = isObject(server.variables) ? server.variables : {};
    return String(server.url ?? '').replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
    });
  });
}

function diffServers(ctx: DiffContext): void {
  const before = serverUrls(ctx.base);
  const after = serverUrls(ctx.head);
  for (const url of before) {
    if (!after.includes(url)) ctx.emit('server-url-changed', { operation: 'document', location: `servers ${url}`, message: `server ${url} is gone; servers now: ${after.join(', ') || '(none)'}`, before, after });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Schemas: handed to the schema differ, unless both sides are the same after following references (the
// common case, and it keeps comparing a version with itself fast).

const equalRefs = new WeakMap<DiffContext, Map<string, boolean>>();

function schemaDiff(ctx: DiffContext, base: Json, head: Json, direction: Direction, operation: string, location: string): void {
  if (sameResolved(ctx, base, head)) return;
  diffSchema(ctx, base, head, { direction, operation, location });
}

/** Deep equality of two schemas, following `$ref`s on each side in its own document. A reference met again
 *  while it is being compared is assumed equal (recursive schemas); a result is cached only when it did not
 *  rest on such an assumption about a reference still open further up. */
function sameResolved(ctx: DiffContext, base: Json, head: Json): boolean {
  let cache = equalRefs.get(ctx);
  if (!cache) equalRefs.set(ctx, (cache = new Map()));
  const known = cache;
  const open: string[] = [];
  let lowestAssumed = Infinity; // smallest index in `open` whose assumption was used
  const equal = (a: Json, b: Json): boolean => {
    if (isObject(a) && isObject(b) && typeof a.$ref === 'string' && typeof b.$ref === 'string') {
      const { $ref: ref, ...restA } = a;
      const { $ref: refB, ...restB } = b;
      if (ref !== refB || !equal(restA, restB)) return false;
      const cached = known.get(ref as string);
      if (cached !== undefined) return cached;
      const index = open.indexOf(ref as string);
      if (index >= 0) {
        lowestAssumed = Math.min(lowestAssumed, index);
        return true;
      }
      const outerAssumed = lowestAssumed;
      lowestAssumed = Infinity;
      open.push(ref as string);
      const result = equal(deref(ctx.base, { $ref: ref }), deref(ctx.head, { $ref: ref }));
      const self = open.length - 1;
      open.pop();
      // false is always sound; true only when no reference above this one was assumed equal.
      if (!result || lowestAssumed >= self) known.set(ref as string, result);
      lowestAssumed = Math.min(outerAssumed, lowestAssumed >= self ? Infinity : lowestAssumed);
      return result;
    }
    if (a === b) return true;
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
    if (isObject(a)) {
      if (!isObject(b)) return false;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      return keys.every((key) => key in b && equal(a[key], b[key]));
    }
    return false;
  };
  return equal(base, head);
}
