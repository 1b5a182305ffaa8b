// Properties of the change gate over generated contract documents (fast-check, fixed seed so a failure
// replays): a document compared with itself yields nothing; purely additive changes (spec 9.3: new optional
// request fields, new response fields, new endpoints, new optional query parameters) are never breaking; and
// an addition and its removal are mirror images (swapping base and head turns one rule into its partner).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject, OpenApiDocument } from '../lib/bundle.js';
import { diffContracts } from './diff.js';
import type { DiffResult } from './types.js';

// DIFF_PROPERTY_SEED overrides the seed to explore; the default keeps the suite reproducible.
const SEED = Number(process.env.DIFF_PROPERTY_SEED ?? 20261121);
const RUNS = 150;
const DATE = { date: new Date('2026-06-01T00:00:00Z') };
const ADDED = 'zzAdded'; // never generated, so an addition never collides with a property that exists

const PROPERTY_NAMES = ['id', 'sku', 'name', 'quantity', 'status', 'note', 'amount', 'currency', 'carrier', 'total', 'items', 'code', 'createdAt', 'tags'];
const PARAMETER_NAMES = ['limit', 'offset', 'status', 'carrier', 'sort', 'q'];

const leafSchema: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.integer({ min: 1, max: 200 }).map((maxLength) => ({ type: 'string', minLength: 1, maxLength })),
  fc.uniqueArray(fc.constantFrom('A', 'B', 'C', 'D'), { minLength: 1, maxLength: 4 }).map((values) => ({ type: 'string', enum: values })),
  fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 11, max: 500 })).map(([minimum, maximum]) => ({ type: 'integer', minimum, maximum })),
  fc.constant({ type: 'number' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'string', format: 'uuid' }),
  fc.constant<JsonObject>({ type: ['string', 'null'] }),
  fc.constant({ type: 'string', pattern: '^[A-Z]{2}$' }),
);

function objectSchema(depth: number, options: { closed?: boolean } = {}): fc.Arbitrary<JsonObject> {
  const value: fc.Arbitrary<JsonObject> =
    depth <= 0
      ? leafSchema
      : fc.oneof(
          { weight: 4, arbitrary: leafSchema },
          { weight: 1, arbitrary: leafSchema.map((items) => ({ type: 'array', items, maxItems: 100 })) },
          { weight: 1, arbitrary: objectSchema(depth - 1, options) },
        );
  return fc
    .uniqueArray(fc.constantFrom(...PROPERTY_NAMES), { minLength: 1, maxLength: 5 })
    .chain((names) => fc.tuple(fc.constant(names), fc.array(value, { minLength: names.length, maxLength: names.length }), fc.subarray(names), options.closed ? fc.boolean() : fc.constant(false)))
    .map(([names, schemas, required, closed]) => ({
      type: 'object',
      properties: Object.fromEntries(names.map((name, index) => [name, schemas[index]!])),
      ...(required.length ? { required } : {}),
      ...(closed ? { additionalProperties: false } : {}),
    }));
}

const parameters = fc.uniqueArray(fc.constantFrom(...PARAMETER_NAMES), { maxLength: 3 }).chain((names) =>
  fc.tuple(...names.map((name) => fc.tuple(fc.boolean(), leafSchema).map(([required, schema]) => ({ name, in: 'query', required, schema }) as JsonObject))),
);

interface GeneratedOperation {
  method: 'get' | 'post' | 'put' | 'delete';
  withId: boolean;
  parameters: JsonObject[];
  body?: JsonObject;
  response: JsonObject;
  /** The 200 schema is a component ($ref) rather than inline. */
  named: boolean;
}

const operation = (method: GeneratedOperation['method']): fc.Arbitrary<GeneratedOperation> =>
  fc.record({
    method: fc.constant(method),
    withId: fc.boolean(),
    parameters,
    body: method === 'post' || method === 'put' ? objectSchema(1, { closed: true }) : fc.constant(undefined),
    response: objectSchema(2),
    named: fc.boolean(),
  });

