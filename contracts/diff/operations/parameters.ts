// Parameters: matched by location and name (path parameters by position in the template), judged as what a
// client sends; for a webhook, the delivery headers, judged from the receiver's side.
import { isObject, type Json, type JsonObject } from '../../lib/bundle.js';
import type { DiffContext, Direction } from '../types.js';
import { diffDeprecationNotice, reportRemoval } from './deprecation-notices.js';
import type { Operation } from './match.js';
import { schemaDiff } from './schema-handoff.js';

interface ParamEntry {
  param: JsonObject;
  in: string;
  name: string;
  /** Matching key: `path#<position in the template>` for path parameters (names are free), else in + name. */
  key: string;
}

function paramEntries(op: Operation): Map<string, ParamEntry> {
  const positions = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const entries = new Map<string, ParamEntry>();
  for (const param of op.parameters) {
    const name = param.name as string;
    const where = param.in as string;
    const position = where === 'path' ? positions.indexOf(name) : -1;
    const key = where === 'path' && position >= 0 ? `path#${position}` : `${where}.${where === 'header' ? name.toLowerCase() : name}`;
    entries.set(key, { param, in: where, name, key });
  }
  return entries;
}

const paramLocation = (entry: ParamEntry) => `${entry.in}.${entry.name}`;

export function paramSchema(param: JsonObject): Json | undefined {
  if (param.schema !== undefined) return param.schema;
  if (isObject(param.content)) {
    const first = Object.values(param.content)[0];
    if (isObject(first)) return first.schema;
  }
  return undefined;
}

function serialization(param: JsonObject): { style: string; explode: boolean } | undefined {
  if (param.schema === undefined && isObject(param.content)) return undefined;
  const where = param.in as string;
  const style = typeof param.style === 'string' ? param.style : where === 'query' || where === 'cookie' ? 'form' : 'simple';
  const explode = typeof param.explode === 'boolean' ? param.explode : style === 'form';
  return { style, explode };
}

export function diffParameters(ctx: DiffContext, base: Operation, head: Operation): void {
  const operation = head.label;
  const webhook = head.section === 'webhooks';
  const direction: Direction = webhook ? 'response' : 'request';
  const baseParams = paramEntries(base);
  const headParams = paramEntries(head);
  const removed = [...baseParams.values()].filter((p) => !headParams.has(p.key));
  const added = [...headParams.values()].filter((p) => !baseParams.has(p.key));

  // Same name, another location: one change, not a removal plus an addition.
  if (!webhook) {
    for (const gone of [...removed]) {
      const moved = added.find((p) => p.name.toLowerCase() === gone.name.toLowerCase() && p.in !== gone.in);
      if (!moved) continue;
      removed.splice(removed.indexOf(gone), 1);
      added.splice(added.indexOf(moved), 1);
      ctx.emit('parameter-location-changed', { operation, location: paramLocation(gone), message: `parameter ${gone.name} moves from ${gone.in} to ${moved.in}`, before: gone.in, after: moved.in });
      diffParameterSchema(ctx, gone, moved, operation, direction, paramLocation(moved));
    }
  }

  for (const gone of removed) {
    const location = paramLocation(gone);
    if (webhook) {
      reportRemoval(ctx, gone.param, 'webhook-header-removed', { operation, location, message: `delivery ${gone.in} ${gone.name} is no longer sent` });
    } else if (gone.in === 'query') {
      reportRemoval(ctx, gone.param, 'parameter-query-removed', { operation, location, message: `query parameter ${gone.name} is removed (the server ignores it)` });
    } else {
      reportRemoval(ctx, gone.param, 'parameter-removed', { operation, location, message: `${gone.in} parameter ${gone.name} is removed` });
    }
  }
  for (const fresh of added) {
    const location = paramLocation(fresh);
    const required = fresh.param.required === true;
    if (webhook) ctx.emit('webhook-header-added', { operation, location, message: `delivery ${fresh.in} ${fresh.name} is new${required ? ' (always sent)' : ''}` });
    else ctx.emit(required ? 'parameter-required-added' : 'parameter-optional-added', { operation, location, message: `new ${required ? 'required' : 'optional'} ${fresh.in} parameter ${fresh.name}` });
  }

  for (const [key, was] of baseParams) {
    const now = headParams.get(key);
    if (!now) continue;
    const location = paramLocation(now);
    const wasRequired = was.param.required === true;
    const isRequired = now.param.required === true;
    if (webhook) {
      if (wasRequired && !isRequired) ctx.emit('webhook-header-made-optional', { operation, location, message: `delivery ${now.in} ${now.name} is no longer always sent`, before: true, after: false });
    } else if (!wasRequired && isRequired) {
      ctx.emit('parameter-made-required', { operation, location, message: `${now.in} parameter ${now.name} becomes required`, before: false, after: true });
    } else if (wasRequired && !isRequired) {
      ctx.emit('parameter-made-optional', { operation, location, message: `${now.in} parameter ${now.name} becomes optional`, before: true, after: false });
    }
    if (!webhook) {
      const before = serialization(was.param);
      const after = serialization(now.param);
      if (before && after && (before.style !== after.style || before.explode !== after.explode)) {
        ctx.emit('parameter-style-changed', {
          operation,
          location,
          message: `${now.in} parameter ${now.name} is serialized as style ${after.style}, explode ${after.explode} (was ${before.style}, explode ${before.explode})`,
          before: before as unknown as Json,
          after: after as unknown as Json,
        });
      }
    }
    diffDeprecationNotice(ctx, was.param, now.param, operation, location);
    diffParameterSchema(ctx, was, now, operation, direction, location);
  }
}

function diffParameterSchema(ctx: DiffContext, was: ParamEntry, now: ParamEntry, operation: string, direction: Direction, location: string): void {
  const before = paramSchema(was.param);
  const after = paramSchema(now.param);
  if (before !== undefined && after !== undefined) schemaDiff(ctx, before, after, direction, operation, location);
}
