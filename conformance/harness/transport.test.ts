// The suite's one transport (client.ts over transport.ts) against a small local HTTP stub, on a virtual
// clock so nothing really waits: 429s with and without retry metadata, a 429 that persists, the 401
// re-exchange, the token exchange's backoff and lifetime, pacing within a known limit, the provoking mode.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConformanceClient } from './client.js';
import { loadTargetContract } from './contract.js';
import { PERSISTENT_429_BOUND_MS, TokenCache, Transport, type Clock } from './transport.js';
import type { Failure } from './types.js';

/** A clock whose sleeps move time at once, and record how long they were. */
class VirtualClock implements Clock {
  t = 1_000_000;
  sleeps: number[] = [];
  now = () => this.t;
  random = () => 0.5;
  sleep = async (ms: number) => {
    this.sleeps.push(ms);
    this.t += Math.max(0, ms);
  };
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string>; /** close the socket unanswered */ destroy?: boolean };
interface Arrival {
  method: string;
  path: string;
  at: number;
  authorization?: string;
}

const contract = loadTargetContract('v1.3.0');
let server: http.Server;
let baseUrl: string;
let clock: VirtualClock;
let arrivals: Arrival[];
/** Answers by "METHOD path", each list consumed in order; the last one repeats. */
let script: Record<string, Answer[]>;
let exchanges: number;

const rateLimited = (details: Record<string, unknown>, retryAfter?: string): Answer => ({
  status: 429,
  body: { code: 'RATE_LIMITED', message: 'slow down', details },
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
});
const ok = (body: unknown = { jobs: [], count: 0 }): Answer => ({ status: 200, body });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    arrivals.push({ method: req.method!, path, at: clock.now(), authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      let answer: Answer;
      if (path === '/api/auth/token/integration' && !script[`POST ${path}`]) {
        exchanges++;
        answer = ok({ access_token: `token-${exchanges}`, token_type: 'Bearer', expires_in: 3600 });
      } else {
        const list = script[`${req.method} ${path} as ${req.headers.authorization}`] ?? script[`${req.method} ${path}`] ?? [ok()];
        answer = list.length > 1 ? list.shift()! : list[0];
        if (path === '/api/auth/token/integration' && answer.status === 200) exchanges++;
      }
      if (answer.destroy) return void req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  clock = new VirtualClock();
  arrivals = [];
  script = {};
  exchanges = 0;
});

function client(given: ConstructorParameters<typeof Transport>[0] = {}) {
  const failures: Failure[] = [];
  const transport = new Transport(given, clock);
  const c = new ConformanceClient({ baseUrl, apiKey: 'tfk_test_key', contract, sink: (f) => failures.push(f), tokens: new TokenCache(clock), timeoutMs: 5_000, transport });
  /** The failures about limits (the stub's bodies are not meant to conform to the contract). */
  const limitFailures = () => failures.filter((f) => f.rule.startsWith('rate-limit'));
  return { client: c, transport, limitFailures };
}

const reads = () => arrivals.filter((a) => a.method === 'GET');

