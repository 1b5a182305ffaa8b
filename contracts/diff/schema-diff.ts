// Schema-level comparison (spec 9.3): two JSON Schemas, one from each side of a comparison, walked together
// (properties, items, additionalProperties, oneOf/anyOf branches; allOf merged), every difference judged in
// the direction the schema travels. A request schema constrains what a client sends: narrowing it is
// breaking, widening it is info. A response schema (also headers and webhook payloads) is what the client
// receives: loosening the server's guarantees is breaking (or a warning for bounds and enum values),
// tightening them is info. Enums marked `x-lifecycle` are state sets of a state machine and are judged by
// the lifecycle rules in both directions.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../lib/bundle.js';
import { deprecationProblems, readDeprecation, removalAllowed } from './deprecation.js';
import type { DiffContext, Direction, Rule, Severity } from './types.js';

const rule = (id: string, severity: Severity, detects: string, before: string, after: string): Rule => ({ id, severity, detects, example: { before, after } });

export const schemaRules: Rule[] = [
  // ------------------------------------------------------------------ request: properties
  rule('request-required-property-added', 'breaking', 'A request schema gains a new required property: existing clients do not send it.', 'properties: { sku }', 'properties: { sku, quantity }, required: [quantity]'),
  rule('request-optional-property-added', 'info', 'A request schema gains a new optional property.', 'properties: { sku }', 'properties: { sku, note }'),
  rule('request-property-made-required', 'breaking', 'An existing optional request property becomes required.', 'required: [sku]', 'required: [sku, quantity]'),
  rule('request-property-made-optional', 'info', 'A required request property becomes optional.', 'required: [sku, quantity]', 'required: [sku]'),
  rule('request-property-removed', 'warning', 'An optional request property is no longer declared while additional properties stay allowed: the server now ignores what clients send in it.', 'properties: { sku, note }', 'properties: { sku }'),
  rule('request-property-removed-rejected', 'breaking', 'A request property is no longer declared and the schema forbids additional properties: requests that still send it are rejected.', 'additionalProperties: false, properties: { sku, note }', 'additionalProperties: false, properties: { sku }'),
  rule('request-required-property-removed', 'breaking', 'A required request property is no longer declared: data every client sends is now dropped.', 'properties: { sku, quantity }, required: [quantity]', 'properties: { sku }'),
  // ------------------------------------------------------------------ request: types and values
  rule('request-type-changed', 'breaking', 'The type of a request value changes or narrows (a type removed, a free value typed): values clients send may be rejected.', 'type: [string, integer]', 'type: string'),
  rule('request-type-widened', 'info', 'The type of a request value widens (integer to number, a type or "null" added).', 'type: integer', 'type: number'),
  rule('request-nullable-removed', 'breaking', 'A request value no longer accepts null.', 'type: [string, "null"]', 'type: string'),
  rule('request-enum-value-removed', 'breaking', 'A request enum loses a value clients may send.', 'enum: [a, b, c]', 'enum: [a, b]'),
  rule('request-enum-value-added', 'info', 'A request enum gains a value.', 'enum: [a, b]', 'enum: [a, b, c]'),
  rule('request-enum-added', 'breaking', 'A free request value is restricted to an enum.', 'type: string', 'type: string, enum: [a, b]'),
  rule('request-enum-removed', 'info', 'A request enum is dropped: any value of the type is accepted.', 'type: string, enum: [a, b]', 'type: string'),
  rule('request-const-changed', 'breaking', 'The const of a request value is added or changes.', 'const: v1', 'const: v2'),
  rule('request-const-removed', 'info', 'The const of a request value is dropped: other values are accepted.', 'const: v1', 'type: string'),
  // ------------------------------------------------------------------ request: bounds and formats
  rule('request-minimum-increased', 'breaking', 'The lower bound (minimum or exclusiveMinimum) of a request number is raised or added.', 'minimum: 1', 'minimum: 10'),
  rule('request-minimum-decreased', 'info', 'The lower bound of a request number is lowered or dropped.', 'minimum: 10', 'minimum: 1'),
  rule('request-maximum-decreased', 'breaking', 'The upper bound (maximum or exclusiveMaximum) of a request number is lowered or added.', 'maximum: 500', 'maximum: 100'),
  rule('request-maximum-increased', 'info', 'The upper bound of a request number is raised or dropped.', 'maximum: 100', 'maximum: 500'),
  rule('request-min-length-increased', 'breaking', 'The minLength of a request string is raised or added.', 'minLength: 1', 'minLength: 3'),
  rule('request-min-length-decreased', 'info', 'The minLength of a request string is lowered or dropped.', 'minLength: 3', 'minLength: 1'),
  rule('request-max-length-decreased', 'breaking', 'The maxLength of a request string is lowered or added.', 'maxLength: 255', 'maxLength: 64'),
  rule('request-max-length-increased', 'info', 'The maxLength of a request string is raised or dropped.', 'maxLength: 64', 'maxLength: 255'),
  rule('request-min-items-increased', 'breaking', 'The minItems of a request array is raised or added.', 'minItems: 1', 'minItems: 2'),
  rule('request-min-items-decreased', 'info', 'The minItems of a request array is lowered or dropped.', 'minItems: 2', 'minItems: 1'),
  rule('request-max-items-decreased', 'breaking', 'The maxItems of a request array is lowered or added.', 'maxItems: 1000', 'maxItems: 100'),
  rule('request-max-items-increased', 'info', 'The maxItems of a request array is raised or dropped.', 'maxItems: 100', 'maxItems: 1000'),
  rule('request-unique-items-added', 'breaking', 'A request array must now hold unique items.', 'type: array', 'type: array, uniqueItems: true'),
  rule('request-unique-items-removed', 'info', 'A request array may now repeat items.', 'uniqueItems: true', 'uniqueItems: false'),
  rule('request-pattern-added', 'breaking', 'A request string gains a pattern.', 'type: string', 'type: string, pattern: "^[A-Z]{2}$"'),
  rule('request-pattern-changed', 'breaking', 'The pattern of a request string changes.', 'pattern: "^[A-Z]{2}$"', 'pattern: "^[A-Z]{3}$"'),
  rule('request-pattern-removed', 'info', 'The pattern of a request string is dropped.', 'pattern: "^[A-Z]{2}$"', 'type: string'),
  rule('request-format-added', 'breaking', 'A request string gains a format.', 'type: string', 'type: string, format: uuid'),
  rule('request-format-changed', 'breaking', 'The format of a request value changes.', 'format: date', 'format: date-time'),
  rule('request-format-removed', 'info', 'The format of a request value is dropped.', 'format: uuid', 'type: string'),
  rule('request-additional-properties-tightened', 'breaking', 'A request object stops accepting arbitrary extra properties (additionalProperties true or absent becomes false or a schema, a schema becomes false).', 'type: object', 'type: object, additionalProperties: false'),
  rule('request-additional-properties-relaxed', 'info', 'A request object accepts extra properties it used to reject or restrict.', 'additionalProperties: false', 'additionalProperties: true'),
  rule('request-default-changed', 'warning', 'The default of a request value changes or is dropped: clients that omit it get other behaviour.', 'default: always', 'default: skip_exact_duplicates'),
  rule('request-default-added', 'info', 'A request value gains a documented default.', 'type: string', 'type: string, default: always'),
  rule('request-dependent-required-added', 'breaking', 'A request property now requires another (dependentRequired).', 'properties: { quantity, quantityUnit }', 'dependentRequired: { quantity: [quantityUnit] }'),
  rule('request-dependent-required-removed', 'info', 'A dependentRequired constraint of a request object is dropped.', 'dependentRequired: { quantity: [quantityUnit] }', '(none)'),
  rule('request-not-required-added', 'breaking', 'A request object forbids a combination of properties it accepted (`not: { required }`).', 'properties: { provider, quantity }', 'not: { required: [provider, quantity] }'),
  rule('request-not-required-removed', 'info', 'A forbidden combination of request properties (`not: { required }`) is allowed again.', 'not: { required: [provider, quantity] }', '(none)'),
  rule('request-condition-added', 'breaking', 'A request object gains an if/then/else condition: some combinations it accepted are now refused.', 'properties: { webhookUrl, webhookSecret }', 'if: { required: [webhookSecret] }, then: { properties: { webhookUrl: { pattern: ^https:// } } }'),
  rule('request-condition-changed', 'breaking', 'An if/then/else condition of a request object changes: requests it accepted may now be refused.', 'then: { pattern: ^https:// }', 'then: { pattern: ^https://[a-z] }'),
  rule('request-condition-removed', 'info', 'An if/then/else condition of a request object is dropped: it accepts more.', 'if: { required: [webhookSecret] }, then: ...', '(none)'),
  rule('response-condition-added', 'info', 'A response object gains an if/then/else guarantee.', 'properties: { status, breakdown }', 'if: { properties: { status: { const: unconfigured_corridor } } }, then: { properties: { breakdown: { type: null } } }'),
  rule('response-condition-changed', 'warning', 'An if/then/else guarantee of a response object changes: clients relying on it may break.', 'then: { breakdown: null }', 'then: { breakdown: object }'),
  rule('response-condition-removed', 'warning', 'An if/then/else guarantee of a response object is dropped.', 'if: ..., then: ...', '(none)'),
  rule('request-variant-added', 'info', 'A request oneOf/anyOf gains a branch: clients may send a new shape.', 'oneOf: [Card]', 'oneOf: [Card, BankAccount]'),
  rule('request-variant-removed', 'breaking', 'A request oneOf/anyOf loses a branch: a shape clients send is rejected.', 'oneOf: [Card, BankAccount]', 'oneOf: [Card]'),
  // ------------------------------------------------------------------ response: properties
  rule('response-property-removed', 'breaking', 'A response property is no longer sent: clients reading it break.', 'properties: { id, total }', 'properties: { id }'),
  rule('response-property-made-optional', 'breaking', 'A required response property becomes optional: clients may find it missing.', 'required: [id, total]', 'required: [id]'),
  rule('response-property-added', 'info', 'A response gains a property (clients ignore what they do not know).', 'properties: { id }', 'properties: { id, total }'),
  rule('response-property-made-required', 'info', 'An optional response property becomes required: always sent.', 'required: [id]', 'required: [id, total]'),
  // ------------------------------------------------------------------ response: types and values
  rule('response-type-changed', 'breaking', 'The type of a response value is replaced by another.', 'type: string', 'type: integer'),
  rule('response-type-widened', 'breaking', 'The type of a response value widens (a type added, integer to number, the type dropped): clients may receive values they cannot handle.', 'type: integer', 'type: number'),
  rule('response-type-narrowed', 'info', 'The type of a response value narrows (a type removed, number to integer).', 'type: [string, integer]', 'type: string'),
  rule('response-nullable-added', 'breaking', 'A response value may now be null.', 'type: string', 'type: [string, "null"]'),
  rule('response-nullable-removed', 'info', 'A response value is never null any more.', 'type: [string, "null"]', 'type: string'),
  rule('response-enum-value-added', 'warning', 'A response enum gains a value clients may not handle (not marked x-extensible-enum).', 'enum: [a, b]', 'enum: [a, b, c]'),
  rule('response-extensible-enum-value-added', 'info', 'A response enum marked x-extensible-enum gains a value: clients must accept unknown values.', 'x-extensible-enum: true, enum: [a, b]', 'x-extensible-enum: true, enum: [a, b, c]'),
  rule('response-enum-value-removed', 'info', 'A response enum loses a value: the server sends fewer values.', 'enum: [a, b, c]', 'enum: [a, b]'),
  rule('response-enum-added', 'info', 'A free response value is restricted to an enum.', 'type: string', 'type: string, enum: [a, b]'),
  rule('response-enum-removed', 'warning', 'A response enum is dropped: any value of the type may be sent.', 'type: string, enum: [a, b]', 'type: string'),
  rule('response-const-changed', 'breaking', 'The const of a response value changes or is dropped.', 'const: v1', 'const: v2'),
  rule('response-const-added', 'info', 'A response value is pinned to a const.', 'type: string', 'const: v1'),
  // ------------------------------------------------------------------ response: bounds and formats
  rule('response-maximum-increased', 'warning', 'The upper bound of a response number is raised or dropped: clients may receive larger values.', 'maximum: 100', 'maximum: 500'),
  rule('response-maximum-decreased', 'info', 'The upper bound of a response number is lowered or added.', 'maximum: 500', 'maximum: 100'),
  rule('response-minimum-decreased', 'warning', 'The lower bound of a response number is lowered or dropped: clients may receive smaller values.', 'minimum: 1', 'minimum: 0'),
  rule('response-minimum-increased', 'info', 'The lower bound of a response number is raised or added.', 'minimum: 0', 'minimum: 1'),
  rule('response-max-length-increased', 'warning', 'The maxLength of a response string is raised or dropped: clients may receive longer strings.', 'maxLength: 64', 'maxLength: 255'),
  rule('response-max-length-decreased', 'info', 'The maxLength of a response string is lowered or added.', 'maxLength: 255', 'maxLength: 64'),
  rule('response-min-length-decreased', 'warning', 'The minLength of a response string is lowered or dropped: clients may receive shorter (even empty) strings.', 'minLength: 1', 'minLength: 0'),
  rule('response-min-length-increased', 'info', 'The minLength of a response string is raised or added.', 'minLength: 0', 'minLength: 1'),
  rule('response-max-items-increased', 'warning', 'The maxItems of a response array is raised or dropped: clients may receive more items.', 'maxItems: 100', 'maxItems: 1000'),
  rule('response-max-items-decreased', 'info', 'The maxItems of a response array is lowered or added.', 'maxItems: 1000', 'maxItems: 100'),
  rule('response-min-items-decreased', 'warning', 'The minItems of a response array is lowered or dropped: clients may receive fewer (even no) items.', 'minItems: 1', 'minItems: 0'),
  rule('response-min-items-increased', 'info', 'The minItems of a response array is raised or added.', 'minItems: 0', 'minItems: 1'),
  rule('response-unique-items-removed', 'warning', 'A response array may now repeat items.', 'uniqueItems: true', 'uniqueItems: false'),
  rule('response-unique-items-added', 'info', 'A response array now holds unique items.', 'type: array', 'type: array, uniqueItems: true'),
  rule('response-pattern-added', 'info', 'A response string gains a pattern.', 'type: string', 'type: string, pattern: "^[A-Z]{2}$"'),
  rule('response-pattern-changed', 'warning', 'The pattern of a response string changes: clients parsing it may fail.', 'pattern: "^[A-Z]{2}$"', 'pattern: "^[A-Z]{3}$"'),
  rule('response-pattern-removed', 'warning', 'The pattern of a response string is dropped: the server may send other strings.', 'pattern: "^[A-Z]{2}$"', 'type: string'),
  rule('response-format-changed', 'breaking', 'The format of a response value changes: clients parse it as the old format.', 'format: date', 'format: date-time'),
  rule('response-format-added', 'info', 'A response value gains a format.', 'type: string', 'type: string, format: uuid'),
  rule('response-format-removed', 'warning', 'The format of a response value is dropped: the server may send other strings.', 'format: uuid', 'type: string'),
  rule('response-variant-added', 'breaking', 'A response oneOf/anyOf gains a branch: clients may receive a shape they do not know.', 'oneOf: [Card]', 'oneOf: [Card, BankAccount]'),
  rule('response-variant-removed', 'info', 'A response oneOf/anyOf loses a branch.', 'oneOf: [Card, BankAccount]', 'oneOf: [Card]'),
  // ------------------------------------------------------------------ lifecycle enums (x-lifecycle), either direction
  rule('lifecycle-state-added', 'breaking', 'A lifecycle enum (x-lifecycle) gains a state: a client\'s state handling meets a state it does not know.', 'x-lifecycle: job, enum: [PENDING, COMPLETED]', 'x-lifecycle: job, enum: [PENDING, RETRYING, COMPLETED]'),
  rule('lifecycle-state-removed', 'breaking', 'A lifecycle enum (x-lifecycle) loses a state: resources in it, and clients waiting for it, are stranded.', 'x-lifecycle: job, enum: [PENDING, PROCESSING, COMPLETED]', 'x-lifecycle: job, enum: [PENDING, COMPLETED]'),
  rule('lifecycle-terminal-states-changed', 'breaking', 'The terminal states a lifecycle declared (x-terminal-states) change or are dropped: a client polling until terminal would stop early or never.', 'x-terminal-states: [COMPLETED, FAILED]', 'x-terminal-states: [COMPLETED]'),
  rule('lifecycle-marker-removed', 'warning', 'An enum no longer says it is a lifecycle (x-lifecycle dropped): its states are no longer guarded as a state machine.', 'x-lifecycle: job', '(no x-lifecycle)'),
  rule('lifecycle-marker-added', 'info', 'An enum is newly marked as the state set of a lifecycle (x-lifecycle).', '(no x-lifecycle)', 'x-lifecycle: job'),
  rule('lifecycle-machine-changed', 'warning', 'A lifecycle enum now names another state machine.', 'x-lifecycle: job', 'x-lifecycle: feed-session'),
];

