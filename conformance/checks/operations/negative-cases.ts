// Invalid requests: one invalid parameter or body field each, all else valid, and the few sent per operation.
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

export function negativeCases(contract: LoadedContract, prepared: Prepared, seed: number): NegativeCase[] {
  const { doc } = contract;
  const { inputs } = prepared;
  const cases: NegativeCase[] = [];
  const baseSpec = () => exampleRequest(prepared);
  for (const param of inputs.params) {
    const validate = contract.schemas.validator(param.schema);
    const base = param.in === 'path' ? prepared.examplePath[param.name] : param.example ?? prepared.exampleQuery[param.name];
    for (const variant of invalidVariants(doc, param.schema, { base: base === undefined ? undefined : readText(doc, param.schema, String(base)), seed, schemas: contract.schemas })) {
      const text = paramString(variant.value);
      // An empty query value (`?cursor=`) is a value the contract judges (OpenAPI's allowEmptyValue is false);
      // an empty path segment or header value is not one a request can carry.
      if (text === undefined || (text === '' && param.in !== 'query')) continue;
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
      spec.invalid = { target, kind: variant.kind, where: pathText(variant.path) || '(body)' };
      cases.push({ target, variant, spec });
    }
  }
  return cases;
}

/**
 * Up to `budget` cases: one per input first (round robin over parameters and body fields), each input's
 * cases in order of MUTATION_PRIORITY (bounds and required keys first), ties and inputs shuffled with the seed.
 */
export function pickCases(cases: NegativeCase[], budget: number, seed: number): NegativeCase[] {
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