describe('a 429 with the retry metadata of spec 7', () => {
  it('is waited out as details.retryAfterSeconds asks and sent again, with no failure', async () => {
    const { client: c, limitFailures } = client();
    script['GET /api/jobs'] = [rateLimited({ bucket: 'read', limit: 2, windowMs: 60_000, retryAfterSeconds: 5, keyId: 'k1' }, '5'), ok()];
    const exchange = await c.call('GET', '/api/jobs?limit=1');
    expect(exchange.response.status).toBe(200);
    expect(reads()).toHaveLength(2);
    expect(reads()[1].at - reads()[0].at).toBeGreaterThanOrEqual(5_000);
    expect(limitFailures()).toEqual([]);
  });

  it('teaches the bucket its limit and window, which later requests of the key are paced within', async () => {
    const { client: c, transport, limitFailures } = client();
    script['GET /api/jobs'] = [rateLimited({ bucket: 'read', limit: 2, windowMs: 60_000, retryAfterSeconds: 1, keyId: 'k1' }, '1'), ok()];
    await c.call('GET', '/api/jobs');
    expect(transport.limitOf('tfk_test_key', 'read')).toEqual({ limit: 2, windowMs: 60_000 });
    for (let i = 0; i < 4; i++) await c.call('GET', '/api/jobs');
    // The refused request counted for nothing: from the time the 429 named, the served ones keep the pace.
    const times = reads().slice(1).map((a) => a.at);
    expect(times[0] - reads()[0].at).toBeGreaterThanOrEqual(1_000);
    for (const start of times) expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(2);
    expect(limitFailures()).toEqual([]);
  });

  it('is waited out from Retry-After alone when the details lack retryAfterSeconds', async () => {
    const { client: c, limitFailures } = client();
    script['GET /api/jobs'] = [rateLimited({ bucket: 'read' }, '3'), ok()];
    expect((await c.call('GET', '/api/jobs')).response.status).toBe(200);
    expect(reads()[1].at - reads()[0].at).toBeGreaterThanOrEqual(3_000);
    expect(limitFailures()).toEqual([]);
  });

  it('at a queue-admission cap waits what it asks, without holding the rate bucket', async () => {
    const { client: c, transport, limitFailures } = client();
    script['POST /api/sima/batch'] = [rateLimited({ bucket: 'queue_sima', limit: 1, windowMs: 0, retryAfterSeconds: 3, keyId: 'k1' }, '3'), { status: 202, body: { jobId: 'j' } }];
    expect((await c.call('POST', '/api/sima/batch', { json: { skus: null } })).response.status).toBe(202);
    const posts = arrivals.filter((a) => a.path === '/api/sima/batch');
    expect(posts[1].at - posts[0].at).toBeGreaterThanOrEqual(3_000);
    expect(transport.limitOf('tfk_test_key', 'write')).toBeUndefined();
    expect(limitFailures()).toEqual([]);
  });
});

describe('a 429 the client cannot honour', () => {
  it('without retry metadata is a failure of the server, reported with the exchange and not retried', async () => {
    const { client: c, limitFailures } = client();
    script['GET /api/jobs'] = [{ status: 429, body: { code: 'RATE_LIMITED', message: 'no' } }];
    const exchange = await c.call('GET', '/api/jobs');
    expect(exchange.response.status).toBe(429);
    expect(reads()).toHaveLength(1);
    expect(limitFailures().map((f) => f.rule)).toEqual(['rate-limit-retry-metadata']);
    expect(limitFailures()[0].exchange?.response.status).toBe(429);
  });

  it('persisting past what it asked plus the bound is a failure of the server, after a bounded wait', async () => {
    const { client: c, limitFailures } = client();
    script['GET /api/jobs'] = [rateLimited({ bucket: 'read', limit: 5, windowMs: 10_000, retryAfterSeconds: 10, keyId: 'k1' }, '10')];
    const started = clock.now();
    const exchange = await c.call('GET', '/api/jobs');
    expect(exchange.response.status).toBe(429);
    expect(limitFailures().map((f) => f.rule)).toEqual(['rate-limit-persists']);
    expect(clock.now() - started).toBeLessThanOrEqual(10_000 + PERSISTENT_429_BOUND_MS + 1_000);
    expect(reads().length).toBeGreaterThan(2);
  });
});

describe('the provoking mode (limits.ts)', () => {
  it('neither paces nor retries, and the client still holds the bucket afterwards as the 429 asked', async () => {
    const { client: c, limitFailures } = client({ read: { limit: 1, windowMs: 60_000 } });
    script['GET /api/jobs'] = [ok(), rateLimited({ bucket: 'read', limit: 1, windowMs: 60_000, retryAfterSeconds: 30, keyId: 'k1' }, '30'), ok()];
    const first = await c.call('GET', '/api/jobs', { limits: 'provoke' });
    const second = await c.call('GET', '/api/jobs', { limits: 'provoke' });
    expect([first.response.status, second.response.status]).toEqual([200, 429]);
    expect(reads()[1].at).toBe(reads()[0].at);
    expect(limitFailures()).toEqual([]);
    await c.call('GET', '/api/jobs');
    expect(reads()[2].at - reads()[1].at).toBeGreaterThanOrEqual(30_000);
  });
});