// ==================================================================================================== walk

interface Where {
  direction: Direction;
  operation: string;
  location: string;
}

interface Walk extends Where {
  ctx: DiffContext;
  /** Pairs of ref sets on the current path (cycle guard). */
  stack: Set<string>;
  depth: number;
}

/** A schema with its $ref followed (siblings kept), allOf merged in and a one-variant oneOf/anyOf unwrapped. */
interface View {
  s: JsonObject;
  /** Every $ref followed to build the view (the cycle guard's key). */
  refs: string[];
  /** Component name when the schema is a direct $ref. */
  name?: string;
}

const MAX_DEPTH = 64;

/**
 * Compares two schemas (from ctx.base and ctx.head respectively; refs resolved against each side's document),
 * recursing into properties, items, allOf/anyOf/oneOf (match branches sensibly: by $ref name, else by index),
 * additionalProperties, with a cycle guard. `where.location` is the human path so far (e.g.
 * `request body application/json`), extended with `.prop`, `[]`, etc.
 */
export function diffSchema(ctx: DiffContext, base: Json | undefined, head: Json | undefined, where: Where): void {
  if (base === undefined || head === undefined) return; // a schema appearing or vanishing is the caller's change
  const walk: Walk = { ...where, ctx, stack: new Set(), depth: 0 };
  compare(walk, '', normalize(ctx.base, base), normalize(ctx.head, head));
}

