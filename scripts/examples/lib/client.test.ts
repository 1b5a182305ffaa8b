// The example client's auth and retry rules (spec 5.2, 7, 8.5) against a scripted local server: each test
// says what the server answers, in order, and checks what the client sent and how long it chose to wait.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createSandboxClient, ok } from './client.js';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that answers the token exchange with token-1, token-2, ... and other requests from `script`. */
async function scripted(script: (seen: Seen, index: number) => Answer) {
  const seen: Seen[] = [];
  let tokens = 0;
  let others = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      const answer = entry.path === '/api/auth/token/integration' ? { status: 200, body: { access_token: `token-${++tokens}`, token_type: 'Bearer', expires_in: 3600, default_adapter: null } } : script(entry, others++);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req-${seen.length}`, ...answer.headers }).end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const waits: number[] = [];
  const client = createSandboxClient({
    baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`,
    apiKey: 'ik_test',
    log: () => {},
    sleep: async (ms) => void waits.push(ms),
    random: () => 0,
  });
  return { client, seen: () => seen.filter((s) => s.path !== '/api/auth/token/integration'), all: () => seen, waits };
}

const JOB_ACCEPTED = { jobId: '0b8c7a9e-3f1d-4e2b-9c5a-6d7e8f9a0b1c', status: 'PENDING', message: 'queued', replayed: false };
const error = (status: number, code: string, details?: Record<string, unknown>): Answer => ({ status, body: { code, message: code.toLowerCase(), ...(details ? { details } : {}) } });

describe('the example client', () => {
  it('exchanges the key once, sends the bearer, and on 401 INVALID_TOKEN exchanges again and repeats the request once (spec 5.2)', async () => {
    const { client, seen, all } = await scripted((_, i) => (i === 1 ? error(401, 'INVALID_TOKEN') : { status: 200, body: { jobs: [], count: 0 } }));
    ok(await client.api.GET('/api/jobs'), 'first');
    ok(await client.api.GET('/api/jobs'), 'second');
    expect(all()[0].headers['x-api-key']).toBe('ik_test');
    expect(seen().map((s) => s.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
    expect(client.exchanges()).toBe(2);
  });

  it('does not loop on a second 401: the error reaches the caller', async () => {
    const { client, seen } = await scripted(() => error(401, 'INVALID_TOKEN'));
    const result = await client.api.GET('/api/jobs');
    expect(() => ok(result, 'list jobs')).toThrow(ApiError);
    expect(seen()).toHaveLength(2);
  });

  it('gives a POST to an idempotent endpoint an Idempotency-Key and sends the same key and body on its retry after a 503 (spec 7, 8.5)', async () => {
    const { client, seen, waits } = await scripted((_, i) => (i === 0 ? error(503, 'INTERNAL_ERROR') : { status: 202, body: JOB_ACCEPTED }));
    ok(await client.api.POST('/api/sima/batch', { body: { skus: ['A-1'] } }), 'enqueue');
    const [first, retry] = seen();
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(retry.body).toBe(first.body);
    expect(waits).toEqual([1000]);
  });

  it('retries an enqueue write once on 5xx, not twice', async () => {
    const { client, seen } = await scripted(() => error(500, 'INTERNAL_ERROR'));
    expect((await client.api.POST('/api/sima/batch', { body: { skus: null } })).response.status).toBe(500);
    expect(seen()).toHaveLength(2);
  });

  it('never retries an upload without idempotency support, nor claim creation, on 5xx (spec 7, 4.5)', async () => {
    const { client, seen } = await scripted(() => error(500, 'INTERNAL_ERROR'));
    const form = new FormData();
    form.append('file', new Blob(['a,b\n']), 'x.csv');
    await client.api.POST('/api/ship/upload', { body: {} as never, bodySerializer: () => form });
    await client.api.POST('/api/ship/claims/submissions', { body: { carrier: 'FEDEX', findingIds: ['0b8c7a9e-3f1d-4e2b-9c5a-6d7e8f9a0b1c'] } });
    expect(seen().map((s) => s.path)).toEqual(['/api/ship/upload', '/api/ship/claims/submissions']);
  });

  it('never retries a 4xx other than 429', async () => {
    const { client, seen } = await scripted(() => error(400, 'INVALID_REQUEST', { field: 'skus' }));
    const result = await client.api.POST('/api/sima/batch', { body: { skus: [] } });
    expect(result.error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(seen()).toHaveLength(1);
  });

  it('on 429 waits details.retryAfterSeconds, else the Retry-After header, then sends again (spec 7)', async () => {
    const { client, seen, waits } = await scripted((_, i) =>
      i === 0 ? error(429, 'RATE_LIMITED', { bucket: 'read', retryAfterSeconds: 7 }) : i === 1 ? { ...error(429, 'RATE_LIMITED'), headers: { 'retry-after': '3' } } : { status: 200, body: { jobs: [], count: 0 } },
    );
    ok(await client.api.GET('/api/jobs'), 'list jobs');
    expect(waits).toEqual([7000, 3000]);
    expect(seen()).toHaveLength(3);
  });

  it('retries the token exchange up to 3 times on 5xx with 1 s, 2 s, 4 s backoff, then reports the failure (spec 7)', async () => {
    let exchanges = 0;
    server = createServer((req, res) => {
      exchanges += 1;
      req.resume().on('end', () => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'down' })));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const waits: number[] = [];
    const client = createSandboxClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k', log: () => {}, sleep: async (ms) => void waits.push(ms), random: () => 0 });
    await expect(client.api.GET('/api/jobs')).rejects.toThrow(/token exchange .*503 INTERNAL_ERROR/);
    expect(exchanges).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });
});