describe('pacing within limits given up front (--rate-limits)', () => {
  it('keeps every window of the bucket within the limit, so the server never refuses', async () => {
    const { client: c, transport } = client({ read: { limit: 3, windowMs: 1_000 } });
    for (let i = 0; i < 10; i++) await c.call('GET', '/api/jobs');
    const times = reads().map((a) => a.at);
    for (const start of times) expect(times.filter((t) => t >= start && t < start + 1_000).length).toBeLessThanOrEqual(3);
    expect(transport.figures.sent.read).toBe(10);
  });

  it('counts uploads, writes and reads in their own buckets (spec 8.1, from the contract)', async () => {
    const { client: c, transport } = client({ write: { limit: 1, windowMs: 1_000 } });
    await c.call('GET', '/api/jobs');
    await c.call('POST', '/api/sima/batch', { json: { skus: null } });
    const form = new FormData();
    form.append('file', new File(['a,b\n'], 'x.csv', { type: 'text/csv' }));
    await c.call('POST', '/api/upload', { form });
    // The token exchange is a non-upload mutation: the write bucket (one exchange, one batch).
    expect(transport.figures.sent).toEqual({ write: 2, read: 1, upload: 1 });
  });
});

describe('the token (spec 2.1, 5.2, 7)', () => {
  it('is exchanged once and reused until shortly before expires_in runs out', async () => {
    const { client: c } = client();
    await c.call('GET', '/api/jobs');
    await c.call('GET', '/api/jobs');
    expect(exchanges).toBe(1);
    clock.t += 3_600_000 - 120_000;
    await c.call('GET', '/api/jobs');
    expect(exchanges).toBe(1);
    clock.t += 90_000;
    await c.call('GET', '/api/jobs');
    expect(exchanges).toBe(2);
    expect(reads().at(-1)?.authorization).toBe('Bearer token-2');
  });

  it('is exchanged again on 401 INVALID_TOKEN and the request retried once with the new token', async () => {
    const { client: c } = client();
    script['GET /api/jobs'] = [{ status: 401, body: { code: 'INVALID_TOKEN', message: 'expired' } }, ok()];
    const exchange = await c.call('GET', '/api/jobs');
    expect(exchange.response.status).toBe(200);
    expect(exchanges).toBe(2);
    expect(reads().map((a) => a.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('exchange is retried up to 3 times on 429/5xx after 1 s, 2 s and 4 s plus jitter', async () => {
    const { client: c } = client();
    const token = { access_token: 'late', token_type: 'Bearer', expires_in: 3600 };
    script['POST /api/auth/token/integration'] = [{ status: 503, body: { code: 'INTERNAL_ERROR' } }, { status: 500, body: {} }, rateLimited({ bucket: 'write', retryAfterSeconds: 0 }, '0'), ok(token)];
    expect(await c.token()).toBe('late');
    // random() is 0.5: each step plus a quarter of it.
    expect(clock.sleeps).toEqual([1_250, 2_500, 5_000]);
  });

  it('exchange gives up after the third retry', async () => {
    const { client: c } = client();
    script['POST /api/auth/token/integration'] = [{ status: 503, body: { code: 'INTERNAL_ERROR' } }];
    await expect(c.token()).rejects.toThrow(/answered 503/);
    expect(arrivals.filter((a) => a.path === '/api/auth/token/integration')).toHaveLength(4);
  });

  it('exchange waits at least what a 429 asks when that is longer than the backoff step', async () => {
    const { client: c } = client();
    script['POST /api/auth/token/integration'] = [rateLimited({ bucket: 'write', limit: 120, windowMs: 60_000, retryAfterSeconds: 20, keyId: 'k' }, '20'), ok({ access_token: 't', token_type: 'Bearer', expires_in: 3600 })];
    expect(await c.token()).toBe('t');
    const times = arrivals.map((a) => a.at);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(20_000);
  });
});

/** A read bucket's 429 naming the key, as a bucket counted per key answers once full. */
const full = (limit: number, retryAfterSeconds: number) => rateLimited({ bucket: 'read', limit, windowMs: 60_000, retryAfterSeconds, keyId: 'k1' }, String(retryAfterSeconds));

describe('whose sends a bucket counts, learned from the 429s (spec 7 details.keyId)', () => {

  it('is per key when the 429 names the key and came once that key alone had sent the limit', async () => {
    const { client: c, transport } = client();
    script['GET /api/jobs'] = [ok(), ok(), full(2, 1), ok()];
    for (let i = 0; i < 3; i++) await c.call('GET', '/api/jobs');
    expect(transport.scopeOf('read')).toBe('per-key');
  });

  it('is shared when the 429 came before the key had sent the limit, and then one pace serves every key', async () => {
    const { client: c, transport } = client();
    script['GET /api/jobs'] = [ok(), full(3, 1), ok()];
    await c.call('GET', '/api/jobs');
    await c.call('GET', '/api/jobs');
    expect(transport.scopeOf('read')).toBe('shared');
    const other = c.withApiKey('tfk_other_key');
    await c.call('GET', '/api/jobs');
    await other.call('GET', '/api/jobs');
    // Three sends since the hold (the retried one, then one of each key) fill the shared window of 3.
    expect(transport.waitOf('tfk_other_key', 'read')).toBeGreaterThan(0);
    expect(transport.waitOf('tfk_test_key', 'read')).toBe(transport.waitOf('tfk_other_key', 'read'));
  });

  it('stays unknown without a keyId, so nothing is spread', async () => {
    const { client: c, transport } = client();
    script['GET /api/jobs'] = [ok(), ok(), rateLimited({ bucket: 'read', limit: 2, windowMs: 60_000, retryAfterSeconds: 1 }, '1'), ok()];
    for (let i = 0; i < 3; i++) await c.call('GET', '/api/jobs');
    expect(transport.scopeOf('read')).toBeUndefined();
  });
});

describe('a client spread over a second key (spreadOver)', () => {
  it('sends as its own key until a 429 shows the bucket is per key, then as whichever key is served sooner, each within its limit', async () => {
    const { client: c, limitFailures } = client();
    const spread = c.spreadOver(c.withApiKey('tfk_second_key'));
    script['GET /api/jobs'] = [ok(), ok(), full(2, 60), ok()];
    for (let i = 0; i < 9; i++) await spread.call('GET', '/api/jobs');
    const byToken = (token: string) => reads().filter((a) => a.authorization === `Bearer ${token}`).map((a) => a.at);
    const own = byToken('token-1');
    const second = byToken('token-2');
    // The first three went as the own key (nothing learned yet); the refused one went again at once as the
    // second key, which the 429 showed is not held by the own key's window.
    expect(reads().slice(0, 3).every((a) => a.authorization === 'Bearer token-1')).toBe(true);
    expect(reads()[3]).toMatchObject({ authorization: 'Bearer token-2', at: reads()[2].at });
    expect(second.length).toBeGreaterThanOrEqual(3);
    // After the 429, neither key sent more than the limit within any window.
    const refusedAt = reads()[2].at;
    for (const times of [own.filter((t) => t > refusedAt), second]) {
      for (const start of times) expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(2);
    }
    // Two keys serve nine requests sooner than one would: the own key alone needed 60 s per two.
    expect(reads().at(-1)!.at - refusedAt).toBeLessThan(3 * 60_000);
    expect(limitFailures()).toEqual([]);
  });

  it('sends again as its own key when the second key is refused for scope, and does not use that key again', async () => {
    const { client: c } = client();
    const spread = c.spreadOver(c.withApiKey('tfk_second_key'));
    script['GET /api/jobs'] = [ok(), ok(), full(2, 60), ok()];
    script['GET /api/jobs as Bearer token-2'] = [{ status: 403, body: { code: 'SCOPE_DENIED', message: 'no scope' } }];
    for (let i = 0; i < 6; i++) expect((await spread.call('GET', '/api/jobs')).response.status).toBe(200);
    expect(reads().filter((a) => a.authorization === 'Bearer token-2')).toHaveLength(1);
  });

  it('never spreads a request that provokes the limit or carries its own credentials', async () => {
    const { client: c } = client();
    const spread = c.spreadOver(c.withApiKey('tfk_second_key'));
    script['GET /api/jobs'] = [ok(), ok(), full(2, 60), ok()];
    for (let i = 0; i < 4; i++) await spread.call('GET', '/api/jobs');
    await spread.call('GET', '/api/jobs', { limits: 'provoke' });
    await spread.call('GET', '/api/jobs', { auth: { bearer: 'forged' } });
    expect(reads().slice(-2).map((a) => a.authorization)).toEqual(['Bearer token-1', 'Bearer forged']);
  });
});

describe('a connection the server closes without answering', () => {
  it('is sent once more on a new connection, and the answer to that is the exchange', async () => {
    const { client: c } = client();
    script['GET /api/jobs'] = [{ status: 0, destroy: true }, ok()];
    expect((await c.call('GET', '/api/jobs')).response.status).toBe(200);
    expect(reads()).toHaveLength(2);
  });

  it('closed again fails the request as before (a server that never answers it)', async () => {
    const { client: c } = client();
    script['GET /api/jobs'] = [{ status: 0, destroy: true }];
    await expect(c.call('GET', '/api/jobs')).rejects.toThrow(/fetch failed/);
    expect(reads()).toHaveLength(2);
  });
});