function compare(w: Walk, path: string, b: View, h: View): void {
  if (w.depth >= MAX_DEPTH) return;
  // Every cycle passes through a $ref: a pair of ref sets met again on the same path is a cycle.
  const key = b.refs.length || h.refs.length ? `${b.refs.join(',')}|${h.refs.join(',')}` : undefined;
  if (key !== undefined && w.stack.has(key)) return;
  if (key !== undefined) w.stack.add(key);
  w.depth++;
  try {
    compareViews(w, path, b, h);
  } finally {
    w.depth--;
    if (key !== undefined) w.stack.delete(key);
  }
}

function compareViews(w: Walk, path: string, b: View, h: View): void {
  const bu = unionOf(b.s);
  const hu = unionOf(h.s);
  if (bu && !hu) return compareUnionWithPlain(w, path, b, bu, h, 'base');
  if (!bu && hu) return compareUnionWithPlain(w, path, h, hu, b, 'head');
  compareTypes(w, path, b, h);
  // A value that changes to an unrelated type (string to object): that is the change; its former keywords
  // (pattern, properties...) going away with it is not news.
  const bt = ownTypes(b.s)?.filter((t) => t !== 'null');
  const ht = ownTypes(h.s)?.filter((t) => t !== 'null');
  if (bt?.length && ht?.length && !bt.some((t) => ht.some((u) => covers([u], t) || covers([t], u)))) return;
  compareEnums(w, path, b.s, h.s);
  compareConst(w, path, b.s, h.s);
  compareBounds(w, path, b.s, h.s);
  compareStrings(w, path, b.s, h.s);
  compareDefault(w, path, b.s, h.s);
  compareObjects(w, path, b.s, h.s);
  if ('items' in b.s || 'items' in h.s) {
    compare(w, `${path}[]`, normalize(w.ctx.base, b.s.items), normalize(w.ctx.head, h.s.items));
  }
  if (bu && hu) compareBranches(w, path, bu, hu);
}

// ---------------------------------------------------------------------------------------- normalizing

function normalize(doc: OpenApiDocument, node: Json | undefined, expanding: Set<string> = new Set()): View {
  if (node === undefined || node === true || !isObject(node)) {
    return { s: node === false ? { not: {} } : {}, refs: [] };
  }
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const { $ref: _ref, ...siblings } = node;
    const name = ref.split('/').pop();
    if (Object.keys(siblings).length) {
      // OpenAPI 3.1: keywords beside a $ref apply together with it (and the node's annotations win).
      const view = normalize(doc, { ...siblings, allOf: [{ $ref: ref }, ...(Array.isArray(siblings.allOf) ? siblings.allOf : [])] }, expanding);
      return { ...view, name };
    }
    if (expanding.has(ref)) return { s: {}, refs: [ref], name };
    const target = resolvePointer(doc, ref);
    if (target === undefined) return { s: {}, refs: [ref], name }; // not resolvable here: compared by name only
    const view = normalize(doc, target, new Set([...expanding, ref]));
    return { s: view.s, refs: [ref, ...view.refs], name };
  }
  const { allOf, ...own } = node;
  const s = legacyKeywords(own);
  const refs: string[] = [];
  if (Array.isArray(allOf)) {
    for (const part of allOf) {
      const view = normalize(doc, part, expanding);
      refs.push(...view.refs);
      mergeInto(s, view.s);
    }
  }
  // A oneOf/anyOf with a single non-null branch is the nullable-ref idiom: merge the branch in.
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = s[keyword];
    if (!Array.isArray(branches)) continue;
    const views = branches.map((branch) => normalize(doc, branch, expanding));
    const nonNull = views.filter((view) => !isNullOnly(view.s));
    if (nonNull.length > 1) continue;
    const hasNull = nonNull.length < views.length;
    delete s[keyword];
    if (nonNull.length === 1) {
      refs.push(...nonNull[0].refs);
      mergeInto(s, nonNull[0].s);
      const types = typesOf(s);
      if (hasNull && types && !types.includes('null')) s.type = [...types, 'null'];
    } else if (hasNull) {
      s.type = ['null'];
    }
  }
  return { s, refs };
}

