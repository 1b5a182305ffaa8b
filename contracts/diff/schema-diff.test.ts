// The schema differ on its own: a DiffContext built here collects what diffSchema reports (severities from
// the rule catalogue), so these tests need neither the operation walk nor the fixtures.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACTS_DIR, CONTRACT_VERSIONS, isObject, loadContract, type Json, type JsonObject, type OpenApiDocument } from '../lib/bundle.js';
import { deprecationRules } from './deprecation.js';
import { diffSchema, schemaRules } from './schema-diff.js';
import type { Change, DiffContext, Direction } from './types.js';

const SEVERITY = new Map([...schemaRules, ...deprecationRules].map((rule) => [rule.id, rule.severity]));
const LOCATION = 'request body application/json';

interface RunOptions {
  direction?: Direction;
  baseSchemas?: object;
  headSchemas?: object;
  date?: string;
}

const doc = (schemas: object = {}): OpenApiDocument => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: schemas as JsonObject } });

/** What diffSchema reports for two schemas (plain object literals; typed loosely for the tests' sake). */
function run(base: unknown, head: unknown, options: RunOptions = {}): Change[] {
  const changes: Change[] = [];
  const seen = new Set<string>();
  const ctx: DiffContext = {
    base: doc(options.baseSchemas),
    head: doc(options.headSchemas ?? options.baseSchemas),
    date: new Date(`${options.date ?? '2026-01-01'}T00:00:00Z`),
    emit(rule, change) {
      const severity = SEVERITY.get(rule);
      if (!severity) throw new Error(`unknown rule ${rule}`);
      const key = `${rule}\u0000${change.operation}\u0000${change.location}`; // as diffContracts dedupes
      if (seen.has(key)) return;
      seen.add(key);
      changes.push({ rule, severity, ...change });
    },
  };
  diffSchema(ctx, base as Json, head as Json, { direction: options.direction ?? 'request', operation: 'POST /api/orders', location: LOCATION });
  return changes;
}

const rules = (changes: Change[]) => changes.map((change) => change.rule).sort();

// ------------------------------------------------------------------------------------------ generators

const NAMES = ['a', 'b', 'c', 'd'];

const stringSchema = fc.record(
  {
    type: fc.constantFrom<Json>('string', ['string', 'null']),
    minLength: fc.nat(4),
    maxLength: fc.integer({ min: 5, max: 64 }),
    pattern: fc.constantFrom('^[A-Z]+$', '^\\d{2}$'),
    format: fc.constantFrom('date', 'uuid', 'email'),
    enum: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 3 }),
    default: fc.constantFrom('x', 'y'),
  },
  { requiredKeys: ['type'] },
);
const numberSchema = fc.record(
  {
    type: fc.constantFrom<Json>('integer', 'number', ['integer', 'null']),
    minimum: fc.integer({ min: -5, max: 5 }),
    exclusiveMaximum: fc.integer({ min: 6, max: 100 }),
    maximum: fc.integer({ min: 6, max: 100 }),
  },
  { requiredKeys: ['type'] },
);
const lifecycleSchema = fc.record({
  type: fc.constant('string'),
  enum: fc.uniqueArray(fc.constantFrom('PENDING', 'RUNNING', 'DONE', 'FAILED'), { minLength: 1 }),
  'x-lifecycle': fc.constant('job'),
  'x-terminal-states': fc.subarray(['DONE', 'FAILED']),
});
const leaf = fc.oneof(stringSchema, numberSchema, fc.constant({ type: 'boolean' }), fc.constant({}), lifecycleSchema) as fc.Arbitrary<Json>;

const { schema, object } = fc.letrec<{ schema: Json; object: Json; array: Json; union: Json }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array'), tie('union')),
  object: fc
    .dictionary(fc.constantFrom(...NAMES), tie('schema'), { maxKeys: 3 })
    .chain((properties) =>
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.constant(properties as Json),
          required: fc.subarray(Object.keys(properties)),
          additionalProperties: fc.oneof(fc.boolean(), fc.constant({ type: 'string' })),
        },
        { requiredKeys: ['type', 'properties'] },
      ),
    ),
  array: fc.record({ type: fc.constant('array'), items: tie('schema'), minItems: fc.nat(2), uniqueItems: fc.boolean() }, { requiredKeys: ['type', 'items'] }),
  union: fc.record({ oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
}));

