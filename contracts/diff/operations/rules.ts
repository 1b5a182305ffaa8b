// The catalogue of operation and document rules (CHANGE-RULES.md is generated from it, in this order), grouped
// by area: operations and paths, parameters, request body, responses, error codes, security, webhooks, document.
import { rule, type Rule } from '../types.js';

export const operationRules: Rule[] = [
  // Operations and paths
  rule('operation-removed', 'breaking', 'An operation (method + path template) is gone without a complete deprecation whose sunset has passed.', 'GET /api/ship/audit', '(no GET /api/ship/audit)'),
  rule('operation-added', 'info', 'A new operation (method + path template).', '(no POST /api/trade/classify)', 'POST /api/trade/classify'),
  rule('operation-id-changed', 'warning', 'The operationId of an operation changes (generated clients rename the method).', 'operationId: listJobs', 'operationId: getJobs'),
  rule('operation-idempotency-removed', 'breaking', 'An operation stops being idempotent (x-idempotent true becomes false or absent): retries with an Idempotency-Key no longer replay.', 'x-idempotent: true', 'x-idempotent: false'),
  rule('operation-idempotency-added', 'info', 'An operation becomes idempotent (x-idempotent: true).', '(no x-idempotent)', 'x-idempotent: true'),
  rule('operation-job-type-changed', 'breaking', 'An enqueue operation creates a job of another type (x-job-type): clients filtering or dispatching on the job type miss it.', 'x-job-type: sima_validation', 'x-job-type: catalog_upload'),
  // Parameters
  rule('parameter-required-added', 'breaking', 'A new required parameter: existing calls do not send it.', 'parameters: []', 'parameters: [{ name: tenant, in: query, required: true }]'),
  rule('parameter-optional-added', 'info', 'A new optional parameter.', 'parameters: []', 'parameters: [{ name: status, in: query }]'),
  rule('parameter-removed', 'breaking', 'A path, header or cookie parameter is removed without an expired deprecation (a removed query parameter is reported as a warning: the server ignores it).', 'parameters: [{ name: Idempotency-Key, in: header }]', 'parameters: []'),
  rule('parameter-query-removed', 'warning', 'A query parameter is removed without an expired deprecation: calls still work, but the server ignores what they send.', 'parameters: [{ name: status, in: query }]', 'parameters: []'),
  rule('parameter-made-required', 'breaking', 'An optional parameter becomes required.', '{ name: limit, in: query, required: false }', '{ name: limit, in: query, required: true }'),
  rule('parameter-made-optional', 'info', 'A required parameter becomes optional.', '{ name: limit, in: query, required: true }', '{ name: limit, in: query, required: false }'),
  rule('parameter-location-changed', 'breaking', 'A parameter moves to another location (query, header, path, cookie) under the same name.', '{ name: tenant, in: query }', '{ name: tenant, in: header }'),
  rule('parameter-style-changed', 'breaking', 'The serialization (style or explode) of a parameter changes, so the server reads values differently.', '{ name: ids, in: query, style: form, explode: true }', '{ name: ids, in: query, style: form, explode: false }'),
  // Request body
  rule('request-body-required-added', 'breaking', 'A required request body where there was none.', '(no requestBody)', 'requestBody: { required: true, ... }'),
  rule('request-body-optional-added', 'info', 'An optional request body where there was none.', '(no requestBody)', 'requestBody: { required: false, ... }'),
  rule('request-body-removed', 'warning', 'The request body is no longer documented: what clients send is ignored.', 'requestBody: { ... }', '(no requestBody)'),
  rule('request-body-made-required', 'breaking', 'An optional request body becomes required.', 'requestBody: { required: false }', 'requestBody: { required: true }'),
  rule('request-body-made-optional', 'info', 'A required request body becomes optional.', 'requestBody: { required: true }', 'requestBody: { required: false }'),
  rule('request-media-type-removed', 'breaking', 'A request media type is no longer accepted.', 'content: { application/json, application/x-www-form-urlencoded }', 'content: { application/json }'),
  rule('request-media-type-added', 'info', 'A new request media type is accepted.', 'content: { application/json }', 'content: { application/json, text/csv }'),
  rule('request-file-type-removed', 'breaking', 'An upload no longer accepts a file extension (x-accepted-file-types): such files now get 415.', 'x-accepted-file-types: [.csv, .xlsx, .xls]', 'x-accepted-file-types: [.csv, .xlsx]'),
  rule('request-file-type-added', 'info', 'An upload accepts a new file extension (x-accepted-file-types).', 'x-accepted-file-types: [.csv]', 'x-accepted-file-types: [.csv, .xlsx]'),
  rule('request-file-size-limit-decreased', 'breaking', 'The upload size cap (x-max-file-bytes) is lowered or introduced: files that were accepted now get 413.', 'x-max-file-bytes: 52428800', 'x-max-file-bytes: 10485760'),
  rule('request-file-size-limit-increased', 'info', 'The upload size cap (x-max-file-bytes) is raised or dropped.', 'x-max-file-bytes: 10485760', 'x-max-file-bytes: 52428800'),
  // Responses
  rule('response-success-status-removed', 'breaking', 'A documented success (2xx, 3xx) status is gone: clients handling it never see it again, or get something else instead.', 'responses: { 200, 202 }', 'responses: { 202 }'),
  rule('response-success-status-added', 'warning', 'A new success (2xx, 3xx) status a client may not handle.', 'responses: { 200 }', 'responses: { 200, 202 }'),
  rule('response-error-status-added', 'warning', 'A new error (4xx, 5xx, default) status a client may not expect.', 'responses: { 200, 400 }', 'responses: { 200, 400, 409 }'),
  rule('response-error-status-removed', 'info', 'An error (4xx, 5xx, default) status is no longer documented.', 'responses: { 200, 409 }', 'responses: { 200 }'),
  rule('response-media-type-removed', 'breaking', 'A response media type is no longer sent for a status.', "'200': { content: { application/json, text/csv } }", "'200': { content: { application/json } }"),
  rule('response-media-type-added', 'info', 'A new response media type for a status (served on content negotiation).', "'200': { content: { application/json } }", "'200': { content: { application/json, text/csv } }"),
  rule('response-header-removed', 'breaking', 'A response header is no longer sent (breaking when it was required; a warning for an optional one).', "'429': { headers: { Retry-After: { required: true } } }", "'429': { headers: {} }"),
  rule('response-optional-header-removed', 'warning', 'An optional response header is no longer documented: clients reading it when present lose it.', "'200': { headers: { X-Deprecation-Hint: {} } }", "'200': { headers: {} }"),
  rule('response-header-made-optional', 'breaking', 'A required response header becomes optional: clients relying on it may not get it.', 'Retry-After: { required: true }', 'Retry-After: { required: false }'),
  rule('response-header-added', 'info', 'A new response header.', "'200': { headers: {} }", "'200': { headers: { X-Deprecation-Hint: {} } }"),
  // Error codes
  rule('error-code-added', 'warning', 'An error response allows a new `code` (or no longer restricts it): clients switching on the code meet one they do not know.', "'409': code enum [ACTION_NOT_ALLOWED]", "'409': code enum [ACTION_NOT_ALLOWED, DUPLICATE_UPLOAD]", ['response-enum-value-added', 'response-enum-removed']),
  rule('error-code-removed', 'info', 'An error response no longer allows a `code`.', "'401': code enum [INVALID_TOKEN, INVALID_API_KEY]", "'401': code enum [INVALID_TOKEN]", ['response-enum-value-removed']),
  // Security
  rule('security-requirement-added', 'breaking', 'An operation that needed no authentication now needs it, or a security alternative is gone so fewer credentials work.', 'security: [{ integrationBearer: [] }, { legacyApiKey: [], legacyOrgId: [] }]', 'security: [{ integrationBearer: [] }]'),
  rule('security-requirement-removed', 'info', 'An operation needs less to authenticate: no authentication at all, or fewer schemes in an alternative.', 'security: [{ integrationBearer: [] }]', 'security: []'),
  rule('security-alternative-added', 'info', 'A new security alternative: one more way to authenticate.', 'security: [{ integrationBearer: [] }]', 'security: [{ integrationBearer: [] }, { legacyApiKey: [], legacyOrgId: [] }]'),
  rule('security-scope-added', 'breaking', 'A requirement needs a scope it did not need: tokens without it get 403.', 'security: [{ integrationBearer: [] }]', "security: [{ integrationBearer: ['ship:upload'] }]"),
  rule('security-scope-removed', 'info', 'A requirement no longer needs a scope.', "security: [{ integrationBearer: ['ship:upload'] }]", 'security: [{ integrationBearer: [] }]'),
  rule('security-scheme-changed', 'breaking', 'A named security scheme changes how credentials are sent (type, in, name, scheme, OpenID or OAuth URLs).', 'integrationKey: { type: apiKey, in: header, name: x-api-key }', 'integrationKey: { type: apiKey, in: header, name: x-integration-key }'),
  rule('security-principal-type-removed', 'breaking', 'An operation accepts fewer principal types (x-principal-types): callers of the dropped type get 403.', '(no x-principal-types: any principal)', 'x-principal-types: [integration]'),
  rule('security-principal-type-added', 'info', 'An operation accepts more principal types (x-principal-types).', 'x-principal-types: [integration]', 'x-principal-types: [integration, dashboard]'),
  // Webhooks (the service sends, the integrator receives)
  rule('webhook-event-removed', 'breaking', 'A webhook event is no longer delivered without an expired deprecation.', 'webhooks: { job.completed, job.failed }', 'webhooks: { job.completed }'),
  rule('webhook-event-added', 'info', 'A new webhook event (sent only to receivers that subscribe to it).', 'webhooks: { job.completed }', 'webhooks: { job.completed, job.failed }'),
  rule('webhook-header-removed', 'breaking', 'A delivery header is no longer sent: receivers relying on it (signature, timestamp, delivery id) break.', 'parameters: [{ name: X-SVC-Delivery-ID, in: header }]', 'parameters: []'),
  rule('webhook-header-made-optional', 'breaking', 'A delivery header that was always sent becomes optional.', '{ name: X-SVC-Attempt, in: header, required: true }', '{ name: X-SVC-Attempt, in: header, required: false }'),
  rule('webhook-header-added', 'info', 'A new delivery header.', 'parameters: []', 'parameters: [{ name: X-SVC-Attempt, in: header }]'),
  rule('webhook-media-type-removed', 'breaking', 'A webhook payload media type is no longer sent (or the payload is gone).', 'requestBody: { content: { application/json } }', 'requestBody: { content: { application/xml } }'),
  rule('webhook-media-type-added', 'info', 'A webhook payload is also documented in a new media type.', 'requestBody: { content: { application/json } }', 'requestBody: { content: { application/json, application/cloudevents+json } }'),
  // Document
  rule('server-url-changed', 'warning', 'A server address (with its variable defaults) is gone or changed: configured clients call the old one.', 'servers: [{ url: https://api.example.invalid }]', 'servers: [{ url: https://api2.example.invalid }]'),
];