/** OpenAPI 3.0 spellings read as 3.1: `nullable: true`, boolean exclusive bounds. */
function legacyKeywords(own: JsonObject): JsonObject {
  const s: JsonObject = { ...own };
  if (s.nullable === true) {
    const types = typesOf(s);
    if (types && !types.includes('null')) s.type = [...types, 'null'];
  }
  delete s.nullable;
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof s[exclusive] !== 'boolean') continue;
    if (s[exclusive] === true && typeof s[bound] === 'number') {
      s[exclusive] = s[bound];
      delete s[bound];
    } else {
      delete s[exclusive];
    }
  }
  return s;
}

function resolvePointer(doc: OpenApiDocument, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let target: Json | undefined = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[key] : undefined;
  }
  return target;
}

const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/** Merges an allOf part into `target` (conjunction: constraints combine, the target's annotations win). */
function mergeInto(target: JsonObject, part: JsonObject): void {
  for (const [key, value] of Object.entries(part)) {
    if (!(key in target)) {
      target[key] = value;
      continue;
    }
    const mine = target[key];
    if (key === 'properties' && isObject(mine) && isObject(value)) {
      const merged: JsonObject = { ...mine };
      for (const [name, schema] of Object.entries(value)) merged[name] = name in merged ? { allOf: [merged[name], schema] } : schema;
      target[key] = merged;
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) {
      target[key] = [...new Set([...mine, ...value].filter((v): v is string => typeof v === 'string'))];
    } else if (key === 'type') {
      const a = typesOf({ type: mine }) ?? [];
      const b = typesOf({ type: value }) ?? [];
      const both: string[] = [];
      for (const t of a) {
        if (b.includes(t)) both.push(t);
        else if ((t === 'number' && b.includes('integer')) || (t === 'integer' && b.includes('number'))) both.push('integer');
      }
      target[key] = [...new Set(both)];
    } else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const keep = new Set(value.map((v) => JSON.stringify(v)));
      target[key] = mine.filter((v) => keep.has(JSON.stringify(v)));
    } else if (LOWER.has(key) && typeof mine === 'number' && typeof value === 'number') {
      target[key] = Math.max(mine, value);
    } else if (UPPER.has(key) && typeof mine === 'number' && typeof value === 'number') {
      target[key] = Math.min(mine, value);
    } else if (key === 'uniqueItems') {
      target[key] = mine === true || value === true;
    } else if (key === 'additionalProperties' || key === 'unevaluatedProperties') {
      if (mine === false || value === false) target[key] = false;
      else if (isObject(mine) && isObject(value)) target[key] = { allOf: [mine, value] };
      else if (mine === true) target[key] = value;
    } else if (key === 'items' && isObject(mine) && isObject(value)) {
      target[key] = { allOf: [mine, value] };
    } else if (key === 'dependentRequired' && isObject(mine) && isObject(value)) {
      const merged: JsonObject = { ...mine };
      for (const [name, deps] of Object.entries(value)) {
        merged[name] = [...new Set([...(Array.isArray(merged[name]) ? (merged[name] as Json[]) : []), ...(Array.isArray(deps) ? deps : [])])];
      }
      target[key] = merged;
    } else if (key === 'not') {
      target[key] = { anyOf: [mine, value] }; // not A and not B = not (A or B)
    }
    // Anything else (annotations, a second oneOf, ...): the target's own value stands.
  }
}

