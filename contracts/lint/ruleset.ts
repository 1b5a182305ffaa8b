// Our Spectral ruleset: Spectral's OpenAPI recommendations plus the house rules this contract promises
// (operation ids, one error envelope, section-7 codes only, pagination bounds on every list).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Spectral, Document, type RulesetDefinition, type IRuleResult } from '@stoplight/spectral-core';
import parsersModule from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { CONTRACTS_DIR, isObject, type Json, type OpenApiDocument } from '../lib/bundle.js';

/** Spec section 7: code -> the HTTP status it is sent with. */
const ERROR_CODE_STATUS: Record<string, number> = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(path.join(CONTRACTS_DIR, 'error-codes.json'), 'utf8')) as Record<string, unknown>).filter(
    (entry): entry is [string, number] => typeof entry[1] === 'number',
  ),
);

type Finding = { message: string; path?: Array<string | number> };

const isEnvelope = (schema: Json): boolean =>
  isObject(schema) &&
  (schema.title === 'ErrorEnvelope' || (Array.isArray(schema.allOf) && schema.allOf.some((part) => isEnvelope(part))));

/** The `code` values an error response schema allows: the enum that narrows the envelope. */
function declaredErrorCodes(schema: Json): string[] | undefined {
  if (!isObject(schema)) return undefined;
  const code = isObject(schema.properties) ? schema.properties.code : undefined;
  if (isObject(code) && Array.isArray(code.enum)) return code.enum.filter((c): c is string => typeof c === 'string');
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      const codes = declaredErrorCodes(part);
      if (codes) return codes;
    }
  }
  return undefined;
}

function errorSchemas(response: Json): Array<[string, Json]> {
  if (!isObject(response) || !isObject(response.content)) return [];
  return Object.entries(response.content).map(([mediaType, media]) => [mediaType, isObject(media) ? media.schema ?? null : null]);
}

function errorResponsesUseEnvelope(response: Json): Finding[] {
  const found: Finding[] = [];
  const schemas = errorSchemas(response);
  if (schemas.length === 0) return [{ message: 'error response has no body; it must carry the error envelope' }];
  for (const [mediaType, schema] of schemas) {
    if (!isEnvelope(schema)) found.push({ message: `${mediaType} body is not the error envelope`, path: ['content', mediaType, 'schema'] });
  }
  return found;
}

function errorCodesFromSection7(response: Json, _options: unknown, context: { path: Array<string | number> }): Finding[] {
  const status = Number(context.path[context.path.length - 1]);
  const found: Finding[] = [];
  for (const [mediaType, schema] of errorSchemas(response)) {
    const codes = declaredErrorCodes(schema);
    if (!codes || codes.length === 0) {
      found.push({ message: `${status} response does not name its error codes (enum on code)`, path: ['content', mediaType, 'schema'] });
      continue;
    }
    for (const code of codes) {
      if (!(code in ERROR_CODE_STATUS)) found.push({ message: `${code} is not a section-7 error code` });
      else if (ERROR_CODE_STATUS[code] !== status) found.push({ message: `${code} is sent with ${ERROR_CODE_STATUS[code]}, not ${status}` });
    }
  }
  return found;
}

function operationIdsUnique(paths: Json): Finding[] {
  const seen = new Map<string, string>();
  const found: Finding[] = [];
  if (!isObject(paths)) return found;
  for (const [route, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const where = `${method.toUpperCase()} ${route}`;
      const earlier = seen.get(operation.operationId);
      if (earlier) found.push({ message: `operationId ${operation.operationId} is used by ${earlier} and ${where}`, path: [route, method, 'operationId'] });
      seen.set(operation.operationId, where);
    }
  }
  return found;
}

function paginationBounds(parameter: Json): Finding[] {
  if (!isObject(parameter) || parameter.in !== 'query' || !isObject(parameter.schema)) return [];
  const schema = parameter.schema;
  if (parameter.name === 'limit') {
    const missing = ['minimum', 'maximum'].filter((key) => typeof schema[key] !== 'number');
    if (missing.length) return [{ message: `limit has no ${missing.join(' or ')}` }];
    if ((schema.minimum as number) < 1) return [{ message: 'limit minimum must be at least 1' }];
  }
  if (parameter.name === 'offset' && (schema.minimum !== 0 || schema.type !== 'integer')) {
    return [{ message: 'offset must be an integer with minimum 0' }];
  }
  return [];
}