const objectSchema = object as fc.Arbitrary<JsonObject>;

// ------------------------------------------------------------------------------------------ properties

describe('diffSchema properties', () => {
  it('a schema compared with itself yields nothing, in either direction', () => {
    fc.assert(
      fc.property(schema, fc.constantFrom<Direction>('request', 'response'), (s, direction) => {
        expect(run(s, structuredClone(s), { direction })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('adding an optional property to a request schema yields no breaking change', () => {
    fc.assert(
      fc.property(objectSchema, schema, (base, added) => {
        const head = { ...base, properties: { ...(base.properties as JsonObject), extra: added } };
        const changes = run(base, head);
        expect(changes.filter((change) => change.severity === 'breaking')).toEqual([]);
        expect(rules(changes)).toEqual(['request-optional-property-added']);
      }),
      { numRuns: 200 },
    );
  });

  it('adding a required request property yields request-required-property-added; removing it, request-required-property-removed', () => {
    fc.assert(
      fc.property(objectSchema, schema, (base, added) => {
        const head = { ...base, properties: { ...(base.properties as JsonObject), extra: added }, required: [...((base.required as string[]) ?? []), 'extra'] };
        const forward = run(base, head);
        expect(rules(forward)).toEqual(['request-required-property-added']);
        expect(forward[0].location).toBe(`${LOCATION} .extra`);
        const backward = run(head, base);
        expect(rules(backward)).toEqual(['request-required-property-removed']);
        expect(backward[0].severity).toBe('breaking');
      }),
      { numRuns: 200 },
    );
  });

  it('terminates on any pair of generated schemas, with only catalogued rules', () => {
    fc.assert(
      fc.property(schema, schema, fc.constantFrom<Direction>('request', 'response'), (a, b, direction) => {
        for (const change of run(a, b, { direction })) expect(SEVERITY.has(change.rule)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

// ------------------------------------------------------------------------------------------ behaviour

describe('diffSchema', () => {
  it('reports where the change is: the caller location, then the schema path', () => {
    const base = { type: 'object', properties: { skus: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } } } };
    const head = structuredClone(base);
    (head.properties.skus.items.properties.sku as JsonObject).maxLength = 64;
    expect(run(base, head).map((c) => `${c.rule} @ ${c.location}`)).toEqual([`request-max-length-decreased @ ${LOCATION} .skus[].sku`]);
  });

  it('merges allOf: moving properties into allOf parts is no change, a narrowing inside one is', () => {
    const schemas = { Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } };
    const flat = { type: 'object', required: ['id', 'note'], properties: { id: { type: 'string' }, note: { type: 'string' } } };
    const composed = { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['note'], properties: { note: { type: 'string' } } }] };
    expect(run(flat, composed, { baseSchemas: schemas })).toEqual([]);
    expect(run(composed, flat, { baseSchemas: schemas, direction: 'response' })).toEqual([]);
    const narrowed = { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['note'], properties: { note: { type: 'string', maxLength: 10 } } }] };
    expect(rules(run(composed, narrowed, { baseSchemas: schemas }))).toEqual(['request-max-length-decreased']);
  });

  it('reads the nullable idioms alike: type with "null", oneOf with a null branch, 3.0 nullable', () => {
    const schemas = { Money: { type: 'object', properties: { amount: { type: 'number' } } } };
    const forms: Json[] = [
      { oneOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }] },
      { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/Money' }] },
      { type: ['object', 'null'], properties: { amount: { type: 'number' } } },
      { type: 'object', nullable: true, properties: { amount: { type: 'number' } } },
    ];
    for (const a of forms) for (const b of forms) expect(run(a, b, { baseSchemas: schemas, direction: 'response' })).toEqual([]);
    expect(rules(run({ $ref: '#/components/schemas/Money' }, forms[0], { baseSchemas: schemas, direction: 'response' }))).toEqual(['response-nullable-added']);
    expect(rules(run(forms[0], { $ref: '#/components/schemas/Money' }, { baseSchemas: schemas }))).toEqual(['request-nullable-removed']);
  });

  it('follows refs on each side in its own document and stops at cycles', () => {
    const node = (extra: JsonObject) => ({ Node: { type: 'object', properties: { name: { type: 'string', ...extra }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } });
    const ref = { $ref: '#/components/schemas/Node' };
    expect(run(ref, ref, { baseSchemas: node({}), headSchemas: node({}) })).toEqual([]);
    const changes = run(ref, ref, { baseSchemas: node({}), headSchemas: node({ maxLength: 5 }) });
    expect(changes.map((c) => `${c.rule} @ ${c.location}`)).toEqual([`request-max-length-decreased @ ${LOCATION} .name`]);
    const loop = { A: { allOf: [{ $ref: '#/components/schemas/A' }], type: 'object' } };
    expect(run({ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/A' }, { baseSchemas: loop })).toEqual([]);
  });

  it('matches oneOf branches by $ref name, then by position', () => {
    const schemas = {
      Card: { type: 'object', properties: { token: { type: 'string' } } },
      Bank: { type: 'object', properties: { iban: { type: 'string' } } },
    };
    const headSchemas = { ...schemas, Card: { type: 'object', properties: { token: { type: 'string', minLength: 8 } } } };
    const base = { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Bank' }] };
    const reordered = { oneOf: [{ $ref: '#/components/schemas/Bank' }, { $ref: '#/components/schemas/Card' }] };
    expect(run(base, reordered, { baseSchemas: schemas })).toEqual([]);
    expect(run(base, reordered, { baseSchemas: schemas, headSchemas }).map((c) => `${c.rule} @ ${c.location}`)).toEqual([`request-min-length-increased @ ${LOCATION} (oneOf Card).token`]);
    // A plain schema becoming one branch of a union: the other branch is the change.
    const changes = run({ $ref: '#/components/schemas/Card' }, base, { baseSchemas: schemas, direction: 'response' });
    expect(changes.map((c) => `${c.rule} @ ${c.location}`)).toEqual([`response-variant-added @ ${LOCATION} (oneOf Bank)`]);
  });

  it('judges a property removal by its additionalProperties, its required-ness and BASE\'s deprecation', () => {
    const props = { sku: { type: 'string' }, note: { type: 'string' } };
    expect(rules(run({ type: 'object', properties: props }, { type: 'object', properties: { sku: props.sku } }))).toEqual(['request-property-removed']);
    expect(rules(run({ type: 'object', properties: props, additionalProperties: false }, { type: 'object', properties: { sku: props.sku }, additionalProperties: false }))).toEqual(['request-property-removed-rejected']);
    expect(rules(run({ type: 'object', properties: props, required: ['note'] }, { type: 'object', properties: { sku: props.sku } }))).toEqual(['request-required-property-removed']);
    expect(rules(run({ type: 'object', properties: props }, { type: 'object', properties: { sku: props.sku } }, { direction: 'response' }))).toEqual(['response-property-removed']);

    const notice = { since: '2026-01-01', sunset: '2026-06-01', replacement: 'sku', migration: 'Send sku instead.' };
    const deprecated = { type: 'object', properties: { ...props, note: { type: 'string', deprecated: true, 'x-deprecation': notice } } };
    const removed = { type: 'object', properties: { sku: props.sku } };
    expect(rules(run(deprecated, removed, { direction: 'response', date: '2026-07-01' }))).toEqual(['removal-after-sunset']);
    const early = run(deprecated, removed, { direction: 'response', date: '2026-05-01' });
    expect(rules(early)).toEqual(['response-property-removed']);
    expect(early[0].message).toContain('sunset 2026-06-01 has not passed');
    // A notice beside a $ref counts too.
    const viaRef = { type: 'object', properties: { ...props, note: { $ref: '#/components/schemas/Note', deprecated: true, 'x-deprecation': notice } } };
    expect(rules(run(viaRef, removed, { direction: 'response', date: '2026-07-01', baseSchemas: { Note: { type: 'string' } } }))).toEqual(['removal-after-sunset']);
  });

  it('reports property deprecations: added, incomplete, sunset moved earlier, withdrawn', () => {
    const notice = { since: '2026-01-01', sunset: '2026-06-01', replacement: 'sku', migration: 'Send sku instead.' };
    const plain = { type: 'object', properties: { code: { type: 'string' } } };
    const withNotice = (extra: JsonObject) => ({ type: 'object', properties: { code: { type: 'string', deprecated: true, 'x-deprecation': { ...notice, ...extra } } } });
    expect(rules(run(plain, withNotice({})))).toEqual(['deprecation-added']);
    expect(rules(run(plain, withNotice({ sunset: '2026-02-01' })))).toEqual(['deprecation-incomplete']);
    expect(rules(run(plain, { type: 'object', properties: { code: { type: 'string', deprecated: true } } }))).toEqual(['deprecation-incomplete']);
    expect(rules(run(withNotice({}), withNotice({ sunset: '2026-05-01' })))).toEqual(['sunset-moved-earlier']);
    expect(rules(run(withNotice({}), withNotice({ sunset: '2026-09-01' })))).toEqual([]);
    expect(rules(run(withNotice({}), plain))).toEqual(['deprecation-withdrawn']);
  });

  it('judges lifecycle enums only by the lifecycle rules, in both directions', () => {
    const status = (values: string[], extra: JsonObject = {}) => ({ type: 'string', enum: values, 'x-lifecycle': 'job', 'x-terminal-states': ['DONE', 'FAILED'], ...extra });
    for (const direction of ['request', 'response'] as const) {
      expect(rules(run(status(['PENDING', 'DONE', 'FAILED']), status(['PENDING', 'RETRYING', 'DONE', 'FAILED']), { direction }))).toEqual(['lifecycle-state-added']);
      expect(rules(run(status(['PENDING', 'DONE', 'FAILED']), status(['DONE', 'FAILED']), { direction }))).toEqual(['lifecycle-state-removed']);
      expect(rules(run(status(['PENDING', 'DONE', 'FAILED']), status(['PENDING', 'DONE', 'FAILED'], { 'x-terminal-states': ['DONE'] }), { direction }))).toEqual(['lifecycle-terminal-states-changed']);
    }
    // The marker dropped together with a new state: both said, the state still as a lifecycle change.
    const { 'x-lifecycle': _marker, ...unmarked } = status(['PENDING', 'RETRYING', 'DONE', 'FAILED']);
    expect(rules(run(status(['PENDING', 'DONE', 'FAILED']), unmarked, { direction: 'response' }))).toEqual(['lifecycle-marker-removed', 'lifecycle-state-added']);
    // Wrapped the way the contract does it (allOf around the shared enum).
    const schemas = { Status: status(['PENDING', 'DONE', 'FAILED']) };
    const headSchemas = { Status: status(['PENDING', 'DONE', 'FAILED', 'CANCELLED']) };
    const wrapped = { type: 'object', properties: { status: { allOf: [{ $ref: '#/components/schemas/Status' }], description: 'State.' } } };
    expect(run(wrapped, wrapped, { baseSchemas: schemas, headSchemas, direction: 'response' }).map((c) => `${c.rule} @ ${c.location}`)).toEqual([`lifecycle-state-added @ ${LOCATION} .status`]);
  });

  it('reads x-extensible-enum from BASE: the promise clients were built against', () => {
    const kind = (values: string[], extensible?: boolean) => ({ type: 'string', enum: values, ...(extensible === undefined ? {} : { 'x-extensible-enum': extensible }) });
    expect(rules(run(kind(['a'], true), kind(['a', 'b'], true), { direction: 'response' }))).toEqual(['response-extensible-enum-value-added']);
    expect(rules(run(kind(['a']), kind(['a', 'b'], true), { direction: 'response' }))).toEqual(['response-enum-value-added']);
  });

  it('leaves readOnly properties out of requests and writeOnly ones out of responses', () => {
    const base = { type: 'object', required: ['id', 'secret'], properties: { id: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true } } };
    const head = { type: 'object', required: ['secret'], properties: { secret: { type: 'string', writeOnly: true } } };
    expect(run(base, head)).toEqual([]);
    expect(rules(run(base, head, { direction: 'response' }))).toEqual(['response-property-removed']);
  });

  it('judges x-sandbox-defined schemas like any other: the contract is the contract', () => {
    const base = { type: 'object', 'x-sandbox-defined': true, required: ['total'], properties: { total: { type: 'number' } } };
    const head = { type: 'object', 'x-sandbox-defined': true, properties: { total: { type: 'number' } } };
    expect(rules(run(base, head, { direction: 'response' }))).toEqual(['response-property-made-optional']);
  });

  it('judges the landed-cost request constraints: dependentRequired and not-required combinations', () => {
    const props = { provider: { type: 'string' }, quantity: { type: 'number' }, quantityUnit: { type: 'string' } };
    const base = { type: 'object', properties: props, not: { required: ['provider', 'quantity'] } };
    // Forbidding a superset of a forbidden combination forbids nothing new.
    expect(run(base, { ...base, not: { anyOf: [{ required: ['provider', 'quantity'] }, { required: ['provider', 'quantity', 'quantityUnit'] }] } })).toEqual([]);
    expect(rules(run(base, { ...base, not: { anyOf: [{ required: ['provider', 'quantity'] }, { required: ['provider', 'quantityUnit'] }] } }))).toEqual(['request-not-required-added']);
    expect(rules(run(base, { ...base, dependentRequired: { quantity: ['quantityUnit'] } }))).toEqual(['request-dependent-required-added']);
  });

  it('finds nothing comparing every schema of the contract versions with itself', () => {
    for (const version of CONTRACT_VERSIONS) {
      const contract = loadContract(version);
      const schemas = contract.components.schemas;
      expect(isObject(schemas)).toBe(true);
      const changes: string[] = [];
      const ctx: DiffContext = { base: contract, head: structuredClone(contract), date: new Date('2026-11-01'), emit: (rule, change) => changes.push(`${rule} ${change.location}`) };
      for (const name of Object.keys(schemas as JsonObject)) {
        for (const direction of ['request', 'response'] as const) diffSchema(ctx, { $ref: `#/components/schemas/${name}` }, { $ref: `#/components/schemas/${name}` }, { direction, operation: version, location: name });
      }
      expect(changes, version).toEqual([]);
    }
  });
});

describe('schema rules', () => {
  it('are unique, at least 34, and each has its fixture pair', () => {
    const ids = schemaRules.map((rule) => rule.id);
    expect(ids.length).toBeGreaterThanOrEqual(34);
    expect(new Set(ids).size).toBe(ids.length);
    const fixtures = path.resolve(CONTRACTS_DIR, '..', 'fixtures', 'contract-changes');
    for (const id of ids) {
      for (const file of ['base.yaml', 'head.yaml', 'expected.yaml']) expect(existsSync(path.join(fixtures, id, file)), `${id}/${file}`).toBe(true);
    }
  });
});

describe('type changes', () => {
  it('report a change to an unrelated type once, not the keywords that went with the old type', () => {
    const base = { type: 'object', properties: { value: { type: 'array', items: { type: 'string' }, minItems: 1 } } };
    const head = { type: 'object', properties: { value: { type: 'string', pattern: '^x$' } } };
    expect(rules(run(base, head))).toEqual(['request-type-changed']);
    expect(rules(run(base, head, { direction: 'response' }))).toEqual(['response-type-changed']);
  });
});
