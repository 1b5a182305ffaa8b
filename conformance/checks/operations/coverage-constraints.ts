// The constraints of an operation's inputs that the coverage report counts, read from the contract: per
// input (query, header and path parameters, top-level body fields) every enum value, each bound's edge, the
// pattern, optional presence and absence, the normalization rules that name it, and each way the negative
// check can break it. Each constraint knows which sent request exercises it (`hit`).
import { isObject, type Json } from '../../../contracts/lib/bundle.js';
import type { LoadedContract } from '../../harness/contract.js';
import { invalidVariants } from '../../harness/schema-arbitraries/invalid.js';
import { codePoints, flatten } from '../../harness/schema-arbitraries/resolve.js';
import { ABSENT, coverValues, type CoverValue } from './covering-values.js';
import { inputNames } from './covering-requests.js';
import { SPEC_REFUSALS } from './generated-requests.js';
import { rulesFor } from './normalization-rules.js';
import { isWebhookField, readText, type Prepared, type RequestSpec } from './requests.js';

export type ConstraintKind =
  | 'enum-value'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'pattern'
  | 'optional-present'
  | 'optional-absent'
  | 'normalization'
  | 'invalid';

export interface Constraint {
  /** `query limit`, `header Idempotency-Key`, `body screeningAuthority`. */
  input: string;
  kind: ConstraintKind;
  /** The value, bound, pattern, rule id or mutation kind. */
  detail: string;
  /** Why it is never exercised here (not generated, or owned by another check). */
  note?: string;
  /** Whether a sent request exercises it: valid requests for the valid side, invalid ones for `invalid`. */
  hit(spec: RequestSpec): boolean;
}

interface Input {
  in: 'query' | 'header' | 'path' | 'body';
  name: string;
  schema: Json;
  required: boolean;
  example?: unknown;
}

/** The raw value sent for an input: a text for parameters and form fields, the JSON value, or ABSENT. */
function sentRaw(prepared: Prepared, input: Pick<Input, 'in' | 'name'>, spec: RequestSpec): CoverValue {
  if (input.in === 'query') return spec.query[input.name] ?? ABSENT;
  if (input.in === 'path') return spec.path[input.name] ?? ABSENT;
  if (input.in === 'header') return spec.headers[input.name] ?? ABSENT;
  if (spec.form) return input.name in spec.form.fields ? spec.form.fields[input.name] : ABSENT;
  return isObject(spec.json) && input.name in spec.json ? spec.json[input.name] : ABSENT;
}

function inputsOf(prepared: Prepared): Input[] {
  const out: Input[] = prepared.inputs.params.map((p) => ({ in: p.in, name: p.name, schema: p.schema, required: p.required, example: p.example ?? prepared.examplePath[p.name] ?? prepared.exampleQuery[p.name] }));
  const body = prepared.inputs.body;
  if (body) {
    const flat = flatten(prepared.doc, body.schema);
    const required = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
    const example = isObject(body.example) ? body.example : {};
    for (const [name, schema] of Object.entries(isObject(flat.properties) ? flat.properties : {})) {
      if (name === body.fileField || (isObject(schema) && schema.deprecated === true)) continue;
      out.push({ in: 'body', name, schema, required: required.has(name), example: example[name] });
    }
  }
  return out;
}

const PATH_NOTE = 'not generated: a path id is one the tenant has, or the example (discover-path.ts)';
const WEBHOOK_NOTE = 'not generated: webhook configuration is left to the webhook checks (requests.ts)';

