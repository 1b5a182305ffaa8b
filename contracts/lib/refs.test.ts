// Following $refs in one document: the pointer forms a swagger-parser bundle uses, and what stays unresolved.
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './bundle.js';
import { deref, resolveRef } from './refs.js';

const doc = {
  openapi: '3.1.0',
  info: { title: 'refs', version: '1' },
  paths: {
    '/api/feeds/{sessionId}': {
      post: { requestBody: { content: { 'application/json': { schema: { allOf: [{ type: 'object' }, { properties: { runPolicy: { enum: ['always'] } } }] } } } } },
    },
  },
  components: {
    schemas: {
      'a~b': { type: 'string' },
      Alias: { $ref: '#/components/schemas/Target' },
      Target: { type: 'integer' },
      Wrapper: { $ref: '#/paths/~1api~1feeds~1%7BsessionId%7D/post/requestBody' },
      Loop: { $ref: '#/components/schemas/Loop2' },
      Loop2: { $ref: '#/components/schemas/Loop' },
      Nothing: null,
    },
  },
} as unknown as OpenApiDocument;

const RUN_POLICY = '#/paths/~1api~1feeds~1%7BsessionId%7D/post/requestBody/content/application~1json/schema/allOf/1/properties/runPolicy';

describe('resolveRef', () => {
  it('follows a pointer into paths, through an array, with ~1 and percent escapes', () => {
    expect(resolveRef(doc, RUN_POLICY)).toEqual({ enum: ['always'] });
  });

  it('decodes ~0 as a tilde', () => {
    expect(resolveRef(doc, '#/components/schemas/a~0b')).toEqual({ type: 'string' });
  });

  it('follows a reference met on the way and one at the target', () => {
    expect(resolveRef(doc, '#/components/schemas/Wrapper/content/application~1json/schema/allOf/0')).toEqual({ type: 'object' });
    expect(resolveRef(doc, '#/components/schemas/Alias')).toEqual({ type: 'integer' });
  });

  it('resolves a pointer to an explicit null as null', () => {
    expect(resolveRef(doc, '#/components/schemas/Nothing')).toBeNull();
  });

  it('leaves another file, a URL and a pointer to nothing unresolved', () => {
    expect(resolveRef(doc, './schemas/Job.yaml')).toBeUndefined();
    expect(resolveRef(doc, 'https://example.com/schemas.json#/Job')).toBeUndefined();
    expect(resolveRef(doc, '#/components/schemas/Missing')).toBeUndefined();
    expect(resolveRef(doc, '#/paths/~1api~1feeds~1%7BsessionId%7D/post/requestBody/content/application~1json/schema/allOf/7')).toBeUndefined();
  });

  it('stops on a cycle of references instead of looping', () => {
    expect(resolveRef(doc, '#/components/schemas/Loop')).toHaveProperty('$ref');
  });

  it('sees a document changed after its first lookup', () => {
    const copy = structuredClone(doc) as unknown as { components: { schemas: { Target: { type: string } } } } & OpenApiDocument;
    expect(resolveRef(copy, '#/components/schemas/Target')).toEqual({ type: 'integer' });
    copy.components.schemas.Target.type = 'number';
    expect(resolveRef(copy, '#/components/schemas/Target')).toEqual({ type: 'number' });
  });
});

describe('deref', () => {
  it('returns a node that is no reference as it is', () => {
    expect(deref(doc, { type: 'string' })).toEqual({ type: 'string' });
  });

  it('returns the target of a local reference', () => {
    expect(deref(doc, { $ref: RUN_POLICY })).toEqual({ enum: ['always'] });
  });

  it('keeps a reference to another file as it is, so both sides compare it by its text', () => {
    expect(deref(doc, { $ref: './schemas/Job.yaml' })).toEqual({ $ref: './schemas/Job.yaml' });
  });

  it('reads a dangling local pointer as an absent node', () => {
    expect(deref(doc, { $ref: '#/components/schemas/Missing' })).toBeNull();
  });
});
