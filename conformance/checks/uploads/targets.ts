// What the contract says about each upload operation: the multipart operations carrying `x-max-file-bytes`,
// with what they accept (`x-accepted-file-types`), the job they create (`x-job-type`), their form fields, the
// scopes of their security requirement and the codes of their documented 409. Never written here.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { mediaExample } from '../../../contracts/lib/example-request.js';
import { deref, type ContractOperation } from '../../../contracts/lib/operations.js';
import type { CheckContext } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import { specDefault } from '../../../contracts/lib/sandbox-defined.js';
import { flatten } from '../../harness/schema-arbitraries.js';

export interface UploadOperation {
  op: ContractOperation;
  operationId: string;
  path: string;
  /** `x-max-file-bytes` (spec 8.3: 50 MB). */
  maxBytes: number;
  /** `x-accepted-file-types`, lower-case extensions with their dot (decision 7). */
  accepted: string[];
  /** `x-job-type` (decision 6). */
  jobType?: string;
  /** The binary form field (spec 4.3: `file`). */
  fileField: string;
  /** The other required form fields, valued from the contract's example (e.g. the feed's originCountry). */
  fields: Record<string, string | string[]>;
  /** Required fields the contract gives no value for (the operation cannot be exercised). */
  unvalued: string[];
  /** Optional form fields with a default the spec gives (not `x-sandbox-defined-default`): what an omission means. */
  defaults: Record<string, string>;
  /** Scopes of the operation's security requirement (spec 5.4: ship:upload on carrier agreements). */
  scopes: string[];
  /** Error codes the documented 409 answer allows. */
  conflictCodes: string[];
}

/** The upload operations of the contract: multipart operations carrying `x-max-file-bytes`. */
export function uploadOperations(contract: LoadedContract): UploadOperation[] {
  const doc = contract.doc;
  const found: UploadOperation[] = [];
  for (const op of contract.operations) {
    const maxBytes = op.operation['x-max-file-bytes'];
    if (typeof maxBytes !== 'number') continue;
    const body = deref(doc, op.operation.requestBody ?? null);
    const media = isObject(body) && isObject(body.content) ? body.content['multipart/form-data'] : undefined;
    if (!isObject(media)) continue;
    const schema = flatten(doc, (media.schema ?? {}) as Json);
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const fileField = Object.keys(properties).find((name) => flatten(doc, properties[name]).format === 'binary') ?? 'file';
    const example = mediaExample(doc, media);
    const fields: Record<string, string | string[]> = {};
    const unvalued: string[] = [];
    for (const name of required) {
      if (name === fileField) continue;
      const value = formValue(isObject(example) ? example[name] : undefined) ?? formValue(exampleOf(flatten(doc, properties[name])));
      if (value === undefined) unvalued.push(name);
      else fields[name] = value;
    }
    const defaults: Record<string, string> = {};
    for (const name of Object.keys(properties)) {
      if (name === fileField || required.includes(name)) continue;
      const node = properties[name];
      const given = isObject(node) && 'default' in node ? specDefault(node) : specDefault(flatten(doc, node));
      if (typeof given === 'string') defaults[name] = given;
    }
    const accepted = Array.isArray(op.operation['x-accepted-file-types']) ? (op.operation['x-accepted-file-types'] as Json[]).map((t) => String(t).toLowerCase()) : [];
    const jobType = op.operation['x-job-type'];
    found.push({
      op,
      operationId: op.operationId,
      path: op.path,
      maxBytes,
      accepted,
      jobType: typeof jobType === 'string' ? jobType : undefined,
      fileField,
      fields,
      unvalued,
      defaults,
      scopes: requiredScopes(doc, op),
      conflictCodes: documentedCodes(doc, op, '409'),
    });
  }
  return found;
}

const exampleOf = (schema: JsonObject): Json | undefined =>
  'example' in schema ? schema.example : Array.isArray(schema.enum) && schema.enum.length ? schema.enum[0] : 'default' in schema ? schema.default : undefined;

function formValue(value: Json | undefined): string | string[] | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map(String);
  return undefined;
}

/** Scopes named by the operation's (or the document's) first security requirement. */
function requiredScopes(doc: OpenApiDocument, op: ContractOperation): string[] {
  const requirements = Array.isArray(op.operation.security) ? op.operation.security : Array.isArray(doc.security) ? doc.security : [];
  const first = requirements[0];
  if (!isObject(first)) return [];
  return [...new Set(Object.values(first).flatMap((scopes) => (Array.isArray(scopes) ? scopes.map(String) : [])))];
}

/** The `code` values the documented answer with this status allows (its schema narrows the envelope). */
function documentedCodes(doc: OpenApiDocument, op: ContractOperation, status: string): string[] {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const response = deref(doc, responses[status] ?? null);
  const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  if (!isObject(media)) return [];
  const schema = flatten(doc, (media.schema ?? {}) as Json);
  const code = isObject(schema.properties) ? flatten(doc, schema.properties.code) : {};
  return Array.isArray(code.enum) ? code.enum.map(String) : [];
}

/** The contract's upload operations; skips the check when it has none. */
export function operationsOrSkip(ctx: CheckContext): UploadOperation[] {
  const targets = uploadOperations(ctx.contract);
  if (!targets.length) ctx.skip(`contract ${ctx.contract.version} has no upload operation (x-max-file-bytes)`);
  return targets;
}
