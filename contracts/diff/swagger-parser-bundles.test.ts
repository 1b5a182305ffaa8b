// The gate reads a bundle made by swagger-parser (`SwaggerParser.bundle()`), not only the project's own: such a
// bundle inlines each shared schema at its first use and points every other use there, into `paths`, through
// arrays (`.../allOf/1/properties/runPolicy`) and with escaped segments (`~1`, `%7B`). Once a pointer went
// unresolved, its schema read as a free value and an added enum value became two breaking changes.
import SwaggerParser from '@apidevtools/swagger-parser';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleContract, CONTRACTS_DIR, isObject, type Json, type JsonObject, type OpenApiDocument } from '../lib/bundle.js';
import { diffContracts } from './diff.js';
import type { Change } from './types.js';

const VERSIONS = ['v1.3.0', 'v1.2.0', 'v1.1.0'];
const DATE = { date: new Date('2026-06-01T00:00:00Z') };
const bundles = new Map<string, OpenApiDocument>();

beforeAll(async () => {
  for (const version of VERSIONS) {
    bundles.set(version, (await SwaggerParser.bundle(path.join(CONTRACTS_DIR, version, 'openapi.yaml'))) as unknown as OpenApiDocument);
  }
});

/** A fresh copy of the swagger-parser bundle of `version`, to edit. */
const bundleOf = (version: string): OpenApiDocument => structuredClone(bundles.get(version)!);

const diff = (base: OpenApiDocument, head: OpenApiDocument) => diffContracts(base, head, { base: 'base', head: 'head' }, DATE);
const summary = (changes: Change[]) => changes.map((c) => `${c.severity} ${c.rule} ${c.operation} ${c.location}: ${c.message}`);

/** The node at `keys` below `node` (no $ref followed: the test walks to the place it edits). */
function at(node: Json, ...keys: (string | number)[]): JsonObject {
  let current: Json = node;
  for (const key of keys) current = Array.isArray(current) ? current[key as number] : isObject(current) ? current[key] : null;
  if (!isObject(current)) throw new Error(`nothing at ${keys.join(' / ')}`);
  return current;
}

/** The node a local `$ref` of the bundle points to, found by swagger-parser's own resolver (not the gate's). */
async function target(doc: OpenApiDocument, ref: string): Promise<JsonObject> {
  const refs = await SwaggerParser.resolve(structuredClone(doc) as never);
  return structuredClone(refs.get(ref)) as JsonObject;
}

// POST /api/sima/batch takes runPolicy from the first operation that declared it (POST /api/upload).
const batchProperties = (doc: OpenApiDocument) => at(doc, 'paths', '/api/sima/batch', 'post', 'requestBody', 'content', 'application/json', 'schema', 'allOf', 1, 'properties');
// GET /api/trade/feeds/{sessionId}/skus takes its paging fields from the first paged list (GET /api/ship/findings).
const skusSchema = (doc: OpenApiDocument) => at(doc, 'paths', '/api/trade/feeds/{sessionId}/skus', 'get', 'responses', '200', 'content', 'application/json', 'schema');

