// Operation and document rules of the contract change gate: walks both documents (paths and operations,
// webhooks, security schemes, servers), reports what changed at the operation level, and hands every schema
// it meets (parameters, request and response bodies, response headers, webhook payloads) to diffSchema with
// the direction it is judged in (spec 9.3; see contracts/README.md for the vendor extensions read here).
// The rules are in rules.ts; each area of an operation is compared in its own module.
import type { DiffContext } from '../types.js';
import { diffDeprecationNotice, reportRemoval } from './deprecation-notices.js';
import { diffExtensions } from './extensions.js';
import { collectOperations, type Operation } from './match.js';
import { diffParameters } from './parameters.js';
import { diffRequestBody } from './request-body.js';
import { diffResponses } from './responses.js';
import { diffSecurity, diffSecuritySchemes } from './security.js';
import { diffServers } from './servers.js';

export { operationRules } from './rules.js';

export function diffDocuments(ctx: DiffContext): void {
  diffServers(ctx);
  diffSecuritySchemes(ctx);
  for (const section of ['paths', 'webhooks'] as const) {
    const base = collectOperations(ctx.base, section);
    const head = collectOperations(ctx.head, section);
    for (const [key, baseOp] of base) {
      const headOp = head.get(key);
      if (headOp) diffOperation(ctx, baseOp, headOp);
      else reportRemoval(ctx, baseOp.node, section === 'paths' ? 'operation-removed' : 'webhook-event-removed', {
        operation: baseOp.label,
        location: section === 'paths' ? 'operation' : 'event',
        message: section === 'paths' ? `${baseOp.label} is removed` : `webhook event ${baseOp.path} is no longer delivered`,
      });
    }
    for (const [key, headOp] of head) {
      if (base.has(key)) continue;
      ctx.emit(section === 'paths' ? 'operation-added' : 'webhook-event-added', {
        operation: headOp.label,
        location: section === 'paths' ? 'operation' : 'event',
        message: section === 'paths' ? `${headOp.label} is new` : `webhook event ${headOp.path} is new`,
      });
    }
  }
}

function diffOperation(ctx: DiffContext, base: Operation, head: Operation): void {
  const operation = head.label;
  const webhook = head.section === 'webhooks';
  diffDeprecationNotice(ctx, base.node, head.node, operation, webhook ? 'event' : 'operation');
  if (!webhook) {
    const baseId = base.node.operationId;
    const headId = head.node.operationId;
    if (typeof baseId === 'string' && baseId !== headId) {
      ctx.emit('operation-id-changed', { operation, location: 'operationId', message: `operationId ${baseId} is now ${typeof headId === 'string' ? headId : '(none)'}`, before: baseId, after: headId ?? null });
    }
    diffExtensions(ctx, base.node, head.node, operation);
    diffSecurity(ctx, base.node, head.node, operation);
  }
  diffParameters(ctx, base, head);
  diffRequestBody(ctx, base, head);
  if (!webhook) diffResponses(ctx, base.node, head.node, operation);
}