function typesOf(s: JsonObject): string[] | undefined {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function typeOfValue(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The declared types, or those of the enum/const values when no type is declared; undefined: any. */
function ownTypes(s: JsonObject): string[] | undefined {
  const declared = typesOf(s);
  if (declared) return declared;
  if ('const' in s) return [typeOfValue(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(typeOfValue))];
  return undefined;
}

function isNullOnly(s: JsonObject): boolean {
  const types = ownTypes(s);
  return !!types && types.length === 1 && types[0] === 'null';
}

/** The non-null branches of a oneOf/anyOf left after normalizing (two or more), with the keyword. */
function unionOf(s: JsonObject): { keyword: 'oneOf' | 'anyOf'; branches: Json[] } | undefined {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[keyword])) return { keyword, branches: s[keyword] as Json[] };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------- emitting

function emit(w: Walk, ruleId: string, path: string, message: string, before?: Json, after?: Json): void {
  const change: Parameters<DiffContext['emit']>[1] = { operation: w.operation, location: path ? `${w.location} ${path}` : w.location, message };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  w.ctx.emit(ruleId, change);
}

const show = (value: Json | undefined): string => (value === undefined ? '(none)' : JSON.stringify(value));
const list = (values: Json[]): string => values.map((v) => JSON.stringify(v)).join(', ');
const at = (path: string) => (path ? `\`${path.trim()}\`` : 'the value');

// ---------------------------------------------------------------------------------------- types

function covers(types: string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function nullableOf(doc: OpenApiDocument, s: JsonObject): boolean | undefined {
  const types = ownTypes(s);
  if (types) return types.includes('null');
  const union = unionOf(s);
  if (union) return union.branches.some((branch) => isNullOnly(normalize(doc, branch).s));
  return undefined;
}

function compareTypes(w: Walk, path: string, b: View, h: View): void {
  const request = w.direction === 'request';
  const bt = ownTypes(b.s);
  const ht = ownTypes(h.s);
  const bNonNull = bt?.filter((t) => t !== 'null');
  const hNonNull = ht?.filter((t) => t !== 'null');
  if (bNonNull && hNonNull) {
    const removed = bNonNull.filter((t) => !covers(hNonNull, t));
    const added = hNonNull.filter((t) => !covers(bNonNull, t));
    const describe = `type ${show(bt!)} became ${show(ht!)}`;
    if (request) {
      if (removed.length) emit(w, 'request-type-changed', path, `${describe}: clients sending ${removed.join(', ')} are rejected.`, bt!, ht!);
      else if (added.length) emit(w, 'request-type-widened', path, `${describe}: ${added.join(', ')} now accepted as well.`, bt!, ht!);
    } else if (removed.length && added.length) {
      emit(w, 'response-type-changed', path, `${describe}: clients expecting ${removed.join(', ')} receive ${added.join(', ')}.`, bt!, ht!);
    } else if (added.length) {
      emit(w, 'response-type-widened', path, `${describe}: clients may now receive ${added.join(', ')}.`, bt!, ht!);
    } else if (removed.length) {
      emit(w, 'response-type-narrowed', path, `${describe}: ${removed.join(', ')} no longer sent.`, bt!, ht!);
    }
  } else if (!bt && ht && !unionOf(b.s)) {
    if (request) emit(w, 'request-type-changed', path, `a free value is now restricted to type ${show(ht)}.`, undefined, ht);
    else emit(w, 'response-type-narrowed', path, `a free value is now of type ${show(ht)}.`, undefined, ht);
    return;
  } else if (bt && !ht && !unionOf(h.s)) {
    if (request) emit(w, 'request-type-widened', path, `type ${show(bt)} dropped: any value is accepted.`, bt, undefined);
    else emit(w, 'response-type-widened', path, `type ${show(bt)} dropped: clients may receive any value.`, bt, undefined);
    return;
  }
  const bn = nullableOf(w.ctx.base, b.s);
  const hn = nullableOf(w.ctx.head, h.s);
  if (bn === undefined || hn === undefined || bn === hn) return;
  if (request) {
    if (hn) emit(w, 'request-type-widened', path, 'null is now accepted.', bt ?? null, ht ?? null);
    else emit(w, 'request-nullable-removed', path, 'null is no longer accepted: clients sending null are rejected.');
  } else if (hn) {
    emit(w, 'response-nullable-added', path, 'the value may now be null: clients not expecting null break.');
  } else {
    emit(w, 'response-nullable-removed', path, 'the value is never null any more.');
  }
}

// ---------------------------------------------------------------------------------------- enums and const

function compareEnums(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const bl = typeof bs['x-lifecycle'] === 'string' ? (bs['x-lifecycle'] as string) : undefined;
  const hl = typeof hs['x-lifecycle'] === 'string' ? (hs['x-lifecycle'] as string) : undefined;
  const be = Array.isArray(bs.enum) ? bs.enum.filter((v) => v !== null) : undefined;
  const he = Array.isArray(hs.enum) ? hs.enum.filter((v) => v !== null) : undefined;
  const minus = (a: Json[], b: Json[]) => {
    const other = new Set(b.map((v) => JSON.stringify(v)));
    return a.filter((v) => !other.has(JSON.stringify(v)));
  };
  if (bl || hl) {
    const machine = bl ?? hl;
    if (bl && !hl) emit(w, 'lifecycle-marker-removed', path, `the enum no longer says it is the state set of lifecycle ${bl}: its changes stop being judged as state changes.`, bl, null);
    else if (!bl && hl) emit(w, 'lifecycle-marker-added', path, `the enum is now marked as the state set of lifecycle ${hl}.`, null, hl);
    else if (bl !== hl) emit(w, 'lifecycle-machine-changed', path, `the enum now names lifecycle ${hl} instead of ${bl}.`, bl!, hl!);
    if (be && he) {
      const added = minus(he, be);
      const removed = minus(be, he);
      if (added.length) emit(w, 'lifecycle-state-added', path, `lifecycle ${machine} gains state ${list(added)}: a client's state handling meets a state it does not know.`, be, he);
      if (removed.length) emit(w, 'lifecycle-state-removed', path, `lifecycle ${machine} loses state ${list(removed)}: clients waiting for it are stranded.`, be, he);
    } else if (be && !he) {
      emit(w, 'lifecycle-state-added', path, `lifecycle ${machine} no longer enumerates its states: any state may appear.`, be, null);
    } else if (!be && he) {
      emit(w, 'lifecycle-state-removed', path, `lifecycle ${machine} is now restricted to ${list(he)}.`, null, he);
    }
    const bt = Array.isArray(bs['x-terminal-states']) ? (bs['x-terminal-states'] as Json[]) : undefined;
    const ht = Array.isArray(hs['x-terminal-states']) ? (hs['x-terminal-states'] as Json[]) : undefined;
    // Judged against what BASE declared: terminal states documented for the first time are no change a
    // client could have relied on; declared ones changed, or dropped from a lifecycle that stays, are.
    if (bt && (ht || hl)) {
      const b = bt ?? [];
      const h = ht ?? [];
      const gained = minus(h, b);
      const lost = minus(b, h);
      if (gained.length || lost.length) {
        const parts = [gained.length ? `now terminal: ${list(gained)}` : '', lost.length ? `no longer terminal: ${list(lost)}` : ''].filter(Boolean);
        emit(w, 'lifecycle-terminal-states-changed', path, `terminal states of lifecycle ${machine} changed (${parts.join('; ')}): a client polling until terminal would stop early or never.`, b, h);
      }
    }
    return;
  }
  const request = w.direction === 'request';
  if (be && he) {
    const added = minus(he, be);
    const removed = minus(be, he);
    if (request) {
      if (removed.length) emit(w, 'request-enum-value-removed', path, `enum value ${list(removed)} no longer accepted.`, be, he);
      if (added.length) emit(w, 'request-enum-value-added', path, `enum value ${list(added)} now accepted.`, be, he);
    } else {
      // The promise clients were built against is BASE's: an enum declared extensible there is read leniently.
      if (added.length && bs['x-extensible-enum'] === true) emit(w, 'response-extensible-enum-value-added', path, `extensible enum gains ${list(added)}.`, be, he);
      else if (added.length) emit(w, 'response-enum-value-added', path, `enum gains ${list(added)}: clients may receive a value they do not handle (the enum is not x-extensible-enum).`, be, he);
      if (removed.length) emit(w, 'response-enum-value-removed', path, `enum value ${list(removed)} no longer sent.`, be, he);
    }
  } else if (!be && he) {
    if (request) emit(w, 'request-enum-added', path, `the value is now restricted to ${list(he)}.`, null, he);
    else emit(w, 'response-enum-added', path, `the value is now one of ${list(he)}.`, null, he);
  } else if (be && !he) {
    if (request) emit(w, 'request-enum-removed', path, `enum ${list(be)} dropped: any value is accepted.`, be, null);
    else emit(w, 'response-enum-removed', path, `enum ${list(be)} dropped: clients may receive any value.`, be, null);
  }
}

function compareConst(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const bHas = 'const' in bs;
  const hHas = 'const' in hs;
  if (!bHas && !hHas) return;
  if (bHas && hHas && JSON.stringify(bs.const) === JSON.stringify(hs.const)) return;
  const before = bHas ? bs.const : undefined;
  const after = hHas ? hs.const : undefined;
  if (w.direction === 'request') {
    if (hHas) emit(w, 'request-const-changed', path, `const ${show(before)} became ${show(after)}: clients sending the old value are rejected.`, before, after);
    else emit(w, 'request-const-removed', path, `const ${show(before)} dropped: other values are accepted.`, before, after);
  } else if (bHas) {
    emit(w, 'response-const-changed', path, `const ${show(before)} became ${show(after)}: clients relying on the old value break.`, before, after);
  } else {
    emit(w, 'response-const-added', path, `the value is now always ${show(after)}.`, before, after);
  }
}

// ---------------------------------------------------------------------------------------- bounds

interface Bound {
  value: number;
  exclusive: boolean;
}

function lowerBound(s: JsonObject): Bound | undefined {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const ex = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  if (ex !== undefined && (min === undefined || ex >= min)) return { value: ex, exclusive: true };
  return min === undefined ? undefined : { value: min, exclusive: false };
}

function upperBound(s: JsonObject): Bound | undefined {
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  const ex = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined;
  if (ex !== undefined && (max === undefined || ex <= max)) return { value: ex, exclusive: true };
  return max === undefined ? undefined : { value: max, exclusive: false };
}

const boundText = (bound: Bound | undefined, lower: boolean) => (bound ? `${lower ? (bound.exclusive ? '>' : '>=') : bound.exclusive ? '<' : '<='} ${bound.value}` : 'none');

/** Whether bound `b` admits fewer values than `a` (undefined: unbounded). */
function stricter(a: Bound | undefined, b: Bound | undefined, lower: boolean): boolean {
  if (!b) return false;
  if (!a) return true;
  if (b.value !== a.value) return lower ? b.value > a.value : b.value < a.value;
  return b.exclusive && !a.exclusive;
}

/** Each bound: the rule ids for [request tightened, request relaxed, response loosened, response tightened]. */
const NUMBER_BOUNDS = [
  { name: 'minimum', lower: true, read: lowerBound, ids: ['request-minimum-increased', 'request-minimum-decreased', 'response-minimum-decreased', 'response-minimum-increased'] },
  { name: 'maximum', lower: false, read: upperBound, ids: ['request-maximum-decreased', 'request-maximum-increased', 'response-maximum-increased', 'response-maximum-decreased'] },
] as const;

const COUNT_BOUNDS = [
  { key: 'minLength', lower: true, ids: ['request-min-length-increased', 'request-min-length-decreased', 'response-min-length-decreased', 'response-min-length-increased'] },
  { key: 'maxLength', lower: false, ids: ['request-max-length-decreased', 'request-max-length-increased', 'response-max-length-increased', 'response-max-length-decreased'] },
  { key: 'minItems', lower: true, ids: ['request-min-items-increased', 'request-min-items-decreased', 'response-min-items-decreased', 'response-min-items-increased'] },
  { key: 'maxItems', lower: false, ids: ['request-max-items-decreased', 'request-max-items-increased', 'response-max-items-increased', 'response-max-items-decreased'] },
] as const;

function judgeBound(w: Walk, path: string, ids: readonly string[], tightened: boolean, loosened: boolean, text: string, before: Json | undefined, after: Json | undefined): void {
  if (w.direction === 'request') {
    if (tightened) emit(w, ids[0], path, `${text}: values clients sent may now be rejected.`, before, after);
    else if (loosened) emit(w, ids[1], path, `${text}: more values accepted.`, before, after);
  } else if (loosened) {
    emit(w, ids[2], path, `${text}: clients may receive values outside the former bound.`, before, after);
  } else if (tightened) {
    emit(w, ids[3], path, `${text}.`, before, after);
  }
}

function compareBounds(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  for (const bound of NUMBER_BOUNDS) {
    const a = bound.read(bs);
    const b = bound.read(hs);
    const text = `${bound.name} ${boundText(a, bound.lower)} became ${boundText(b, bound.lower)}`;
    judgeBound(w, path, bound.ids, stricter(a, b, bound.lower), stricter(b, a, bound.lower), text, a?.value, b?.value);
  }
  for (const bound of COUNT_BOUNDS) {
    const read = (s: JsonObject) => (typeof s[bound.key] === 'number' ? (s[bound.key] as number) : bound.lower ? 0 : Infinity);
    const a = read(bs);
    const b = read(hs);
    if (a === b) continue;
    const tightened = bound.lower ? b > a : b < a;
    const fmt = (n: number) => (Number.isFinite(n) ? String(n) : 'none');
    judgeBound(w, path, bound.ids, tightened, !tightened, `${bound.key} ${fmt(a)} became ${fmt(b)}`, Number.isFinite(a) ? a : undefined, Number.isFinite(b) ? b : undefined);
  }
  const bu = bs.uniqueItems === true;
  const hu = hs.uniqueItems === true;
  if (bu !== hu) {
    if (w.direction === 'request') {
      if (hu) emit(w, 'request-unique-items-added', path, 'items must now be unique: requests repeating an item are rejected.', false, true);
      else emit(w, 'request-unique-items-removed', path, 'items may now repeat.', true, false);
    } else if (hu) emit(w, 'response-unique-items-added', path, 'items are now unique.', false, true);
    else emit(w, 'response-unique-items-removed', path, 'items may now repeat: clients keying on them may break.', true, false);
  }
}

// ---------------------------------------------------------------------------------------- strings

function compareStrings(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const request = w.direction === 'request';
  for (const keyword of ['pattern', 'format'] as const) {
    const a = typeof bs[keyword] === 'string' ? (bs[keyword] as string) : undefined;
    const b = typeof hs[keyword] === 'string' ? (hs[keyword] as string) : undefined;
    if (a === b) continue;
    const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const text = `${keyword} ${show(a)} became ${show(b)}`;
    const consequence =
      request
        ? change === 'removed' ? 'more values accepted.' : 'values clients sent may now be rejected.'
        : change === 'added' ? 'the server now guarantees it.' : 'clients relying on the former guarantee may break.';
    emit(w, `${w.direction}-${keyword}-${change}`, path, `${text}: ${consequence}`, a, b);
  }
}

function compareDefault(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  if (w.direction !== 'request') return;
  const bHas = 'default' in bs;
  const hHas = 'default' in hs;
  if (bHas && hHas && JSON.stringify(bs.default) === JSON.stringify(hs.default)) return;
  if (bHas) emit(w, 'request-default-changed', path, `default ${show(bs.default)} became ${show(hHas ? hs.default : undefined)}: clients that omit the value get other behaviour.`, bs.default, hHas ? hs.default : undefined);
  else if (hHas) emit(w, 'request-default-added', path, `default ${show(hs.default)} documented.`, undefined, hs.default);
}

// ---------------------------------------------------------------------------------------- objects

type OpenState = 'open' | 'schema' | 'closed';

function openState(s: JsonObject): OpenState {
  const ap = s.additionalProperties;
  if (ap === false) return 'closed';
  if (isObject(ap) && Object.keys(ap).length > 0) return 'schema';
  if (s.unevaluatedProperties === false) return 'closed';
  return 'open';
}

/** The declared properties; a readOnly one is not part of what a client sends, a writeOnly one not of what
 *  it receives: those are left out (`hidden`), also from `required`. */
function propertiesOf(doc: OpenApiDocument, s: JsonObject, direction: Direction): { props: Map<string, View>; required: Set<string> } {
  const props = new Map<string, View>();
  const hidden = new Set<string>();
  for (const [name, node] of Object.entries(isObject(s.properties) ? s.properties : {})) {
    const view = normalize(doc, node);
    if ((direction === 'request' && view.s.readOnly === true) || (direction === 'response' && view.s.writeOnly === true)) hidden.add(name);
    else props.set(name, view);
  }
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string' && !hidden.has(r)) : []);
  return { props, required };
}

const isDeprecated = (s: JsonObject) => s.deprecated === true || isObject(s['x-deprecation']);

function compareObjects(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const request = w.direction === 'request';
  const { props: bp, required: br } = propertiesOf(w.ctx.base, bs, w.direction);
  const { props: hp, required: hr } = propertiesOf(w.ctx.head, hs, w.direction);
  const headOpen = openState(hs);

  for (const name of hp.keys()) {
    if (bp.has(name)) continue;
    const where = `${path}.${name}`;
    if (!request) emit(w, 'response-property-added', where, `property \`${name}\` added${hr.has(name) ? ' (always sent)' : ''}.`);
    else if (hr.has(name)) emit(w, 'request-required-property-added', where, `new required property \`${name}\`: existing clients do not send it.`);
    else emit(w, 'request-optional-property-added', where, `new optional property \`${name}\`.`);
  }
  for (const [name, view] of bp) {
    if (hp.has(name)) continue;
    const where = `${path}.${name}`;
    const removal = removalAllowed(readDeprecation(view.s), w.ctx.date);
    if (removal.allowed) {
      emit(w, 'removal-after-sunset', where, `property \`${name}\` removed after its deprecation: ${removal.reason}.`);
      continue;
    }
    const unannounced = `; the removal is not covered by a deprecation: ${removal.reason}`;
    if (!request) emit(w, 'response-property-removed', where, `property \`${name}\` is no longer sent: clients reading it break${unannounced}.`);
    else if (br.has(name)) emit(w, 'request-required-property-removed', where, `required property \`${name}\` removed: what every client sends in it is now dropped${unannounced}.`);
    else if (headOpen === 'closed') emit(w, 'request-property-removed-rejected', where, `property \`${name}\` removed and additional properties are not allowed: requests still sending it are rejected${unannounced}.`);
    else emit(w, 'request-property-removed', where, `property \`${name}\` removed: the server now ${headOpen === 'schema' ? 'validates it against additionalProperties' : 'ignores it'}${unannounced}.`);
  }

  // Required-ness of properties present on both sides (or declared on neither, named only in `required`).
  for (const name of new Set([...br, ...hr])) {
    if (bp.has(name) !== hp.has(name)) continue;
    if (br.has(name) === hr.has(name)) continue;
    const where = `${path}.${name}`;
    if (hr.has(name)) {
      if (request) emit(w, 'request-property-made-required', where, `property \`${name}\` is now required: clients that omit it are rejected.`);
      else emit(w, 'response-property-made-required', where, `property \`${name}\` is now always sent.`);
    } else if (request) {
      emit(w, 'request-property-made-optional', where, `property \`${name}\` is now optional.`);
    } else {
      emit(w, 'response-property-made-optional', where, `property \`${name}\` is no longer required: clients may find it missing.`);
    }
  }

  for (const [name, bView] of bp) {
    const hView = hp.get(name);
    if (!hView) continue;
    compareDeprecation(w, `${path}.${name}`, name, bView.s, hView.s);
    compare(w, `${path}.${name}`, bView, hView);
  }

  compareAdditional(w, path, bs, hs);
  compareConditions(w, path, bs, hs);
  if (request) {
    compareDependentRequired(w, path, bs, hs);
    compareForbiddenCombinations(w, path, bs, hs);
  }
}

/** An object's if/then/else as one comparable value (undefined when it has none). */
function condition(s: JsonObject): string | undefined {
  if (s.if === undefined) return undefined;
  return JSON.stringify({ if: s.if, then: s.then ?? null, else: s.else ?? null });
}

function compareConditions(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = condition(bs);
  const b = condition(hs);
  if (a === b) return;
  const side = w.direction === 'request' ? 'request' : 'response';
  const before = a === undefined ? undefined : (JSON.parse(a) as Json);
  const after = b === undefined ? undefined : (JSON.parse(b) as Json);
  if (a === undefined) emit(w, `${side}-condition-added`, path, 'an if/then/else condition is new.', before, after);
  else if (b === undefined) emit(w, `${side}-condition-removed`, path, 'the if/then/else condition is gone.', before, after);
  else emit(w, `${side}-condition-changed`, path, 'the if/then/else condition changed.', before, after);
}

function compareDeprecation(w: Walk, path: string, name: string, bs: JsonObject, hs: JsonObject): void {
  const bDep = isDeprecated(bs);
  const hDep = isDeprecated(hs);
  if (!bDep && !hDep) return;
  if (bDep && !hDep) {
    emit(w, 'deprecation-withdrawn', path, `property \`${name}\` is no longer deprecated.`);
    return;
  }
  const before = readDeprecation(bs);
  const after = readDeprecation(hs);
  const problems = deprecationProblems(after);
  const notice = (d: typeof after) => (d ? (JSON.parse(JSON.stringify(d)) as Json) : undefined);
  if (!bDep) {
    if (problems.length) emit(w, 'deprecation-incomplete', path, `property \`${name}\` is deprecated without a complete notice (spec 9.3): ${problems.join('; ')}.`, undefined, notice(after));
    else emit(w, 'deprecation-added', path, `property \`${name}\` deprecated: replacement ${after!.replacement}, sunset ${after!.sunset}.`, undefined, notice(after));
    return;
  }
  const beforeProblems = deprecationProblems(before);
  if (problems.length && !beforeProblems.length) {
    emit(w, 'deprecation-incomplete', path, `the deprecation notice of property \`${name}\` is no longer complete (spec 9.3): ${problems.join('; ')}.`, notice(before), notice(after));
  } else if (!problems.length && beforeProblems.length) {
    emit(w, 'deprecation-added', path, `the deprecation of property \`${name}\` now has a complete notice: replacement ${after!.replacement}, sunset ${after!.sunset}.`, notice(before), notice(after));
  }
  const bSunset = Date.parse(before?.sunset ?? '');
  const hSunset = Date.parse(after?.sunset ?? '');
  if (!Number.isNaN(bSunset) && !Number.isNaN(hSunset) && hSunset < bSunset) {
    emit(w, 'sunset-moved-earlier', path, `the sunset of property \`${name}\` moved from ${before!.sunset} to ${after!.sunset}: clients planned their migration on the former date.`, before!.sunset, after!.sunset);
  }
}

function compareAdditional(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = openState(bs);
  const b = openState(hs);
  if (a === 'schema' && b === 'schema') {
    compare(w, `${path}.*`, normalize(w.ctx.base, bs.additionalProperties), normalize(w.ctx.head, hs.additionalProperties));
    return;
  }
  if (a === b || w.direction !== 'request') return;
  const rank: Record<OpenState, number> = { open: 0, schema: 1, closed: 2 };
  const text: Record<OpenState, string> = { open: 'allowed', schema: 'restricted by a schema', closed: 'forbidden' };
  if (rank[b] > rank[a]) emit(w, 'request-additional-properties-tightened', path, `additional properties were ${text[a]}, now ${text[b]}: requests carrying extra properties may be rejected.`, bs.additionalProperties, hs.additionalProperties);
  else emit(w, 'request-additional-properties-relaxed', path, `additional properties were ${text[a]}, now ${text[b]}.`, bs.additionalProperties, hs.additionalProperties);
}

function dependencyPairs(s: JsonObject): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  if (!isObject(s.dependentRequired)) return pairs;
  for (const [name, deps] of Object.entries(s.dependentRequired)) {
    if (!Array.isArray(deps)) continue;
    for (const dep of deps) if (typeof dep === 'string') pairs.set(`${name} -> ${dep}`, [name, dep]);
  }
  return pairs;
}

function compareDependentRequired(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = dependencyPairs(bs);
  const b = dependencyPairs(hs);
  const added = [...b.keys()].filter((k) => !a.has(k));
  const removed = [...a.keys()].filter((k) => !b.has(k));
  if (added.length) emit(w, 'request-dependent-required-added', path, `new dependentRequired: ${added.join(', ')}: requests sending the first without the second are rejected.`, bs.dependentRequired, hs.dependentRequired);
  if (removed.length) emit(w, 'request-dependent-required-removed', path, `dependentRequired dropped: ${removed.join(', ')}.`, bs.dependentRequired, hs.dependentRequired);
}

/** The property combinations `not: { required }` forbids (also under `not: { anyOf/oneOf: [...] }`). */
function forbiddenCombinations(s: JsonObject): string[][] {
  const found: string[][] = [];
  const collect = (node: Json | undefined) => {
    if (!isObject(node)) return;
    if (Array.isArray(node.required) && node.required.length) found.push([...new Set(node.required.filter((r): r is string => typeof r === 'string'))].sort());
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches)) branches.forEach(collect);
    }
  };
  collect(s.not);
  return found;
}

