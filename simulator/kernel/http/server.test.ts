// The server around the app: Node's parser refusals get the spec's envelope (spec 2.9, 7) and a request
// id, and a client sending less body than it announced is answered and disconnected, not waited for.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { seededIds } from '../ids.js';
import { createHttpServer } from './server.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Requests the handler saw, and refusals reported to onRefused (the request log's feed). */
let reached: string[] = [];
let refused: Array<{ requestId: string; status: number; code: string | undefined }> = [];

/** A server whose handler reads the whole body and answers 200 with its length. */
async function listen(timeouts = { requestTimeoutMs: 1_000, headersTimeoutMs: 500 }): Promise<number> {
  reached = [];
  refused = [];
  server = createHttpServer(
    (req, res) => {
      reached.push(`${req.method} ${req.url}`);
      let length = 0;
      req.on('data', (chunk: Buffer) => (length += chunk.length));
      req.on('end', () => res.end(JSON.stringify({ length })));
      req.on('error', () => undefined);
    },
    { log: pino({ level: 'silent' }), ids: seededIds(7), timeouts, onRefused: (r) => refused.push({ requestId: r.requestId, status: r.status, code: r.code }) },
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes and collects everything the server writes until it closes the connection. */
function exchange(port: number, raw: string | Buffer): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no close after 10 s; got: ${text}`)));
  });
}

function parse(text: string) {
  const [head, body] = text.split('\r\n\r\n');
  const lines = head.split('\r\n');
  const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(lines[0].split(' ')[1]), headers, body: JSON.parse(body) as { code: string; details?: { reason?: string } } };
}

describe('createHttpServer', () => {
  it('answers well-formed requests through the handler', async () => {
    const port = await listen();
    const { text } = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc');
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain('{"length":3}');
  });

  it.each([
    ['a header name with a space', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
    ['a control character in a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
    ['Content-Length beside Transfer-Encoding (smuggling)', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['two different Content-Lengths', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
  ])('answers %s with 400 INVALID_REQUEST in the envelope and a request id', async (_name, raw) => {
    const port = await listen();
    const response = parse((await exchange(port, raw)).text);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'malformed_request' } });
  });

  it('answers oversize headers in the envelope, with reason headers_too_large', async () => {
    const port = await listen();
    const response = parse((await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`)).text);
    expect([response.status, response.body.code, response.body.details?.reason]).toEqual([400, 'INVALID_REQUEST', 'headers_too_large']);
  });

  it('answers a body shorter than its Content-Length within the request timeout, and closes', async () => {
    const port = await listen({ requestTimeoutMs: 1_000, headersTimeoutMs: 500 });
    const { text, ms } = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly this');
    const response = parse(text);
    expect([response.status, response.body.code, response.body.details?.reason]).toEqual([400, 'INVALID_REQUEST', 'request_timeout']);
    expect(ms).toBeLessThan(5_000);
  });

  it('closes a connection whose headers never finish within the headers timeout', async () => {
    const port = await listen({ requestTimeoutMs: 1_000, headersTimeoutMs: 500 });
    const { text, ms } = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(parse(text).body.details?.reason).toBe('request_timeout');
    expect(ms).toBeLessThan(5_000);
  });

  // Issue 30 item 5: requests Node answers itself unless told otherwise, and pipelines.
  it.each([
    ['an HTTP/1.1 request without Host', 'GET /api/jobs HTTP/1.1\r\n\r\n', 'missing_host'],
    ['an Expect other than 100-continue', 'GET /api/jobs HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n', 'unsupported_expectation'],
  ])('answers %s with 400 INVALID_REQUEST in the envelope and a request id, reported to the request log', async (_name, raw, reason) => {
    const port = await listen();
    const response = parse((await exchange(port, raw)).text);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.connection).toBe('close');
    expect(response.body).toMatchObject({ code: 'INVALID_REQUEST', details: { reason } });
    expect(reached).toEqual([]);
    expect(refused).toEqual([{ requestId: response.headers['x-request-id'], status: 400, code: expect.any(String) }]);
  });

  it('lets an HTTP/1.0 request without Host and an Expect: 100-continue request through to the app', async () => {
    const port = await listen();
    expect((await exchange(port, 'GET /old HTTP/1.0\r\n\r\n')).text).toMatch(/^HTTP\/1\.1 200[^]*\{"length":0\}$/);
    const { text } = await exchange(port, 'POST /continue HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab');
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200[^]*\{"length":2\}$/);
    expect(reached).toEqual(['GET /old', 'POST /continue']);
  });

  it.each([
    ['a malformed request', 'GARBAGE\r\n\r\n', 'malformed_request'],
    ['a request without Host', 'GET /second HTTP/1.1\r\n\r\n', 'missing_host'],
    ['an unmet expectation', 'GET /second HTTP/1.1\r\nHost: x\r\nExpect: nope\r\n\r\n', 'unsupported_expectation'],
  ])('answers a pipeline of a good request then %s in order: the good one 200, then the refusal in the envelope', async (_name, second, reason) => {
    const port = await listen();
    const { text } = await exchange(port, `GET /first HTTP/1.1\r\nHost: x\r\n\r\n${second}`);
    const answers = text.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200[^]*\{"length":0\}$/);
    const refusal = parse(answers[1]!);
    expect([refusal.status, refusal.body.code, refusal.body.details?.reason]).toEqual([400, 'INVALID_REQUEST', reason]);
    expect(refusal.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(reached).toEqual(['GET /first']);
  });
});
