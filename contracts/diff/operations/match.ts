// Matching operations across the two documents: path templates with parameter names blanked, webhooks by name,
// and the parameters each operation takes (path level merged with operation level).
import { isObject, type Json, type JsonObject, type OpenApiDocument } from '../../lib/bundle.js';
import { HTTP_METHODS } from '../../lib/operations.js';
import { deref } from '../../lib/refs.js';

export interface Operation {
  /** `GET /api/jobs/{id}` or `webhook job.completed`. */
  label: string;
  /** Matching key: method + path template with parameter names blanked, or the webhook name. */
  key: string;
  section: 'paths' | 'webhooks';
  path: string;
  method: string;
  node: JsonObject;
  /** Path-level parameters merged with operation-level ones (operation wins), dereferenced. */
  parameters: JsonObject[];
}

const normalizeTemplate = (template: string) => template.replace(/\{[^}]*\}/g, '{}');

export function collectOperations(doc: OpenApiDocument, section: 'paths' | 'webhooks'): Map<string, Operation> {
  const found = new Map<string, Operation>();
  const items = doc[section];
  if (!isObject(items)) return found;
  for (const [path, rawItem] of Object.entries(items)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const methods = HTTP_METHODS.filter((method) => isObject(item[method]));
    for (const method of methods) {
      const node = item[method] as JsonObject;
      const label = section === 'paths' ? `${method.toUpperCase()} ${path}` : methods.length === 1 && method === 'post' ? `webhook ${path}` : `webhook ${path} ${method.toUpperCase()}`;
      const key = section === 'paths' ? `${method} ${normalizeTemplate(path)}` : `${method} ${path}`;
      found.set(key, { label, key, section, path, method, node, parameters: mergeParameters(doc, item.parameters, node.parameters) });
    }
  }
  return found;
}

function mergeParameters(doc: OpenApiDocument, pathLevel: Json | undefined, opLevel: Json | undefined): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const list of [pathLevel, opLevel]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = deref(doc, raw);
      if (!isObject(param) || typeof param.name !== 'string' || typeof param.in !== 'string') continue;
      merged.set(`${param.in}\u0000${param.in === 'header' ? param.name.toLowerCase() : param.name}`, param);
    }
  }
  return [...merged.values()];
}