function compareForbiddenCombinations(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
  const a = forbiddenCombinations(bs);
  const b = forbiddenCombinations(hs);
  // A combination is already forbidden when a subset of it is.
  const implied = (combo: string[], by: string[][]) => by.some((other) => other.every((name) => combo.includes(name)));
  const added = b.filter((combo) => !implied(combo, a));
  const removed = a.filter((combo) => !implied(combo, b));
  const text = (combos: string[][]) => combos.map((c) => `[${c.join(', ')}]`).join(', ');
  if (added.length) emit(w, 'request-not-required-added', path, `sending ${text(added)} together is now forbidden.`, a, b);
  if (removed.length) emit(w, 'request-not-required-removed', path, `sending ${text(removed)} together is allowed again.`, a, b);
}

// ---------------------------------------------------------------------------------------- oneOf / anyOf

const refName = (node: Json): string | undefined => (isObject(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined);

function branchLabel(keyword: string, node: Json, index: number): string {
  return `(${keyword} ${refName(node) ?? `#${index + 1}`})`;
}

function summarize(doc: OpenApiDocument, node: Json): string {
  const name = refName(node);
  if (name) return name;
  const types = ownTypes(normalize(doc, node).s);
  return types ? types.join('|') : 'a schema';
}

function reportVariant(w: Walk, path: string, keyword: string, node: Json, index: number, side: 'base' | 'head'): void {
  const doc = side === 'base' ? w.ctx.base : w.ctx.head;
  const where = `${path}${branchLabel(keyword, node, index)}`;
  const what = summarize(doc, node);
  if (side === 'head') {
    if (w.direction === 'request') emit(w, 'request-variant-added', where, `${keyword} gains branch ${what}: clients may send it.`);
    else emit(w, 'response-variant-added', where, `${keyword} gains branch ${what}: clients may receive a shape they do not know.`);
  } else if (w.direction === 'request') emit(w, 'request-variant-removed', where, `${keyword} loses branch ${what}: requests of that shape are rejected.`);
  else emit(w, 'response-variant-removed', where, `${keyword} loses branch ${what}.`);
}

/** Pairs base and head branches: by $ref name first, then the rest in order. */
function matchBranches(bb: Json[], hb: Json[]): { pairs: Array<[number, number]>; baseOnly: number[]; headOnly: number[] } {
  const pairs: Array<[number, number]> = [];
  const bFree = new Set(bb.map((_, i) => i));
  const hFree = new Set(hb.map((_, i) => i));
  for (const i of bFree) {
    const name = refName(bb[i]);
    if (!name) continue;
    const j = [...hFree].find((k) => refName(hb[k]) === name);
    if (j === undefined) continue;
    pairs.push([i, j]);
    bFree.delete(i);
    hFree.delete(j);
  }
  // Unnamed branches pair in order; a named branch pairs only with an unnamed one or a renamed one
  // when the names cannot match anything else.
  const bRest = [...bFree];
  const hRest = [...hFree];
  const n = Math.min(bRest.length, hRest.length);
  for (let k = 0; k < n; k++) pairs.push([bRest[k], hRest[k]]);
  return { pairs, baseOnly: bRest.slice(n), headOnly: hRest.slice(n) };
}

function nonNullBranches(doc: OpenApiDocument, branches: Json[]): Json[] {
  return branches.filter((branch) => !isNullOnly(normalize(doc, branch).s));
}

function compareBranches(w: Walk, path: string, bu: { keyword: string; branches: Json[] }, hu: { keyword: string; branches: Json[] }): void {
  const bb = nonNullBranches(w.ctx.base, bu.branches);
  const hb = nonNullBranches(w.ctx.head, hu.branches);
  const { pairs, baseOnly, headOnly } = matchBranches(bb, hb);
  for (const [i, j] of pairs) {
    compare(w, `${path}${branchLabel(hu.keyword, hb[j], j)}`, normalize(w.ctx.base, bb[i]), normalize(w.ctx.head, hb[j]));
  }
  for (const i of baseOnly) reportVariant(w, path, bu.keyword, bb[i], i, 'base');
  for (const j of headOnly) reportVariant(w, path, hu.keyword, hb[j], j, 'head');
}

/**
 * One side is a union of several branches, the other a plain schema: the plain schema is compared with the
 * branch that matches it (same $ref name, else same types, else the first), merged with the union's own
 * keywords; every other branch is a variant added (union in head) or removed (union in base).
 */
function compareUnionWithPlain(w: Walk, path: string, unionView: View, union: { keyword: 'oneOf' | 'anyOf'; branches: Json[] }, plain: View, unionSide: 'base' | 'head'): void {
  const unionDoc = unionSide === 'base' ? w.ctx.base : w.ctx.head;
  const branches = nonNullBranches(unionDoc, union.branches);
  const { [union.keyword]: _branches, ...own } = unionView.s;
  if (!branches.length) {
    const ownView: View = { s: own, refs: unionView.refs };
    if (unionSide === 'base') compare(w, path, ownView, plain);
    else compare(w, path, plain, ownView);
    return;
  }
  const plainTypes = ownTypes(plain.s)?.filter((t) => t !== 'null').sort().join('|');
  let match = branches.findIndex((branch) => plain.name !== undefined && refName(branch) === plain.name);
  if (match < 0 && plainTypes) match = branches.findIndex((branch) => ownTypes(normalize(unionDoc, branch).s)?.filter((t) => t !== 'null').sort().join('|') === plainTypes);
  if (match < 0) match = 0;
  const hasNullBranch = branches.length < union.branches.length;
  const merged = normalize(unionDoc, { ...own, allOf: [branches[match]] });
  if (hasNullBranch) {
    const types = typesOf(merged.s);
    if (types && !types.includes('null')) merged.s.type = [...types, 'null'];
  }
  const mergedView: View = { s: merged.s, refs: [...unionView.refs, ...merged.refs], name: refName(branches[match]) };
  if (unionSide === 'base') compare(w, path, mergedView, plain);
  else compare(w, path, plain, mergedView);
  branches.forEach((branch, index) => {
    if (index !== match) reportVariant(w, path, union.keyword, branch, index, unionSide);
  });
}
