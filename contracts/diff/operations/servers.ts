// Servers: each address with its variable defaults filled in.
import { isObject, type OpenApiDocument } from '../../lib/bundle.js';
import type { DiffContext } from '../types.js';

function serverUrls(doc: OpenApiDocument): string[] {
  if (!Array.isArray(doc.servers)) return [];
  return doc.servers.filter(isObject).map((server) => {
    const variables = isObject(server.variables) ? server.variables : {};
    return String(server.url ?? '').replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
    });
  });
}

export function diffServers(ctx: DiffContext): void {
  const before = serverUrls(ctx.base);
  const after = serverUrls(ctx.head);
  for (const url of before) {
    if (!after.includes(url)) ctx.emit('server-url-changed', { operation: 'document', location: `servers ${url}`, message: `server ${url} is gone; servers now: ${after.join(', ') || '(none)'}`, before, after });
  }
}
