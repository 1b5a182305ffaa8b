// Valid requests that cover an operation's contract deterministically (every enum value, each bound at its
// edge, optional inputs present and left out, pattern draws, the normalization rules' values), besides the
// seeded random fill of generated-requests.ts. Values of different inputs of one location share a request
// (request i takes the i-th value of each input), so an operation needs as many requests as its most varied
// input has values, not their sum. Headers go alone: an idempotency key next to a body change would answer a
// replay or a conflict instead of judging the body.
import { isObject } from '../../../contracts/lib/bundle.js';
import { hasSandboxShape } from '../../../contracts/lib/sandbox-defined.js';
import type { LoadedContract } from '../../harness/contract.js';
import { settle, shapeOf } from '../../harness/schema-arbitraries/object-shape.js';
import { flatten } from '../../harness/schema-arbitraries/resolve.js';
import { sampleValid } from '../../harness/schema-arbitraries/valid.js';
import { ABSENT, coverValues, type CoverValue } from './covering-values.js';
import { SPEC_REFUSALS } from './generated-requests.js';
import { rulesFor } from './normalization-rules.js';
import { keptReason } from './value-policy.js';
import { asSentInForm, exampleRequest, isWebhookField, paramString, setBody, type Prepared, type RequestSpec } from './requests.js';

interface Column {
  in: 'query' | 'header' | 'body';
  name: string;
  values: CoverValue[];
  sandboxDefined: boolean;
  /** Values at the edge of a bound the sandbox chose (covering-values.ts). */
  sandboxValues: Set<unknown>;
}

/** Which top-level inputs an operation takes, and whether each is required (for the normalization rules). */
export function inputNames(prepared: Prepared): { query: Map<string, boolean>; body: Map<string, boolean> } {
  const query = new Map(prepared.inputs.params.filter((p) => p.in === 'query').map((p) => [p.name, p.required] as const));
  const body = new Map<string, boolean>();
  if (prepared.inputs.body) {
    const flat = flatten(prepared.doc, prepared.inputs.body.schema);
    const required = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
    for (const name of Object.keys(isObject(flat.properties) ? flat.properties : {})) body.set(name, required.has(name));
  }
  return { query, body };
}

function columnsOf(contract: LoadedContract, prepared: Prepared, seed: number): Column[] {
  const { doc, schemas } = contract;
  const { inputs } = prepared;
  const rules = rulesFor(inputNames(prepared));
  const ruleValues = (where: 'query' | 'body', name: string) => rules.filter((r) => r.input.in === where && r.input.name === name).flatMap((r) => r.values.map((v) => (v === undefined ? ABSENT : v)));
  const columns: Column[] = [];
  for (const param of inputs.params) {
    if (param.in === 'path') continue;
    const cover = coverValues(doc, schemas, param.schema, param.name, param.required, seed);
    const values: CoverValue[] = [...cover.values, ...(param.in === 'query' ? ruleValues('query', param.name) : [])];
    // An optional parameter nothing else varies is sent once with its example value (present at least once).
    if (!param.required && param.example !== undefined && !keptReason(param.name) && !values.some((v) => v !== ABSENT)) values.unshift(param.example);
    if (values.length) columns.push({ in: param.in, name: param.name, values, sandboxDefined: param.sandboxDefined, sandboxValues: cover.sandboxValues });
  }
  const body = inputs.body;
  if (body && isObject(prepared.exampleBody)) {
    const flat = flatten(doc, body.schema);
    const properties = isObject(flat.properties) ? flat.properties : {};
    const required = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
    for (const [name, schema] of Object.entries(properties)) {
      if (isWebhookField(name) || name === body.fileField || (isObject(schema) && schema.deprecated === true)) continue;
      const cover = coverValues(doc, schemas, schema, name, required.has(name), seed, { form: body.multipart });
      const values = [...cover.values, ...ruleValues('body', name)];
      const sandboxDefined = body.sandboxDefined || hasSandboxShape(flatten(doc, schema));
      if (values.length) columns.push({ in: 'body', name, values, sandboxDefined, sandboxValues: cover.sandboxValues });
    }
  }
  return columns;
}

/** The example body with these fields set (ABSENT: removed), made consistent with dependentRequired and
 *  forbidden combinations (object-shape.ts `settle`), or undefined when the schema still refuses it. */