export function constraintsOf(contract: LoadedContract, prepared: Prepared): Constraint[] {
  const { doc } = contract;
  const out: Constraint[] = [];
  const rules = rulesFor(inputNames(prepared));
  for (const input of inputsOf(prepared)) {
    const label = `${input.in} ${input.name}`;
    const schema = flatten(doc, input.schema);
    const typed = (spec: RequestSpec): CoverValue => {
      const raw = sentRaw(prepared, input, spec);
      return raw === ABSENT || (input.in === 'body' && !spec.form) ? raw : readText(doc, input.schema, raw as string);
    };
    const valid = (test: (value: unknown) => boolean) => (spec: RequestSpec) => {
      if (spec.invalid) return false;
      const value = typed(spec);
      return value !== ABSENT && test(value);
    };
    const notes = input.in === 'path' ? [] : coverValues(doc, contract.schemas, input.schema, input.name, input.required, 0).notGenerated;
    const noteOf = (keyword: string) =>
      input.in === 'path' ? PATH_NOTE : isWebhookField(input.name) ? WEBHOOK_NOTE : notes.find((n) => n.startsWith(`${keyword}:`))?.slice(keyword.length + 2);
    const add = (kind: ConstraintKind, detail: string, hit: Constraint['hit'], keyword: string = kind) => out.push({ input: label, kind, detail, hit, note: noteOf(keyword) });
    const refused = SPEC_REFUSALS[prepared.inputs.op.operationId];
    if (Array.isArray(schema.enum)) {
      for (const value of schema.enum) {
        const note = input.in === 'body' && refused?.({ [input.name]: value }) ? 'not generated: the spec refuses it (generated-requests.ts SPEC_REFUSALS)' : undefined;
        out.push({ input: label, kind: 'enum-value', detail: JSON.stringify(value), note: note ?? noteOf('enum'), hit: valid((v) => v === value) });
      }
    }
    for (const keyword of ['minimum', 'maximum'] as const) {
      const bound = schema[keyword];
      if (typeof bound === 'number') add(keyword, String(bound), valid((v) => v === bound));
    }
    for (const keyword of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
      const bound = schema[keyword];
      // The edge of an exclusive bound: within one step (1, or 0.01 for amounts) of it, on the valid side.
      if (typeof bound === 'number') add(keyword, String(bound), valid((v) => typeof v === 'number' && v !== bound && Math.abs(v - bound) <= 1));
    }
    for (const keyword of ['minLength', 'maxLength'] as const) {
      const bound = schema[keyword];
      if (typeof bound === 'number') add(keyword, String(bound), valid((v) => typeof v === 'string' && codePoints(v) === bound));
    }
    for (const keyword of ['minItems', 'maxItems'] as const) {
      const bound = schema[keyword];
      if (typeof bound === 'number') add(keyword, String(bound), valid((v) => Array.isArray(v) && v.length === bound));
    }
    if (typeof schema.pattern === 'string') {
      // Exercised by a value drawn from the pattern: one the schema accepts that is not the example.
      const regex = new RegExp(schema.pattern, 'u');
      add('pattern', `/${schema.pattern}/`, valid((v) => typeof v === 'string' && regex.test(v) && v !== input.example));
    }
    if (!input.required && input.in !== 'path') {
      const present = (spec: RequestSpec) => !spec.invalid && sentRaw(prepared, input, spec) !== ABSENT;
      const freeText = input.example === undefined && !coverValues(doc, contract.schemas, input.schema, input.name, true, 0).values.length;
      out.push({ input: label, kind: 'optional-present', detail: 'present', note: freeText ? 'not generated: free text with no example value in the contract' : noteOf('optional'), hit: present });
      add('optional-absent', 'left out', (spec) => !spec.invalid && sentRaw(prepared, input, spec) === ABSENT);
    }
    for (const rule of rules.filter((r) => r.input.in === (input.in === 'body' ? 'body' : 'query') && r.input.name === input.name)) {
      const wanted: CoverValue[] = rule.values.map((v) => (v === undefined ? ABSENT : v));
      out.push({
        input: label,
        kind: 'normalization',
        detail: `${rule.id} (${rule.section})`,
        note: rule.exercisedBy ? `exercised by another check: ${rule.exercisedBy}` : undefined,
        hit: (spec) => !spec.invalid && wanted.length > 0 && wanted.includes(sentRaw(prepared, input, spec)),
      });
    }
  }
  out.push(...invalidConstraints(contract, prepared));
  return out;
}

/** One constraint per (input, mutation kind) the negative check can send for the operation. */
function invalidConstraints(contract: LoadedContract, prepared: Prepared): Constraint[] {
  const seen = new Map<string, Constraint>();
  const add = (where: string, target: string, kind: string) => {
    const key = `${where} ${target} ${kind}`;
    if (!seen.has(key)) seen.set(key, { input: `${where} ${target}`, kind: 'invalid', detail: kind, hit: (spec) => spec.invalid?.target === target && spec.invalid.kind === kind });
  };
  for (const param of prepared.inputs.params) {
    for (const variant of invalidVariants(contract.doc, param.schema, { seed: 0, schemas: contract.schemas })) add(param.in, param.name, variant.kind);
  }
  const body = prepared.inputs.body;
  if (body) {
    if (body.required) add('body', '(body)', 'missing-required');
    const base = prepared.exampleBody;
    for (const variant of invalidVariants(contract.doc, body.schema, { base, seed: 0, schemas: contract.schemas })) {
      const target = typeof variant.path[0] === 'string' ? variant.path[0] : '(body)';
      if (body.multipart && target === body.fileField && variant.kind !== 'missing-required') continue;
      add('body', target, variant.kind);
    }
  }
  return [...seen.values()];
}