function listsArePaginated(operation: Json): Finding[] {
  // A GET whose 200 body carries `hasMore` is a page: it must take bounded limit and offset parameters.
  if (!isObject(operation) || !isObject(operation.responses)) return [];
  const ok = operation.responses['200'];
  const schema = isObject(ok) && isObject(ok.content) && isObject(ok.content['application/json']) ? ok.content['application/json'].schema : null;
  if (!JSON.stringify(schema ?? {}).includes('"hasMore"')) return [];
  const names = new Set((Array.isArray(operation.parameters) ? operation.parameters : []).map((p) => (isObject(p) ? p.name : undefined)));
  return ['limit', 'offset'].filter((name) => !names.has(name)).map((name) => ({ message: `paged list has no ${name} parameter` }));
}

// The parsers package is CommonJS without named-export hints, so its exports sit on the default import.
const Parsers = parsersModule as unknown as typeof import('@stoplight/spectral-parsers');

function securitySchemesDefined(doc: Json): Finding[] {
  if (!isObject(doc)) return [];
  const declared = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const requirements: Array<[Json, Array<string | number>]> = [[doc.security ?? [], ['security']]];
  for (const [route, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
      if (isObject(operation) && operation.security) requirements.push([operation.security, ['paths', route, method, 'security']]);
    }
  }
  const found: Finding[] = [];
  for (const [list, at] of requirements) {
    for (const requirement of Array.isArray(list) ? list : []) {
      for (const name of Object.keys(isObject(requirement) ? requirement : {})) {
        if (!(name in declared)) found.push({ message: `security scheme ${name} is not declared`, path: at });
      }
    }
  }
  return found;
}

const OPERATIONS = '$.paths[*][get,put,post,delete,patch,options,head,trace]';

const contractRuleset: RulesetDefinition = {
  extends: [[oas as RulesetDefinition, 'recommended']],
  rules: {
    // Our descriptions live on the tag and summary; requiring one per operation adds noise, not meaning.
    'operation-description': 'off',
    // OpenAPI 3.1 lets a non-OAuth requirement list role names; we use it for the required scope
    // (`integrationBearer: [ship:upload]`, spec 5.4). Spectral's rule accepts OAuth flow scopes only, so our
    // own rule below checks what still matters: every scheme a requirement names is declared.
    'oas3-operation-security-defined': 'off',
    'tfas-security-schemes-defined': {
      description: 'Every security requirement names a declared security scheme.',
      severity: 'error',
      given: '$',
      then: { function: securitySchemesDefined },
    },
    'tfas-operation-id-present': {
      description: 'Every operation has an operationId that names the action.',
      severity: 'error',
      given: OPERATIONS,
      then: { field: 'operationId', function: (value: unknown) => (typeof value === 'string' && /^[a-z][a-zA-Z0-9]+$/.test(value) ? [] : [{ message: 'operationId missing or not lowerCamelCase' }]) },
    },
    'tfas-operation-id-unique': {
      description: 'operationIds are unique across the document.',
      severity: 'error',
      given: '$.paths',
      then: { function: operationIdsUnique },
    },
    'tfas-error-responses-use-envelope': {
      description: 'Every 4xx/5xx response body is the error envelope { code, message, details? }.',
      severity: 'error',
      given: `${OPERATIONS}.responses[?(@property.match(/^[45]/))]`,
      then: { function: errorResponsesUseEnvelope },
    },
    'tfas-error-codes-from-section-7': {
      description: 'Every documented error code is a section-7 code sent with that HTTP status.',
      severity: 'error',
      given: `${OPERATIONS}.responses[?(@property.match(/^[45]/))]`,
      then: { function: errorCodesFromSection7 },
    },
    'tfas-pagination-bounds': {
      description: 'limit has a minimum (>= 1) and a maximum; offset is an integer >= 0.',
      severity: 'error',
      given: `${OPERATIONS}.parameters[*]`,
      then: { function: paginationBounds },
    },
    'tfas-lists-are-paginated': {
      description: 'A list that reports hasMore takes limit and offset.',
      severity: 'error',
      given: '$.paths[*].get',
      then: { function: listsArePaginated },
    },
  },
};

/** Lints a bundled document; results at severity error (0) and warning (1) are failures for us. */
export async function lintContract(doc: OpenApiDocument, name = 'openapi.json'): Promise<IRuleResult[]> {
  const spectral = new Spectral();
  spectral.setRuleset(contractRuleset);
  const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json, name));
  return results.filter((result) => result.severity <= 1);
}