/** A small OpenAPI 3.1 document: the first operation always takes a JSON body, the rest vary. */
const documents: fc.Arbitrary<OpenApiDocument> = fc
  .tuple(operation('post'), fc.array(fc.constantFrom('get', 'post', 'put', 'delete').chain((method) => operation(method as GeneratedOperation['method'])), { maxLength: 4 }))
  .map(([first, rest]) => {
    const doc: OpenApiDocument = { openapi: '3.1.0', info: { title: 'generated', version: '1.0.0' }, paths: {}, components: { schemas: {} } };
    [first, ...rest].forEach((op, index) => {
      const path = op.withId ? `/api/r${index}/{id}` : `/api/r${index}`;
      const params: JsonObject[] = [...(op.withId ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : []), ...op.parameters];
      let response: JsonObject = op.response;
      if (op.named) {
        (doc.components.schemas as JsonObject)[`R${index}`] = op.response;
        response = { $ref: `#/components/schemas/R${index}` };
      }
      const node: JsonObject = {
        operationId: `op${index}`,
        ...(params.length ? { parameters: params } : {}),
        ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: response } } } },
      };
      doc.paths[path] = { [op.method]: node };
    });
    return doc;
  });

// ----------------------------------------------------------------------------------------------- edits

const ADDED_PATH = '/api/zz-added';

/** The generated operations (not one an edit added). */
const operations = (doc: OpenApiDocument) =>
  Object.entries(doc.paths)
    .filter(([path]) => path !== ADDED_PATH)
    .flatMap(([, item]) => Object.values(item as JsonObject) as JsonObject[]);

/** The object schema of an operation's 200 response (the component behind a $ref). */
function responseSchema(doc: OpenApiDocument, op: JsonObject): JsonObject {
  const schema = (((op.responses as JsonObject)['200'] as JsonObject).content as JsonObject)['application/json'] as JsonObject;
  const node = schema.schema as JsonObject;
  if (typeof node.$ref === 'string') return (doc.components.schemas as JsonObject)[node.$ref.split('/').pop()!] as JsonObject;
  return node;
}

