// Security: the requirement alternatives of each operation (scheme sets with scopes), and the named security
// schemes of the document.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../lib/bundle.js';
import { deref } from '../../lib/refs.js';
import type { DiffContext } from '../types.js';

type Alternative = Map<string, Set<string>>; // scheme -> required scopes

function effectiveSecurity(doc: OpenApiDocument, op: JsonObject): Alternative[] {
  const declared = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  const alternatives = declared.filter(isObject).map((requirement) => new Map(Object.entries(requirement).map(([scheme, scopes]) => [scheme, new Set(Array.isArray(scopes) ? scopes.map(String) : [])])));
  return alternatives.length ? alternatives : [new Map()]; // nothing declared: no authentication
}

const schemesKey = (alt: Alternative) => [...alt.keys()].sort().join(' + ');
const describe = (alt: Alternative) => (alt.size ? [...alt].map(([scheme, scopes]) => (scopes.size ? `${scheme} [${[...scopes].join(', ')}]` : scheme)).join(' + ') : 'no authentication');
const securityJson = (alts: Alternative[]): Json => alts.map((alt) => Object.fromEntries([...alt].map(([scheme, scopes]) => [scheme, [...scopes]])));

/** Whether a client satisfying `strong` also satisfies `weak` (weak's schemes and scopes are a subset). */
function satisfies(strong: Alternative, weak: Alternative): boolean {
  for (const [scheme, scopes] of weak) {
    const have = strong.get(scheme);
    if (!have || [...scopes].some((scope) => !have.has(scope))) return false;
  }
  return true;
}

export function diffSecurity(ctx: DiffContext, base: JsonObject, head: JsonObject, operation: string): void {
  const before = effectiveSecurity(ctx.base, base);
  const after = effectiveSecurity(ctx.head, head);
  const change = (location: string, message: string) => ({ operation, location, message, before: securityJson(before), after: securityJson(after) });
  const headByKey = new Map(after.map((alt) => [schemesKey(alt), alt]));
  const baseKeys = new Set(before.map(schemesKey));
  for (const alt of before) {
    const key = schemesKey(alt);
    const same = headByKey.get(key);
    if (same) {
      for (const [scheme, scopes] of same) {
        const had = alt.get(scheme)!;
        const added = [...scopes].filter((scope) => !had.has(scope));
        const removed = [...had].filter((scope) => !scopes.has(scope));
        const location = same.size > 1 ? `security ${key} (${scheme})` : `security ${scheme}`;
        if (added.length) ctx.emit('security-scope-added', change(location, `${scheme} now requires scope ${added.join(', ')}`));
        if (removed.length) ctx.emit('security-scope-removed', change(location, `${scheme} no longer requires scope ${removed.join(', ')}`));
      }
      continue;
    }
    if (after.some((other) => satisfies(alt, other))) {
      const relaxed = after.find((other) => satisfies(alt, other))!;
      // A client of the old alternative still gets in, with less.
      if (!baseKeys.has(schemesKey(relaxed))) ctx.emit('security-requirement-removed', change(`security ${key || 'none'}`, `${describe(alt)} is relaxed to ${describe(relaxed)}`));
      continue;
    }
    ctx.emit('security-requirement-added', change(`security ${key || 'none'}`, alt.size ? `${describe(alt)} is no longer accepted; accepted: ${after.map(describe).join(' or ')}` : `${operation} now requires authentication: ${after.map(describe).join(' or ')}`));
  }
  for (const alt of after) {
    const key = schemesKey(alt);
    if (baseKeys.has(key)) continue;
    if (before.some((old) => satisfies(old, alt))) continue; // reported above as a relaxation
    if (before.some((old) => satisfies(alt, old))) continue; // stricter than an old way: adds no new way in
    ctx.emit('security-alternative-added', change(`security ${key || 'none'}`, `${describe(alt)} is a new way to authenticate`));
  }
}

const SCHEME_FIELDS = ['type', 'in', 'name', 'scheme', 'openIdConnectUrl'] as const;
const FLOW_URLS = ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const;

export function diffSecuritySchemes(ctx: DiffContext): void {
  const baseSchemes = isObject(ctx.base.components?.securitySchemes) ? ctx.base.components.securitySchemes : {};
  const headSchemes = isObject(ctx.head.components?.securitySchemes) ? ctx.head.components.securitySchemes : {};
  for (const [name, raw] of Object.entries(baseSchemes)) {
    if (!(name in headSchemes)) continue; // a removed scheme shows in the operations that used it
    const before = deref(ctx.base, raw);
    const after = deref(ctx.head, headSchemes[name]);
    if (!isObject(before) || !isObject(after)) continue;
    const changed: string[] = [];
    for (const field of SCHEME_FIELDS) {
      const a = typeof before[field] === 'string' ? (field === 'scheme' ? (before[field] as string).toLowerCase() : before[field]) : undefined;
      const b = typeof after[field] === 'string' ? (field === 'scheme' ? (after[field] as string).toLowerCase() : after[field]) : undefined;
      if (a !== b) changed.push(`${field} ${a ?? '(none)'} -> ${b ?? '(none)'}`);
    }
    const baseFlows = isObject(before.flows) ? before.flows : {};
    const headFlows = isObject(after.flows) ? after.flows : {};
    for (const flow of new Set([...Object.keys(baseFlows), ...Object.keys(headFlows)])) {
      const a = baseFlows[flow];
      const b = headFlows[flow];
      if (!isObject(b)) changed.push(`flow ${flow} removed`);
      else if (isObject(a)) for (const url of FLOW_URLS) if (a[url] !== b[url]) changed.push(`flow ${flow} ${url} ${String(a[url] ?? '(none)')} -> ${String(b[url] ?? '(none)')}`);
    }
    if (changed.length) ctx.emit('security-scheme-changed', { operation: 'document', location: `securityScheme ${name}`, message: `security scheme ${name} changes: ${changed.join('; ')}`, before, after });
  }
}
