// Walks the operations of a bundled contract document: the one place that knows where operations live.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './bundle.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface ContractOperation {
  /** `paths` for API operations, `webhooks` for deliveries the service sends. */
  section: 'paths' | 'webhooks';
  path: string;
  method: string;
  operationId: string;
  operation: JsonObject;
  /** Path-level parameters merged with operation-level ones (operation wins), refs left as they are. */
  parameters: Json[];
  tags: string[];
}

export function listOperations(doc: OpenApiDocument, sections: Array<'paths' | 'webhooks'> = ['paths']): ContractOperation[] {
  const found: ContractOperation[] = [];
  for (const section of sections) {
    const items = doc[section];
    if (!isObject(items)) continue;
    for (const [path, item] of Object.entries(items)) {
      if (!isObject(item)) continue;
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const pathParams = Array.isArray(item.parameters) ? item.parameters : [];
        const opParams = Array.isArray(operation.parameters) ? operation.parameters : [];
        found.push({
          section,
          path,
          method,
          operationId: typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`,
          operation,
          parameters: [...pathParams, ...opParams],
          tags: Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [],
        });
      }
    }
  }
  return found;
}

/** Follows a `$ref` of a document held in memory (refs.ts: any local pointer, through arrays and escapes). */
export { deref } from './refs.js';

/** The operation a concrete request addresses (`GET /api/jobs/4f1c...`), or undefined. */
export function matchOperation(doc: OpenApiDocument, method: string, path: string): ContractOperation | undefined {
  const pathname = path.split('?')[0];
  const candidates = listOperations(doc).filter((op) => op.method === method.toLowerCase());
  // Literal segments win over parameters (`/findings/batch` before `/findings/{findingId}`).
  const score = (template: string) => template.split('/').filter((s) => s && !s.startsWith('{')).length;
  for (const op of candidates.sort((a, b) => score(b.path) - score(a.path))) {
    const pattern = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(pathname)) return op;
  }
  return undefined;
}
