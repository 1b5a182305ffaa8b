// The one vocabulary that marks what the contract chose where the spec says "not shown" or is silent
// (contracts/README.md, "Vendor extensions"), its check, and the spec view of a schema: the schema with
// every sandbox-defined part taken out, which is what a deployment that is not our sandbox is held to.
//
//   x-sandbox-defined: true          neither the name nor the shape is the spec's (a page key we named, a
//                                    record whose fields are "not shown"): outside the simulator profile the
//                                    value is not checked and, on a property, the property need not exist.
//   x-sandbox-defined: contents      the spec names the field (so it is required where the contract requires
//                                    it) but not its contents (landed-cost `breakdown`, spec 4.6 rule 8).
//   x-sandbox-defined-bounds: [...]  the listed bound keywords (maxLength, maxItems, maxProperties, maximum,
//                                    minimum, minLength, minItems, pattern) are ours; the schema's other
//                                    keywords are the spec's. The spec view drops the listed keywords.
//   x-sandbox-defined-values: [...]  the spec names the field and some enum values; the listed values are
//                                    ours. The spec view drops the enum (a deployment may have other values).
//   x-sandbox-defined-default: true  the schema's `default` is ours (the spec names the field, not what an
//                                    omission means): nothing is asserted about an omitted value.
import { isObject, type Json, type JsonObject } from './bundle.js';

export const SANDBOX_DEFINED = 'x-sandbox-defined';
export const SANDBOX_DEFINED_BOUNDS = 'x-sandbox-defined-bounds';
export const SANDBOX_DEFINED_VALUES = 'x-sandbox-defined-values';
export const SANDBOX_DEFINED_DEFAULT = 'x-sandbox-defined-default';
/** Values of `x-sandbox-defined`. */
export const SANDBOX_DEFINED_KINDS = [true, 'contents'] as const;
/** Keywords `x-sandbox-defined-bounds` may list. */
export const SANDBOX_BOUND_KEYWORDS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'pattern'] as const;

/** Every `x-sandbox-*` key the vocabulary knows. */
const KNOWN_KEYS = new Set([SANDBOX_DEFINED, SANDBOX_DEFINED_BOUNDS, SANDBOX_DEFINED_VALUES, SANDBOX_DEFINED_DEFAULT]);

/** `x-sandbox-defined: true` on this node (the name and the shape are ours). */
export const isSandboxDefined = (node: Json | undefined): boolean => isObject(node) && node[SANDBOX_DEFINED] === true;
/** `x-sandbox-defined` of either kind: the value's shape is ours. */
export const hasSandboxShape = (node: Json | undefined): boolean => isObject(node) && (node[SANDBOX_DEFINED] === true || node[SANDBOX_DEFINED] === 'contents');
/** The default the spec gives this node (its `default`, unless `x-sandbox-defined-default` says it is ours). */
export const specDefault = (node: Json | undefined): Json | undefined => (isObject(node) && node[SANDBOX_DEFINED_DEFAULT] !== true ? node.default : undefined);
/** The bound keywords of this node that are ours. */
export function sandboxBounds(node: Json | undefined): Set<string> {
  const listed = isObject(node) ? node[SANDBOX_DEFINED_BOUNDS] : undefined;
  return new Set(Array.isArray(listed) ? listed.filter((k): k is string => typeof k === 'string') : []);
}

/**
 * Problems with the markers of a document: an `x-sandbox-*` key the vocabulary does not know, a value of
 * the wrong kind, a bound listed that the schema does not carry, enum values listed that the enum lacks.
 */
export function markerProblems(node: Json, where = '#'): string[] {
  const out: string[] = [];
  if (Array.isArray(node)) node.forEach((item, i) => out.push(...markerProblems(item, `${where}/${i}`)));
  if (!isObject(node)) return out;
  for (const [key, value] of Object.entries(node)) {
    const at = `${where}/${key}`;
    if (key.startsWith('x-sandbox') && !KNOWN_KEYS.has(key)) out.push(`${at}: unknown marker ${key}`);
    if (key === SANDBOX_DEFINED && !(SANDBOX_DEFINED_KINDS as readonly Json[]).includes(value)) out.push(`${at}: ${JSON.stringify(value)} is not one of true, "contents"`);
    if (key === SANDBOX_DEFINED_BOUNDS) {
      if (!Array.isArray(value) || value.length === 0) out.push(`${at}: must be a non-empty list of bound keywords`);
      else for (const bound of value) {
        if (!(SANDBOX_BOUND_KEYWORDS as readonly Json[]).includes(bound)) out.push(`${at}: ${JSON.stringify(bound)} is not a bound keyword`);
        else if (!(String(bound) in node)) out.push(`${at}: lists ${String(bound)}, which the schema does not carry`);
      }
    }
    if (key === SANDBOX_DEFINED_DEFAULT && (value !== true || !('default' in node))) out.push(`${at}: must be true, beside a default`);
    if (key === SANDBOX_DEFINED_VALUES) {
      // Without an enum (an open string such as the landed-cost `authority`) the list names the values ours.
      const values = Array.isArray(node.enum) ? node.enum : undefined;
      if (!Array.isArray(value) || value.length === 0) out.push(`${at}: must be a non-empty list of enum values`);
      else if (values) for (const v of value) if (!values.includes(v)) out.push(`${at}: ${JSON.stringify(v)} is not a value of the enum`);
    }
    if (key !== 'example' && key !== 'examples') out.push(...markerProblems(value, at));
  }
  return out;
}

/**
 * The spec view of a schema: what a deployment that is not our sandbox is held to. A node marked
 * `x-sandbox-defined` (either kind) accepts any value; a property marked `x-sandbox-defined: true` is no
 * longer required; listed bounds and enums with sandbox values are dropped; and objects accept properties
 * they do not declare (spec 9.3: new response fields are an additive change); `oneOf` becomes `anyOf` (a
 * branch that accepts anything would make "exactly one" fail on the other branch's values). `$ref`s are kept: apply this
 * to the component schemas too (the ajv of the spec view registers the viewed components).
 */
export function specView(node: Json): Json {
  if (Array.isArray(node)) return node.map(specView);
  if (!isObject(node)) return node;
  if (hasSandboxShape(node)) return {};
  const out: JsonObject = {};
  const bounds = sandboxBounds(node);
  for (const [key, value] of Object.entries(node)) {
    if (bounds.has(key)) continue;
    if (key === 'enum' && Array.isArray(node[SANDBOX_DEFINED_VALUES])) continue;
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
    if (key === 'example' || key === 'examples' || key === 'default' || key === 'const') {
      out[key] = value;
      continue;
    }
    // "Exactly one" cannot hold once a branch accepts anything (a nullable value whose object is ours).
    if (key === 'oneOf' && Array.isArray(value)) {
      out.anyOf = value.map(specView);
      continue;
    }
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, specView(sub)]));
      continue;
    }
    out[key] = specView(value);
  }
  if (Array.isArray(out.required) && isObject(node.properties)) {
    const properties = node.properties;
    out.required = out.required.filter((name) => !(typeof name === 'string' && isSandboxDefined(properties[name])));
  }
  return out;
}