export function bodyWith(contract: LoadedContract, prepared: Prepared, changes: Map<string, CoverValue>, seed: number): Record<string, unknown> | undefined {
  const body = prepared.inputs.body!;
  const base = prepared.exampleBody as Record<string, unknown>;
  const validate = contract.schemas.validator(body.schema);
  const gen = { doc: contract.doc, schemas: contract.schemas, deprecated: false };
  const sampled = sampleValid(contract.doc, body.schema, seed, { schemas: contract.schemas });
  const values: Record<string, unknown> = { ...(isObject(sampled) ? sampled : {}), ...base };
  // A value for every property, so that settle() can add what a changed field depends on.
  const flat = flatten(contract.doc, body.schema);
  for (const [name, schema] of Object.entries(isObject(flat.properties) ? flat.properties : {})) {
    if (!(name in values)) values[name] = sampleValid(contract.doc, schema, seed, { schemas: contract.schemas });
  }
  const present = new Set(Object.keys(base));
  for (const [name, value] of changes) {
    if (value === ABSENT) present.delete(name);
    else {
      values[name] = value;
      present.add(name);
    }
  }
  // The changed fields win a forbidden combination (`not: { required }`): the example's other members go.
  const shape = shapeOf(gen, flat);
  const wanted = new Set([...changes].filter(([, value]) => value !== ABSENT).map(([name]) => name));
  for (const name of [...wanted]) for (const dependency of shape.dependentRequired[name] ?? []) wanted.add(dependency);
  for (const group of shape.forbiddenTogether) if (group.some((k) => wanted.has(k))) for (const k of group) if (!wanted.has(k) && !shape.required.has(k)) present.delete(k);
  const keep = changes.size === 1 ? [...changes.keys()][0] : undefined;
  const settled = settle(gen, shape, values, present, keep);
  let next: Record<string, unknown> = {};
  for (const name of settled) if (name in values) next[name] = values[name];
  // A form sends each text in its wire form (requests.ts formText): a filled-in field is judged as sent.
  if (body.multipart) next = asSentInForm(next) as Record<string, unknown>;
  for (const [name, value] of changes) if (value !== ABSENT && (!settled.has(name) || JSON.stringify(next[name]) !== JSON.stringify(value))) return undefined;
  // A form's file part stays (prepare() names it in the example body; toFormFields sends it as the part).
  if (!validate(next) || SPEC_REFUSALS[prepared.inputs.op.operationId]?.(next)) return undefined;
  return next;
}

const describe = (name: string, value: CoverValue) => (value === ABSENT ? `${name} left out` : `${name}=${JSON.stringify(value)?.slice(0, 40)}`);

/** The covering requests of an operation, at `path` (the discovered id or the example's). */
export function coveringRequests(contract: LoadedContract, prepared: Prepared, path: Record<string, string>, seed: number): RequestSpec[] {
  const columns = columnsOf(contract, prepared, seed);
  const out: RequestSpec[] = [];
  const build = (group: Column[], index: number): RequestSpec | undefined => {
    const spec = exampleRequest(prepared, path);
    const changes = new Map<string, CoverValue>();
    const parts: string[] = [];
    for (const column of group) {
      if (index >= column.values.length) continue;
      const value = column.values[index];
      parts.push(describe(column.name, value));
      spec.sandboxDependent ||= column.sandboxDefined || column.sandboxValues.has(value);
      if (column.in === 'body') changes.set(column.name, value);
      else {
        const target = column.in === 'query' ? spec.query : spec.headers;
        const text = value === ABSENT ? undefined : paramString(value);
        if (text === undefined || text === '') delete target[column.name];
        else target[column.name] = text;
      }
    }
    if (!parts.length) return undefined;
    if (changes.size) {
      const body = bodyWith(contract, prepared, changes, seed);
      if (!body) return undefined;
      spec.json = undefined;
      spec.form = undefined;
      setBody(prepared, spec, body);
      // An empty text or list cannot be told from a left-out field in a form (requests.ts toFormFields).
      if (prepared.inputs.body?.multipart && !spec.form) return undefined;
    }
    spec.label = `covering request (${parts.join(', ')})`;
    return spec;
  };
  const groups: Column[][] = [columns.filter((c) => c.in === 'query'), columns.filter((c) => c.in === 'body'), ...columns.filter((c) => c.in === 'header').map((c) => [c])];
  for (const group of groups) {
    const rows = Math.max(0, ...group.map((c) => c.values.length));
    for (let index = 0; index < rows; index++) {
      const combined = build(group, index);
      if (combined) {
        out.push(combined);
        continue;
      }
      // The combination is refused by the schema (e.g. two fields of a forbidden pair): one input at a time.
      for (const column of group) {
        const single = build([column], index);
        if (single) out.push(single);
      }
    }
  }
  return out;
}
