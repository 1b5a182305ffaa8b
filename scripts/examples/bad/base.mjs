// A small client that keeps every client rule the certification judges (client-cert/), in plain Node
// (fetch, node:http, node:crypto; no project code): each deliberately wrong client beside it changes ONE
// behaviour of this one through `runClient(overrides)`, so that it breaks exactly one rule.
//
// What it does, on the tenant of SANDBOX_API_KEY at SANDBOX_URL:
//   1. exchanges the key once and reuses the token; on 401 INVALID_TOKEN exchanges again and repeats the
//      request once (spec 5.2);
//   2. enqueues a SIMA batch with an Idempotency-Key and a signed webhook (spec 4.2, 6, 8.5);
//   3. polls the job every 2-3 s (spec 8.7) until it is terminal, then waits a while for its webhook;
//      each delivery accepted is processed once per delivery id (spec 6) by reading the job it names;
//   4. uploads a ship invoice file, which takes no Idempotency-Key (spec 4.3);
//   5. sends one invalid batch (screeningAuthority "XX", 400) on purpose, so that what it does after a 4xx
//      can be judged.
// Retries (spec 7): a write once after a 5xx (not the upload, which has no key), never after another 4xx;
// on 429 it waits details.retryAfterSeconds.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The behaviours the wrong clients change; each default keeps the rules. */
export const RIGHT = {
  /** spec 8.7: 2-3 s in the first minute. */
  pollDelayMs: () => 2000 + Math.round(1000 * Math.random()),
  /** Reads of the job after it was seen terminal. */
  pollsAfterTerminal: 0,
  /** spec 7: the token exchange's backoff before retry n+1 (0-based n): 1 s, 2 s, 4 s plus jitter. */
  exchangeBackoffMs: (n) => 1000 * 2 ** n + Math.round(Math.random() * 250),
  /** Exchange the key before every request instead of reusing the token. */
  exchangePerCall: false,
  /** Milliseconds to wait on a 429, given what it asked (seconds). */
  waitOn429Ms: (asked) => asked * 1000,
  /** Attempts after a 5xx: a write once; an upload without a key never. */
  retriesOn5xx: (kind) => (kind === 'upload' ? 0 : 1),
  /** Attempts of the same write after a 4xx (other than 429 and 401). */
  retriesOn4xx: 0,
  /** The receiver's checks. */
  verifySignature: true,
  checkPrefix: true,
  checkTimestamp: true,
  dedupe: true,
};

export async function runClient(overrides = {}) {
  const how = { ...RIGHT, ...overrides };
  const base = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
  const apiKey = process.env.SANDBOX_API_KEY;
  const log = (line) => console.log(line);
  let token = null;

  async function exchange() {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${base}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': apiKey } });
      if (response.ok) return (token = (await response.json()).access_token);
      // spec 7: up to 3 retries on 429/5xx, 1 s, 2 s, 4 s plus jitter.
      if (attempt >= 3 || !(response.status === 429 || response.status >= 500)) throw new Error(`token exchange: ${response.status}`);
      await sleep(how.exchangeBackoffMs(attempt));
    }
  }

  /** One request with the retries of spec 7; `kind`: read, write or upload. */
  async function call(method, path, { body, form, headers = {}, kind = method === 'GET' ? 'read' : 'write' } = {}) {
    let on5xx = 0;
    let on4xx = 0;
    let on429 = 0;
    let reexchanged = false;
    for (;;) {
      if (!token || how.exchangePerCall) await exchange();
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const text = await response.text();
      const json = text ? JSON.parse(text) : null;
      if (response.status === 401 && json?.code === 'INVALID_TOKEN' && !reexchanged) {
        reexchanged = true;
        token = null;
        continue;
      }
      if (response.status === 429 && on429 < 5) {
        on429 += 1;
        const asked = json?.details?.retryAfterSeconds ?? Number(response.headers.get('retry-after') ?? 1);
        await sleep(how.waitOn429Ms(asked));
        continue;
      }
      if (response.status >= 500 && (kind === 'read' ? on5xx < 3 : on5xx < how.retriesOn5xx(kind))) {
        on5xx += 1;
        await sleep(1000);
        continue;
      }
      if (response.status >= 400 && response.status < 500 && kind !== 'read' && on4xx < how.retriesOn4xx) {
        on4xx += 1;
        await sleep(300);
        continue;
      }
      log(`${method} ${path} → ${response.status}${json?.code ? ` ${json.code}` : ''}`);
      return { status: response.status, body: json };
    }
  }

  // The webhook receiver (spec 6).
  const secret = process.env.SANDBOX_WEBHOOK_SECRET ?? randomBytes(32).toString('hex');
  const seen = new Set();
  const processed = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = String(req.headers['x-svc-signature'] ?? '');
      const timestamp = String(req.headers['x-svc-timestamp'] ?? '');
      const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest();
      const prefixOk = !how.checkPrefix || signature.startsWith('v1=');
      const given = Buffer.from(signature.slice(signature.indexOf('=') + 1), 'hex');
      const digestOk = !how.verifySignature || (given.length === expected.length && timingSafeEqual(given, expected));
      const fresh = !how.checkTimestamp || Date.now() / 1000 - Number(timestamp) <= 300;
      if (!prefixOk || !digestOk || !fresh) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(204).end();
      const delivery = JSON.parse(raw.toString());
      if (how.dedupe && seen.has(delivery.id)) return;
      seen.add(delivery.id);
      processed.push(delivery);
      // Processing a delivery: read the job it names, as soon as it came (the API is the source of truth).
      void call('GET', `/api/jobs/${delivery.job.id}`).catch(() => {});
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${server.address().port}/hooks`;

  try {
    const batch = await call('POST', '/api/sima/batch', { body: { skus: null, webhookUrl, webhookSecret: secret }, headers: { 'idempotency-key': randomUUID() } });
    const jobId = batch.status === 202 ? batch.body.jobId : null;
    if (jobId) {
      let job;
      for (;;) {
        job = (await call('GET', `/api/jobs/${jobId}`)).body;
        if (job?.status === 'COMPLETED' || job?.status === 'FAILED') break;
        await sleep(how.pollDelayMs());
      }
      for (let i = 0; i < how.pollsAfterTerminal; i++) {
        await sleep(2500);
        await call('GET', `/api/jobs/${jobId}`);
      }
      // Wait for the webhook (its attempts may be retried), then a moment for anything still arriving.
      const until = Date.now() + 15_000;
      while (processed.length === 0 && Date.now() < until) await sleep(200);
      await sleep(1000);
      log(`job ${jobId} ${job?.status}; ${processed.length} webhook delivery(ies) processed`);
    }
    const invoice = readFileSync(new URL('../../../fixtures/freight/shipments-fedex.csv', import.meta.url));
    const form = new FormData();
    form.append('file', new Blob([invoice]), 'shipments-fedex.csv');
    await call('POST', '/api/ship/upload', { form, kind: 'upload' });
    await call('POST', '/api/sima/batch', { body: { skus: null, screeningAuthority: 'XX' } });
  } finally {
    server.close();
  }
}