const requestSchema = (op: JsonObject) => ((((op.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject).schema as JsonObject);

const ADDITIVE = ['request-property', 'response-property', 'operation', 'query-parameter'] as const;
type Additive = (typeof ADDITIVE)[number];

/** Applies one purely additive change; `pick` chooses which operation. */
function addTo(doc: OpenApiDocument, kind: Additive, pick: number, schema: JsonObject): OpenApiDocument {
  const copy = structuredClone(doc);
  const ops = operations(copy);
  const op = ops[pick % ops.length]!;
  switch (kind) {
    case 'request-property': {
      const withBody = ops.filter((candidate) => candidate.requestBody);
      const body = requestSchema(withBody[pick % withBody.length]!);
      (body.properties as JsonObject)[ADDED] = schema;
      break;
    }
    case 'response-property':
      (responseSchema(copy, op).properties as JsonObject)[ADDED] = schema;
      break;
    case 'operation':
      copy.paths[ADDED_PATH] = { get: { operationId: 'zzAdded', responses: { '200': { description: 'OK', content: { 'application/json': { schema } } } } } };
      break;
    case 'query-parameter':
      op.parameters = [...((op.parameters as Json[]) ?? []), { name: ADDED, in: 'query', required: false, schema }];
      break;
  }
  return copy;
}

/** The info rule each additive change is reported under. */
const ADDITIVE_RULE: Record<Additive, string> = {
  'request-property': 'request-optional-property-added',
  'response-property': 'response-property-added',
  operation: 'operation-added',
  'query-parameter': 'parameter-optional-added',
};

const rules = (result: DiffResult) => result.changes.map((change) => change.rule);
const show = (result: DiffResult) => result.changes.map((change) => `${change.severity} ${change.rule} ${change.operation} ${change.location}`).join('\n');

// ----------------------------------------------------------------------------------------------- properties

describe('generated documents (fast-check, seed ' + SEED + ')', () => {
  it('a document compared with itself (and with a copy) yields nothing', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        expect(diffContracts(doc, doc, undefined, DATE).changes).toEqual([]);
        expect(diffContracts(doc, structuredClone(doc), undefined, DATE).changes).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('purely additive changes are never breaking, and each is reported under its info rule', () => {
    fc.assert(
      fc.property(documents, fc.uniqueArray(fc.constantFrom(...ADDITIVE), { minLength: 1, maxLength: 4 }), fc.nat(), leafSchema, (doc, kinds, pick, schema) => {
        const head = kinds.reduce((current, kind) => addTo(current, kind, pick, schema), doc);
        const result = diffContracts(doc, head, undefined, DATE);
        expect(result.counts.breaking, show(result)).toBe(0);
        expect(result.counts.warning, show(result)).toBe(0);
        for (const kind of kinds) expect(rules(result), `${kind}\n${show(result)}`).toContain(ADDITIVE_RULE[kind]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a new required request property is breaking, and swapping base and head reports its removal', () => {
    fc.assert(
      fc.property(documents, fc.nat(), leafSchema, (doc, pick, schema) => {
        const head = structuredClone(doc);
        const withBody = operations(head).filter((op) => op.requestBody);
        const body = requestSchema(withBody[pick % withBody.length]!);
        (body.properties as JsonObject)[ADDED] = schema;
        body.required = [...((body.required as string[]) ?? []), ADDED];
        const forward = diffContracts(doc, head, undefined, DATE);
        const added = forward.changes.filter((change) => change.rule === 'request-required-property-added');
        expect(added.length, show(forward)).toBeGreaterThan(0);
        expect(added.every((change) => change.severity === 'breaking' && change.location.includes(ADDED))).toBe(true);
        const backward = diffContracts(head, doc, undefined, DATE);
        const removed = backward.changes.filter((change) => change.rule === 'request-required-property-removed');
        expect(removed.map((change) => `${change.operation} ${change.location}`), show(backward)).toEqual(added.map((change) => `${change.operation} ${change.location}`));
        expect(rules(backward)).not.toContain('request-required-property-added');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('removing a response property is breaking, and swapping base and head reports its addition', () => {
    fc.assert(
      fc.property(documents, fc.nat(), (doc, pick) => {
        const head = structuredClone(doc);
        const ops = operations(head);
        const schema = responseSchema(head, ops[pick % ops.length]!);
        const name = Object.keys(schema.properties as JsonObject)[0]!;
        delete (schema.properties as JsonObject)[name];
        if (Array.isArray(schema.required)) schema.required = schema.required.filter((required) => required !== name);
        if (Array.isArray(schema.required) && !schema.required.length) delete schema.required;
        const forward = diffContracts(doc, head, undefined, DATE);
        const removed = forward.changes.filter((change) => change.rule === 'response-property-removed');
        expect(removed.length, show(forward)).toBeGreaterThan(0);
        expect(removed.every((change) => change.severity === 'breaking' && change.location.includes(name))).toBe(true);
        const backward = diffContracts(head, doc, undefined, DATE);
        const added = backward.changes.filter((change) => change.rule === 'response-property-added');
        expect(added.map((change) => `${change.operation} ${change.location}`), show(backward)).toEqual(removed.map((change) => `${change.operation} ${change.location}`));
        expect(backward.counts.breaking, show(backward)).toBe(0);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('operations and optional query parameters: added is info, removed (swapped) is their removal rule', () => {
    fc.assert(
      fc.property(documents, fc.nat(), leafSchema, (doc, pick, schema) => {
        for (const [kind, removal, severity] of [
          ['operation', 'operation-removed', 'breaking'],
          ['query-parameter', 'parameter-query-removed', 'warning'],
        ] as const) {
          const head = addTo(doc, kind, pick, schema);
          expect(rules(diffContracts(doc, head, undefined, DATE))).toContain(ADDITIVE_RULE[kind]);
          const backward = diffContracts(head, doc, undefined, DATE);
          expect(backward.changes.filter((change) => change.rule === removal).map((change) => change.severity), show(backward)).toEqual([severity]);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
