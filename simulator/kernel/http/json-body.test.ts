import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { JSON_BODY_BOUNDS, jsonShapeGuard, needsShapeGuard } from './json-body.js';

/** Streams `text` through the guard in `chunk`-byte pieces: 'passed' or the refusal's message. */
async function guard(text: string, chunk = 7): Promise<string> {
  const bytes = Buffer.from(text);
  const pieces = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  try {
    await pipeline(Readable.from(pieces), jsonShapeGuard(), async function* (source) {
      for await (const _ of source);
    });
    return 'passed';
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toEnvelope()).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'body' } });
    return (error as Error).message;
  }
}

const object = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i}`).join(',')}}`;

describe('the JSON shape guard', () => {
  it(`passes an object of ${JSON_BODY_BOUNDS.maxObjectKeys} keys and refuses one more, in any chunking`, async () => {
    expect(await guard(object(JSON_BODY_BOUNDS.maxObjectKeys))).toBe('passed');
    expect(await guard(object(JSON_BODY_BOUNDS.maxObjectKeys + 1), 4096)).toBe(`an object of the body has more than ${JSON_BODY_BOUNDS.maxObjectKeys} keys`);
  });

  it('counts keys per object, not across objects, and no colon, brace or comma inside a string', async () => {
    const many = `[${Array.from({ length: 3 }, () => object(JSON_BODY_BOUNDS.maxObjectKeys)).join(',')}]`;
    expect(await guard(many, 1000)).toBe('passed');
    expect(await guard(`{"a":"${':{[,'.repeat(50_000)}\\":\\\\"}`)).toBe('passed');
  });

  it(`refuses nesting deeper than ${JSON_BODY_BOUNDS.maxDepth} levels and more than ${JSON_BODY_BOUNDS.maxValues} values`, async () => {
    expect(await guard('['.repeat(JSON_BODY_BOUNDS.maxDepth) + ']'.repeat(JSON_BODY_BOUNDS.maxDepth))).toBe('passed');
    expect(await guard('['.repeat(JSON_BODY_BOUNDS.maxDepth + 1))).toBe(`the body nests deeper than ${JSON_BODY_BOUNDS.maxDepth} levels`);
    expect(await guard(`[${'0,'.repeat(JSON_BODY_BOUNDS.maxValues)}0]`, 65536)).toBe(`the body holds more than ${JSON_BODY_BOUNDS.maxValues} values`);
  });

  it('refuses the 5.9 MB body of 500,000 keys after reading a fraction of it', async () => {
    const body = Buffer.from(object(500_000));
    let read = 0;
    const counted = Readable.from((function* () {
      for (let i = 0; i < body.length; i += 16_384) {
        read += 16_384;
        yield body.subarray(i, i + 16_384);
      }
    })());
    await expect(pipeline(counted, jsonShapeGuard(), async function* (source) {
      for await (const _ of source);
    })).rejects.toThrow('more than 10000 keys');
    expect(read).toBeLessThan(body.length / 20);
  });

  it('leaves out only bodies announcing, unencoded, fewer bytes than the smallest object past the key bound', async () => {
    const smallest = object(JSON_BODY_BOUNDS.maxObjectKeys + 1).replace(/"k\d+":\d+/g, '"":0');
    expect(await guard(smallest, 4096)).toContain('keys');
    expect(needsShapeGuard({ 'content-length': String(smallest.length) })).toBe(true);
    expect(needsShapeGuard({ 'content-length': String(smallest.length - 10) })).toBe(false);
    expect(needsShapeGuard({ 'content-length': '120', 'content-encoding': 'gzip' })).toBe(true);
    expect(needsShapeGuard({ 'transfer-encoding': 'chunked' })).toBe(true);
    expect(needsShapeGuard({ 'content-length': '120', 'content-encoding': 'identity' })).toBe(false);
  });
});
