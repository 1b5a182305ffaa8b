// A JSON request body read within bounds checked WHILE it arrives (sandbox-defined; simulator/README.md
// "Defaults the spec leaves open"): its size once inflated, its nesting, the keys of any one object and the
// values in all. A 5.9 MB body of 500,000 keys costs JSON.parse, the nesting walk and schema validation about
// a second of blocked event loop (issue 30); scanned as it streams in, it is refused after its first 10,001
// keys, before anything parses it. What passes is parsed exactly as before (co-body: strict, an empty body
// is {}, `__proto__` refused), so every other answer stays the same.
import { createRequire } from 'node:module';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import coBody from 'co-body';
import type { Context } from 'koa';
import { invalidRequest } from '../errors.js';
import { MAX_BODY_DEPTH } from './json-depth.js';

const inflate = createRequire(import.meta.url)('inflation') as (stream: Readable) => Readable;

export const JSON_BODY_BOUNDS = {
  /** Keys of one object: no object of any served contract comes near (a map of findings holds 1,000). */
  maxObjectKeys: 10_000,
  /** Values (of any kind, containers included) in the whole body: ten times the largest list a contract takes. */
  maxValues: 1_000_000,
  /** Nesting of arrays and objects, the body itself level 1 (json-depth.ts). */
  maxDepth: MAX_BODY_DEPTH,
} as const;

/** The media types read as JSON (koa-body's defaults, which the other bodies still go through). */
export const JSON_TYPES = ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json'];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * Counts a JSON text's structure byte by byte across chunks (structural characters are ASCII, so UTF-8
 * needs no decoding): keys per open object (its colons), values (commas and containers), depth. It does
 * not judge the syntax: what is not JSON fails in the parser afterwards, as before.
 */
export function jsonShapeGuard(bounds = JSON_BODY_BOUNDS): Transform {
  let inString = false;
  let escaped = false;
  const keys: number[] = []; // per open container: its keys so far, -1 for an array
  let values = 1;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) inString = false;
          continue;
        }
        if (byte === QUOTE) inString = true;
        else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
          keys.push(byte === OPEN_OBJECT ? 0 : -1);
          if (keys.length > bounds.maxDepth) return done(invalidRequest(`the body nests deeper than ${bounds.maxDepth} levels`, 'body'));
        } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) keys.pop();
        else if (byte === COLON && keys.length > 0 && keys[keys.length - 1] >= 0) {
          if (++keys[keys.length - 1] > bounds.maxObjectKeys) {
            return done(invalidRequest(`an object of the body has more than ${bounds.maxObjectKeys} keys`, 'body'));
          }
        } else if (byte === COMMA && ++values > bounds.maxValues) {
          return done(invalidRequest(`the body holds more than ${bounds.maxValues} values`, 'body'));
        }
      }
      done(null, chunk);
    },
  });
}

/** Whether koa-body would read this request's body as JSON. */
export const isJsonRequest = (ctx: Pick<Context, 'is' | 'method'>): boolean => ['POST', 'PUT', 'PATCH'].includes(ctx.method.toUpperCase()) && Boolean(ctx.is(JSON_TYPES));

/**
 * Bytes below which a JSON text can break no bound but the nesting: the fewest bytes per key are five
 * (`"":0,`) and per value two (`0,`). The nesting of such a body is refused right after parsing
 * (validate-request.ts, the same 400), and parsing it blocks nothing.
 */
const SHAPE_GUARD_FROM_BYTES = Math.min(5 * JSON_BODY_BOUNDS.maxObjectKeys, 2 * JSON_BODY_BOUNDS.maxValues);

/**
 * Whether a JSON body must go through the shape guard: any body but one that announces, unencoded, fewer
 * bytes than a bound needs. The guard is a stream stage per request; skipping it for the small bodies of
 * everyday calls kept a SIMA batch at its rate (issue 25's bench: 94 % of it with the stage).
 */
export function needsShapeGuard(headers: Context['headers']): boolean {
  const encoding = headers['content-encoding'];
  const length = Number(headers['content-length']);
  return (encoding !== undefined && encoding !== 'identity') || !Number.isSafeInteger(length) || length >= SHAPE_GUARD_FROM_BYTES;
}

/**
 * Reads and parses the JSON body of `ctx` into ctx.request.body (as koa-body does): inflated (a
 * `Content-Encoding` it does not know is the 415 of before), through the shape guard, then co-body's strict
 * parse with the size limit counted on the inflated bytes. A body refused part-way is drained unread.
 */
export async function readJsonBody(ctx: Context, limit: string | number, bounds = JSON_BODY_BOUNDS): Promise<void> {
  const req = ctx.req;
  const inflated = inflate(req);
  const guarded = inflated.pipe(jsonShapeGuard(bounds));
  inflated.once('error', (error) => guarded.destroy(error));
  // A client gone before its body ended is co-body's 400 of before, not a read left waiting forever.
  req.once('close', () => {
    if (!req.complete) guarded.destroy(Object.assign(new Error('request aborted'), { status: 400, code: 'ECONNABORTED' }));
  });
  // co-body reads `req.headers`: the bytes it gets are already inflated, and of no announced length.
  const headers = { ...req.headers, 'content-encoding': 'identity' };
  delete headers['content-length'];
  try {
    (ctx.request as { body?: unknown }).body = await coBody.json(Object.assign(guarded, { headers }) as never, { limit, strict: true, encoding: 'utf-8' });
  } catch (error) {
    // Not read to its end: the rest is discarded so the answer goes out and the connection stays usable.
    if (!req.complete) {
      req.unpipe();
      req.resume();
    }
    throw error;
  }
}
