// Generated valid requests: the example request with its variable values (value-policy.ts: closed domains
// and patterns not tied to reference data) varied by the seed.
import fc from 'fast-check';
import { isObject } from '../../../contracts/lib/bundle.js';
import type { LoadedContract } from '../../harness/contract.js';
import { flatten } from '../../harness/schema-arbitraries/resolve.js';
import { validValue } from '../../harness/schema-arbitraries/valid.js';
import { serverIssued, variable } from './value-policy.js';
import { asSentInForm, isWebhookField, paramString, setBody, type Prepared, type RequestSpec } from './requests.js';

/** Spec rules that refuse values the schema allows (never generated as valid input). */
export const SPEC_REFUSALS: Record<string, (body: unknown) => boolean> = {
  // Spec 4.5: `action=credit` of the findings batch is disabled and answers 400 INVALID_REQUEST.
  applyFindingBatchAction: (body) => isObject(body) && body.action === 'credit',
};

const IDEMPOTENCY_KEY = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{11,39}$/);

export function generatedRequests(contract: LoadedContract, prepared: Prepared, path: Record<string, string>, count: number, seed: number): RequestSpec[] {
  const { doc } = contract;
  const { inputs } = prepared;
  const query: Record<string, fc.Arbitrary<string | undefined>> = {};
  const headers: Record<string, fc.Arbitrary<string | undefined>> = {};
  const sandboxParams = new Set<string>();
  for (const param of inputs.params) {
    if (param.in === 'path') continue;
    // A server-issued token (a cursor) is valid only as this server issued it: never our example's.
    if (!param.required && serverIssued(param.name)) continue;
    let value: fc.Arbitrary<string | undefined>;
    if (param.in === 'header') value = IDEMPOTENCY_KEY;
    else if (variable(doc, param.schema, param.name)) value = validValue(doc, param.schema, { schemas: contract.schemas }).map(paramString);
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
      if (variable(doc, schema, name)) varied[name] = fc.option(validValue(doc, schema, { schemas: contract.schemas }), { nil: undefined });
    }
    const optional = Object.keys(base).filter((name) => !required.has(name) && name !== body.fileField);
    const validate = contract.schemas.validator(body.schema);
    return fc.tuple(fc.record(varied), fc.subarray(optional, { maxLength: Math.min(2, optional.length) })).map(([values, dropped]) => {
      const next: Record<string, unknown> = { ...base };
      for (const [name, value] of Object.entries(values)) if (value !== undefined) next[name] = value;
      for (const name of dropped) delete next[name];
      // A form sends each text in its wire form (requests.ts formText): that is the value to judge valid.
      if (body.multipart) Object.assign(next, asSentInForm(next));
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
