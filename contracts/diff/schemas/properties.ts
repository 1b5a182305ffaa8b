// Objects: properties added, removed (against their deprecation), made required or optional, deprecated;
// readOnly and writeOnly properties left out by direction; additionalProperties. Conditions, dependentRequired
// and forbidden combinations of the object are combinators.ts's.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../lib/bundle.js';
import { deprecationProblems, isDeprecated, readDeprecation, removalAllowed } from '../deprecation.js';
import type { Direction } from '../types.js';
import { compareConditions, compareDependentRequired, compareForbiddenCombinations } from './combinators.js';
import { compare } from './compare.js';
import { normalize, type View } from './resolve.js';
import { emit, type Walk } from './walk.js';

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

export function compareObjects(w: Walk, path: string, bs: JsonObject, hs: JsonObject): void {
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
