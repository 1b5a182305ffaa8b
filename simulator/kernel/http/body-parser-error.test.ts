// What the body parser's failures are to the client (contract-routes.ts bodyParserError): zlib's errors on
// a body that is not what its Content-Encoding says are the client's 400, never a 500 (issue 15).
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { bodyParserError } from './contract-routes.js';

const zlibError = (inflate: () => unknown): unknown => {
  try {
    inflate();
  } catch (error) {
    return error;
  }
  throw new Error('expected zlib to fail');
};

describe('bodyParserError', () => {
  it.each([
    ['gzip', zlibError(() => gunzipSync(Buffer.from('not gzip')))],
    ['br', zlibError(() => brotliDecompressSync(Buffer.from('not brotli at all')))],
  ])('turns a %s decompression failure into 400 INVALID_REQUEST naming the body', (encoding, error) => {
    const mapped = bodyParserError(error, encoding);
    expect(mapped).toBeInstanceOf(ApiError);
    expect(mapped).toMatchObject({ status: 400, code: 'INVALID_REQUEST', details: { field: 'body' } });
  });

  it("turns the parser's 415 for an unknown Content-Encoding into INVALID_FILE_FORMAT naming the header", () => {
    expect(bodyParserError(Object.assign(new Error('Unsupported Content-Encoding: x'), { status: 415 }), 'x-unknown')).toMatchObject({ status: 415, code: 'INVALID_FILE_FORMAT', details: { field: 'Content-Encoding' } });
  });

  it('leaves every other failure as it was (bad JSON keeps its 400, a crash without encoding stays a crash)', () => {
    const badJson = Object.assign(new Error('invalid JSON'), { status: 400 });
    expect(bodyParserError(badJson, undefined)).toBe(badJson);
    const crash = new Error('boom');
    expect(bodyParserError(crash, undefined)).toBe(crash);
    expect(bodyParserError(crash, 'identity')).toBe(crash);
  });
});
