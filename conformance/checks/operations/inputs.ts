// What an operation takes, read from the contract: its path, query and header parameters, its request
// body (JSON or multipart, with the binary field of an upload), and how it authenticates (spec 5).
import { isObject, type Json, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { mediaExample } from '../../../contracts/lib/example-request.js';
import { deref, type ContractOperation } from '../../../contracts/lib/operations.js';
import { hasSandboxShape } from '../../../contracts/lib/sandbox-defined.js';
import { flatten } from '../../harness/schema-arbitraries/resolve.js';

interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  example?: Json;
  sandboxDefined: boolean;
}

export interface BodySpec {
  mediaType: string;
  multipart: boolean;
  required: boolean;
  schema: Json;
  example?: Json;
  sandboxDefined: boolean;
  /** Multipart: the binary property (`file`). */
  fileField?: string;
}

export type AuthKind = 'bearer' | 'none' | 'integration-key';

export interface OperationInputs {
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
      sandboxDefined: hasSandboxShape(param) || hasSandboxShape(flatten(doc, schema)),
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
        sandboxDefined: hasSandboxShape(flat),
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

export const isRead = (op: ContractOperation) => op.method === 'get' || op.method === 'head';
