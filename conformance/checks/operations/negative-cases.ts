// Invalid requests: one invalid parameter or body field each, all else valid; which are sent (one per
// constraint: input and mutation kind), and why a mutation cannot be sent as a request (for coverage.json).
import fc from 'fast-check';
import { matchOperation } from '../../../contracts/lib/operations.js';
import type { LoadedContract } from '../../harness/contract.js';
import { invalidVariants, pathText, type InvalidVariant } from '../../harness/schema-arbitraries/invalid.js';
import { MUTATION_PRIORITY } from '../../harness/schema-arbitraries/mutation-kinds.js';
import { exampleRequest, paramString, propertySchema, readText, toFormFields, urlOf, type Prepared, type RequestSpec } from './requests.js';

export interface NegativeCase {
  /** Parameter name, top-level body field, or `(body)`. */
  target: string;
  variant: InvalidVariant;
  spec: RequestSpec;
}

const SAFE_PATH_SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** A mutation the generator made that no request can carry, and why (coverage.ts reports it). */
export interface DroppedCase {
  target: string;
  kind: string;
  reason: string;
}

export const DROP_REASONS = {
  noText: 'not sendable: a parameter carries text, and this invalid value (an object or null) has no text form',
  empty: 'not sendable: an empty path segment or header value is no value a request can carry',
  readsValid: 'not sendable: its text form reads back as a valid value (a number is a fine string once it is text)',
  pathSegment: 'not sendable: no path segment carries it to this operation (it would route elsewhere or is not a safe segment)',
  header: 'not sendable: not a valid HTTP header value (RFC 9110 field-value)',
  file: 'not sendable: a file part is not a value (the upload checks own the file part)',
  form: 'not sendable: a multipart form cannot carry it (a null, an empty text or list, a nested value or a non-object body)',
  formReadsValid: 'not sendable: the form fields read back as a valid body',
} as const;

export function negativeCases(contract: LoadedContract, prepared: Prepared, seed: number, dropped: DroppedCase[] = []): NegativeCase[] {
  const { doc } = contract;
  const { inputs } = prepared;
  const cases: NegativeCase[] = [];
  const drop = (target: string, kind: string, reason: string) => dropped.push({ target, kind, reason });
  const baseSpec = () => exampleRequest(prepared);
  for (const param of inputs.params) {
    const validate = contract.schemas.validator(param.schema);
    const base = param.in === 'path' ? prepared.examplePath[param.name] : param.example ?? prepared.exampleQuery[param.name];
    for (const variant of invalidVariants(doc, param.schema, { base: base === undefined ? undefined : readText(doc, param.schema, String(base)), seed, schemas: contract.schemas })) {
      const text = paramString(variant.value);
      // An empty query value (`?cursor=`) is a value the contract judges (OpenAPI's allowEmptyValue is false);
      // an empty path segment or header value is not one a request can carry.
      if (text === undefined) {
        drop(param.name, variant.kind, DROP_REASONS.noText);
        continue;
      }
      if (text === '' && param.in !== 'query') {
        drop(param.name, variant.kind, DROP_REASONS.empty);
        continue;
      }
      // What the server reads from the text must still be invalid (`12345` is a fine string parameter).
      if (validate(readText(doc, param.schema, text))) {
        drop(param.name, variant.kind, DROP_REASONS.readsValid);
        continue;
      }
      const spec = baseSpec();
      const name = `${param.name}${variant.name.replace(/^\(value\)/, '')}`;
      spec.label = `${param.in} parameter ${name}`;
      if (param.in === 'path') {
        if (!SAFE_PATH_SEGMENT.test(text)) {
          drop(param.name, variant.kind, DROP_REASONS.pathSegment);
          continue;
        }
        spec.path = { ...spec.path, [param.name]: text };
        // Never a value that would route the request to another operation (or none).
        if (matchOperation(doc, inputs.op.method, urlOf(prepared, spec))?.operationId !== inputs.op.operationId) {
          drop(param.name, variant.kind, DROP_REASONS.pathSegment);
          continue;
        }
      } else if (param.in === 'query') spec.query = { ...spec.query, [param.name]: text };
      else {
        if (!HEADER_VALUE.test(text)) {
          drop(param.name, variant.kind, DROP_REASONS.header);
          continue;
        }
        spec.headers = { ...spec.headers, [param.name]: text };
      }
      spec.sandboxDependent = param.sandboxDefined || variant.sandboxDefined;
      spec.invalid = { target: param.name, kind: variant.kind, where: param.name };
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
      spec.invalid = { target: '(body)', kind: 'missing-required', where: '(body)' };
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
        if (target === body.fileField && variant.kind !== 'missing-required') {
          drop(target, variant.kind, DROP_REASONS.file);
          continue;
        }
        const form = toFormFields(doc, body, variant.value);
        if (!form) {
          drop(target, variant.kind, DROP_REASONS.form);
          continue;
        }
        // What the server reads back from the fields must still be invalid.
        const readBack: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(form.fields)) readBack[name] = readText(doc, propertySchema(doc, body.schema, name), value);
        if (form.file && body.fileField) readBack[body.fileField] = prepared.file?.name ?? 'conformance.csv';
        if (validate(readBack)) {
          drop(target, variant.kind, DROP_REASONS.formReadsValid);
          continue;
        }
        spec.form = form;
      } else spec.json = variant.value;
      spec.invalid = { target, kind: variant.kind, where: pathText(variant.path) || '(body)' };
      cases.push({ target, variant, spec });
    }
  }
  return cases;
}

/** The constraint an invalid case exercises: its input and mutation kind (coverage-constraints.ts). */
export const constraintKey = (item: Pick<NegativeCase, 'target'> & { variant: Pick<InvalidVariant, 'kind'> }) => `${item.target} ${item.variant.kind}`;

/**
 * Up to `budget` cases, every constraint (input and mutation kind) once before any is repeated: one per input
 * first (round robin over parameters and body fields), each input's cases in order of MUTATION_PRIORITY
 * (bounds and required keys first), ties and inputs shuffled with the seed; a second variant of a constraint
 * (another nested path of the same kind) only after every constraint has had one.
 */
export function pickCases(cases: NegativeCase[], budget: number, seed: number): NegativeCase[] {
  const groups = new Map<string, NegativeCase[]>();
  for (const item of cases) groups.set(item.target, [...(groups.get(item.target) ?? []), item]);
  const shuffle = <T>(list: T[]): T[] => (list.length < 2 ? list : fc.sample(fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }), { seed, numRuns: 1 })[0]);
  const rank = (item: NegativeCase) => MUTATION_PRIORITY.indexOf(item.variant.kind);
  const firsts: NegativeCase[][] = [];
  const repeats: NegativeCase[][] = [];
  for (const list of shuffle([...groups.values()])) {
    const seen = new Set<string>();
    const ordered = shuffle(list).sort((a, b) => rank(a) - rank(b));
    firsts.push(ordered.filter((item) => !seen.has(constraintKey(item)) && seen.add(constraintKey(item))));
    repeats.push(ordered.filter((item) => !firsts[firsts.length - 1].includes(item)));
  }
  const picked: NegativeCase[] = [];
  for (const queues of [firsts, repeats]) {
    while (picked.length < budget && queues.some((q) => q.length)) {
      for (const queue of queues) {
        const next = queue.shift();
        if (next && picked.length < budget) picked.push(next);
      }
    }
  }
  return picked;
}

/** The number of constraints the cases exercise: the budget that sends each once and repeats none. */
export const constraintCount = (cases: readonly NegativeCase[]) => new Set(cases.map(constraintKey)).size;
