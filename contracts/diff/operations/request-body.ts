// Request bodies (webhook payloads: the same walk, judged from the receiver's side).
import { isObject, type Json, type JsonObject } from '../../lib/bundle.js';
import { deref } from '../../lib/refs.js';
import type { DiffContext } from '../types.js';
import { reportRemoval } from './deprecation-notices.js';
import type { Operation } from './match.js';
import { schemaDiff } from './schema-handoff.js';

export function mediaTypes(content: Json | undefined): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  if (!isObject(content)) return found;
  for (const [type, media] of Object.entries(content)) if (isObject(media)) found.set(type.toLowerCase(), media);
  return found;
}

export function diffRequestBody(ctx: DiffContext, base: Operation, head: Operation): void {
  const operation = head.label;
  const webhook = head.section === 'webhooks';
  const before = deref(ctx.base, base.node.requestBody ?? null);
  const after = deref(ctx.head, head.node.requestBody ?? null);
  const baseBody = isObject(before) ? before : undefined;
  const headBody = isObject(after) ? after : undefined;
  if (!baseBody && !headBody) return;
  const baseMedia = mediaTypes(baseBody?.content);
  const headMedia = mediaTypes(headBody?.content);

  if (webhook) {
    for (const [type, media] of baseMedia) {
      if (!headMedia.has(type)) reportRemoval(ctx, media, 'webhook-media-type-removed', { operation, location: `payload ${type}`, message: headBody ? `the payload is no longer sent as ${type}` : 'the delivery no longer documents a payload' });
    }
    for (const type of headMedia.keys()) {
      if (!baseMedia.has(type)) ctx.emit('webhook-media-type-added', { operation, location: `payload ${type}`, message: `the payload is also sent as ${type}` });
    }
    for (const [type, media] of baseMedia) {
      const other = headMedia.get(type);
      if (other && media.schema !== undefined && other.schema !== undefined) schemaDiff(ctx, media.schema, other.schema, 'response', operation, `payload ${type}`);
    }
    return;
  }

  const wasRequired = baseBody?.required === true;
  const isRequired = headBody?.required === true;
  if (!baseBody && headBody) {
    ctx.emit(isRequired ? 'request-body-required-added' : 'request-body-optional-added', { operation, location: 'request body', message: `${operation} now takes ${isRequired ? 'a required' : 'an optional'} request body` });
    return;
  }
  if (baseBody && !headBody) {
    reportRemoval(ctx, baseBody, 'request-body-removed', { operation, location: 'request body', message: `${operation} no longer documents a request body (what clients send is ignored)` });
    return;
  }
  if (!wasRequired && isRequired) ctx.emit('request-body-made-required', { operation, location: 'request body', message: 'the request body becomes required', before: false, after: true });
  if (wasRequired && !isRequired) ctx.emit('request-body-made-optional', { operation, location: 'request body', message: 'the request body becomes optional', before: true, after: false });
  for (const [type, media] of baseMedia) {
    if (!headMedia.has(type)) reportRemoval(ctx, media, 'request-media-type-removed', { operation, location: `request body ${type}`, message: `request bodies of type ${type} are no longer accepted` });
  }
  for (const type of headMedia.keys()) {
    if (!baseMedia.has(type)) ctx.emit('request-media-type-added', { operation, location: `request body ${type}`, message: `request bodies of type ${type} are now accepted` });
  }
  for (const [type, media] of baseMedia) {
    const other = headMedia.get(type);
    if (other && media.schema !== undefined && other.schema !== undefined) schemaDiff(ctx, media.schema, other.schema, 'request', operation, `request body ${type}`);
  }
}