describe('swagger-parser bundles', () => {
  it('point into paths through arrays, with escaped segments (the case under test exists)', () => {
    const doc = bundleOf('v1.3.0');
    expect(batchProperties(doc).runPolicy).toEqual({ $ref: expect.stringMatching(/^#\/paths\/~1api~1upload\/.*\/allOf\/1\/properties\/runPolicy$/) });
    expect(at(skusSchema(doc), 'allOf', 0)).toEqual({ $ref: expect.stringMatching(/^#\/paths\/~1api~1ship~1findings\/.*\/allOf\/0$/) });
  });

  for (const version of VERSIONS) {
    it(`a swagger-parser bundle of ${version} compared with itself has no change`, () => {
      expect(summary(diff(bundleOf(version), bundleOf(version)).changes)).toEqual([]);
    });

    it(`a swagger-parser bundle of ${version} and the project's own bundle of it are the same contract`, () => {
      const own = bundleContract(path.join(CONTRACTS_DIR, version, 'openapi.yaml'));
      expect(summary(diff(own, bundleOf(version)).changes)).toEqual([]);
      expect(summary(diff(bundleOf(version), own).changes)).toEqual([]);
    });
  }

  it('a value added to a request enum reached through an array pointer, then inlined, is not breaking', async () => {
    const base = bundleOf('v1.3.0');
    const head = bundleOf('v1.3.0');
    const runPolicy = await target(head, String(at(batchProperties(head), 'runPolicy').$ref));
    batchProperties(head).runPolicy = { ...runPolicy, enum: [...(runPolicy.enum as string[]), 'skip_all_duplicates'] };
    const result = diff(base, head);
    expect(summary(result.changes)).toEqual([
      'info request-enum-value-added POST /api/sima/batch request body application/json .runPolicy: enum value "skip_all_duplicates" now accepted.',
    ]);
  });

  it('a value added to a shared request enum at the place every pointer reaches is not breaking', async () => {
    const base = bundleOf('v1.3.0');
    const head = bundleOf('v1.3.0');
    const runPolicy = at(head, 'paths', '/api/upload', 'post', 'requestBody', 'content', 'multipart/form-data', 'schema', 'allOf', 1, 'properties', 'runPolicy');
    runPolicy.enum = [...(runPolicy.enum as string[]), 'skip_all_duplicates'];
    const result = diff(base, head);
    expect(result.counts.breaking).toBe(0);
    expect(result.changes.map((c) => c.operation)).toContain('POST /api/sima/batch');
    expect(new Set(result.changes.map((c) => c.rule))).toEqual(new Set(['request-enum-value-added']));
  });

  it('an optional response property added to a schema reached through an array pointer, then inlined, is not breaking', async () => {
    const base = bundleOf('v1.3.0');
    const head = bundleOf('v1.3.0');
    const paging = skusSchema(head).allOf as Json[];
    const envelope = await target(head, String(at(paging, 0).$ref));
    paging[0] = { ...envelope, properties: { ...(envelope.properties as JsonObject), nextCursor: { type: 'string' } } };
    const result = diff(base, head);
    expect(result.counts.breaking).toBe(0);
    expect(summary(result.changes)).toEqual([
      expect.stringMatching(/^info response-property-added GET \/api\/trade\/feeds\/\{sessionId\}\/skus .*nextCursor/),
    ]);
  });

  it('a value removed from a request enum reached through an array pointer is breaking', async () => {
    const base = bundleOf('v1.3.0');
    const head = bundleOf('v1.3.0');
    const runPolicy = await target(head, String(at(batchProperties(head), 'runPolicy').$ref));
    batchProperties(head).runPolicy = { ...runPolicy, enum: ['always'] };
    const result = diff(base, head);
    expect(summary(result.changes)).toEqual([
      expect.stringMatching(/^breaking request-enum-value-removed POST \/api\/sima\/batch request body application\/json \.runPolicy: .*skip_exact_duplicates/),
    ]);
  });

  it('a required response property removed from a schema reached through an array pointer is breaking', () => {
    const base = bundleOf('v1.3.0');
    const head = bundleOf('v1.3.0');
    const envelope = at(head, 'paths', '/api/ship/findings', 'get', 'responses', '200', 'content', 'application/json', 'schema', 'allOf', 0);
    delete (envelope.properties as JsonObject).hasMore;
    envelope.required = (envelope.required as string[]).filter((name) => name !== 'hasMore');
    const removed = diff(base, head).changes.filter((c) => c.rule === 'response-property-removed' && c.severity === 'breaking');
    expect(removed.map((c) => c.operation)).toContain('GET /api/trade/feeds/{sessionId}/skus');
    expect(removed.every((c) => /hasMore/.test(c.location))).toBe(true);
  });
});
